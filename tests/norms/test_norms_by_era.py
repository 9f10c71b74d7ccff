"""Issue 30 items 3 and 4: the title-norm rules of B.01 2024 in their own words, the older
eras' numbers (norms follow the era of the event, as ratings do), and women's title norms only
for players known to be female."""

from __future__ import annotations

from pipeline.norms import check_norms
from pipeline.norms.games import EventFacts
from pipeline.norms.render import text_lines
from tests.norms.test_norms import BASE, event


def _table(sides, people, **facts):
    report = check_norms(sides, people, {"E": EventFacts("E", host="ESP", **facts)})
    return report, report.table[report.table["id"] == "P"]


def test_womens_norms_only_for_players_known_to_be_female():
    # "a woman's title norm needs the player known to be female (TRF 001 sex `w`/`f`, or the
    # list's)": blank sex -> GM and IM only, and the report says whose sex was unknown.
    sides, people = event(BASE, title="FM", sex="")
    report, rows = _table(sides, people)
    assert rows["norm"].tolist() == ["GM", "IM"]
    assert report.events[0]["sex_unknown"] == ["P"]
    assert any("sex is unknown" in line for line in text_lines(report))
    for sex in ("w", "f", "W"):
        sides, people = event(BASE, title="FM", sex=sex)
        report, rows = _table(sides, people)
        assert rows["norm"].tolist() == ["GM", "IM", "WGM", "WIM"], sex
        assert report.events[0]["sex_unknown"] == []


def test_unrated_opponents_count_1400_from_2022_and_1000_before():
    # B.01 2024 1.4.6d: "Unrated opponents not covered by 1.4.6b shall be considered to be
    # rated 1400"; before 2022 they counted 1000. Two unrated opponents (8 and 9): the lowest is
    # raised to the GM floor 2200 (1.4.6c), the other counts as the era says.
    # 7 rated: 2500 + 2500 + 2480 + 3 x 2420 + 2400 = 17140.
    # 2024: 17140 + 2200 + 1400 = 20740, Ra = 2304.44 -> 2304; 2021: + 1000 -> 20340 = 9 x 2260.
    opps = [o if i < 7 else type(o)(None, "", o.fed, o.score) for i, o in enumerate(BASE)]
    sides, people = event(opps)
    ras = {}
    for start in ("2024-05-01", "2022-01-01", "2021-12-31", "2005-07-28"):
        report, rows = _table(sides, people, start=start)
        gm = rows[rows["norm"] == "GM"].iloc[0]
        ras[start] = (int(gm["ra"]), int(gm["raised_to"]))
        counted = "1400" if start >= "2022" else "1000"
        assert f"unrated opponent(s) counted as {counted}" in gm["to_confirm"]
        assert report.events[0]["start"] == start
    assert ras == {
        "2024-05-01": (2304, 2200),
        "2022-01-01": (2304, 2200),
        "2021-12-31": (2260, 2200),
        "2005-07-28": (2260, 2200),
    }


def test_gm_and_im_performance_2601_and_2451_before_2009_07():
    # "Before 1 July 2009 ... For the GM Norm 2601 / For the IM Norm 2451": the base case's
    # Rp 2600 (Ra 2434 + dp 166) is a GM norm from 2009-07 (+0.5 over 2599.5) and misses by
    # 0.5 before (2600 < 2600.5).
    sides, people = event(BASE)
    _, after = _table(sides, people, start="2009-07-01")
    _, before = _table(sides, people, start="2009-06-30")
    gm_after = after[after["norm"] == "GM"].iloc[0]
    gm_before = before[before["norm"] == "GM"].iloc[0]
    assert (gm_after["min_performance"], gm_after["min_performance_margin"]) == ("met", 0.5)
    assert (gm_before["min_performance"], gm_before["min_performance_margin"]) == (
        "missed",
        -0.5,
    )
