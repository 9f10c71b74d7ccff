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
