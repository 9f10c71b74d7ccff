"""First ratings by era (docs/rules-by-era.md): the 2024 method (two imaginary 1800 draws) from
2024-03-01, the older method before it (Ru = Ra + a step per half point above 50%, Ra + dp
below), the era's games minimum, first-event minimum, cap and floor. Worked by hand; the dp values
are those of FIDE table 8.1.1 (p 0.30 -> -149, 0.36 -> -102, 0.64 -> 102, 0.86 -> 309)."""

from __future__ import annotations

from contextlib import closing
from fractions import Fraction

import openpyxl
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.lists.first_rating import compute, first_ratings, mark_zero_first_events
from pipeline.rules.fide_tables import dp_table
from pipeline.rules.sets import get_rules
from tests.conftest import run_cli
from tests.jobs.test_period_cli import PERIOD_SAMPLE, period_args, rows
from tests.lists.test_period_first_rating import pool, totals


def era(name: str):
    return get_rules(name).first_rating_rules


# (era, games, points_h, opponents' sum, Ru before the cap, published rating or None)
CASES = [
    # 2025 (2024 method): Ra = (8500 + 3600) / 7 = 1728.57; p = 4.5 / 7 = 0.64 -> dp 102;
    # Ru = 1830.57 -> 1831.
    ("standard-2025", 5, 350, 8500, 1831, 1831),
    # 2024 method, cap: Ra = (12000 + 3600) / 7 = 2228.57; p = 6 / 7 = 0.86 -> dp 309;
    # Ru = 2537.57 -> 2538, published as 2200.
    ("standard-2024", 5, 500, 12000, 2538, 2200),
    # 2024 method, floor 1400: Ra = (6000 + 3600) / 7 = 1371.43; p = 2.5 / 7 = 0.36 -> dp -102;
    # Ru = 1269.43 -> 1269 < 1400: not published.
    ("standard-2024", 5, 150, 6000, 1269, None),
    # 2022 (older, 20 per half point): Ra = 8500 / 5 = 1700; 3.5 of 5 is 2 half points above
    # 50% -> 1700 + 40 = 1740.
    ("standard-2022", 5, 350, 8500, 1740, 1740),
    # 2022, below 50%: Ra 1200, p = 1.5 / 5 = 0.30 -> dp -149 -> 1051 >= floor 1000: published
    # (the same results give 1269, unpublished, from 2024-03).
    ("standard-2022", 5, 150, 6000, 1051, 1051),
    # 2014, no cap: Ra 2400, 5 of 5 is 5 half points above 50% -> 2400 + 100 = 2500.
    ("standard-2014", 5, 500, 12000, 2500, 2500),
    # 2014, exactly 50%: Ru = Ra = 1700.
    ("standard-2014", 5, 250, 8500, 1700, 1700),
    # 2012-07 .. 2014-06 (15 per half point, K 30): 9 games were needed until 2014-06-30
    # ("Effective 1.July.2014 ... only 5 games ... (down from 9 games)"): 4 of 5 gives
    # Ra 2000 + 3 half points x 15 = 2045, not published; 6 of 9 is published.
    ("standard-2012", 5, 400, 10000, 2045, None),
    ("standard-2012", 9, 600, 18000, 2045, 2045),
    # 2014-07 on, 5 games: the same 4 of 5 against 2000 gives 2000 + 3 x 20 = 2060.
    ("standard-2014", 5, 400, 10000, 2060, 2060),
    # 2011: 9 games needed; 4 of 5 as above gives 2045 but is not published.
    ("standard-2011", 5, 400, 10000, 2045, None),
    # 2009 (12.5 per half point): Ra 2000, 6 of 9 is 3 half points above 50% -> 2037.5 -> 2038.
    ("standard-2009", 9, 600, 18000, 2038, 2038),
    # 2006 (the same method), floor 1400: Ra 1500, p = 2 / 9 = 0.22 -> dp -220 -> 1280: no.
    ("standard-2006", 9, 200, 13500, 1280, None),
]


@pytest.mark.parametrize(("name", "games", "points_h", "opp_sum", "ru", "published"), CASES)
def test_first_rating_by_era(name, games, points_h, opp_sum, ru, published):
    row = compute(totals(games, points_h, opp_sum), era(name)).iloc[0]
    assert int(row["ru"]) == ru
    assert bool(row["published"]) == (published is not None)
    if published is not None:
        assert int(row["rating"]) == published


def older_reference(n: int, points: Fraction, opp_sum: int, step: Fraction) -> int:
    """The older method with fractions: Ra + step per half point above 50%, else Ra + dp(p)."""
    ra = Fraction(opp_sum, n)
    half_points = 2 * points - n
    if half_points >= 0:
        exact = ra + step * half_points
    else:
        p = points / n
        p_h = int(p * 100 + Fraction(1, 2))  # two decimals, .005 up
        exact = ra + int(dp_table().dp(p_h))
    return int(exact + Fraction(1, 2))  # whole number, .5 up


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(["standard-2022", "standard-2012", "standard-2009"]),
    n=st.integers(min_value=1, max_value=30),
    data=st.data(),
)
def test_older_method_matches_the_fraction_reference(name, n, data):
    rules = era(name)
    points_h = data.draw(st.integers(min_value=0, max_value=2 * n)) * 50
    opp_sum = sum(data.draw(st.lists(st.integers(1001, 2800), min_size=n, max_size=n)))
    row = compute(totals(n, points_h, opp_sum), rules).iloc[0]
    step = Fraction(rules.half_point_step_h, 100)
    expected = older_reference(n, Fraction(points_h, 100), opp_sum, step)
    assert int(row["rating"]) == expected
    assert bool(row["published"]) == (n >= rules.min_games and expected >= rules.floor)


@pytest.mark.parametrize(
    ("name", "first_points_h", "disregarded"),
    [
        # From 2012-07 a first event is disregarded only at zero: half a point counts.
        ("standard-2025", 0, True),
        ("standard-2022", 50, False),
        # Before 2012-07 a first event needs at least one point (FIDE news, 13 Jul 2009).
        ("standard-2011", 50, True),
        ("standard-2009", 100, False),
    ],
)
def test_first_event_minimum_by_era(name, first_points_h, disregarded):
    current = pool(
        [
            ("p", "h1", "A", "2011-05", "2011-05-01", 4, first_points_h, 7200, False),
            ("p", "h2", "B", "2011-05", "2011-05-20", 5, 250, 9000, False),
        ]
    )
    result = first_ratings(current, pool([]), "2011-05", era(name))
    assert result.current["disregarded"].tolist() == [disregarded, False]


def test_floor_is_the_eras():
    assert [get_rules(n).first_rating_rules.floor for n in ("standard-2025", "standard-2014")] == [
        1400,
        1000,
    ]
    frame = compute(
        pd.DataFrame({"games": [0], "points_h": [0], "opp_sum": [0]}), era("standard-2014")
    )
    assert not bool(frame["published"].iloc[0])  # an empty pool: never published


def test_period_run_uses_the_eras_floor_and_method(tmp_path):
    # The sample period under the 2022 rules: Jansen (1408, loses all 8 games) falls below 1400
    # but not below that era's floor 1000, so he stays rated; the summary names 1000.
    sample = PERIOD_SAMPLE
    out = tmp_path / "out"
    done = run_cli(*period_args(sample, out, "--rules", "standard-2022"))
    assert done.exit_code == 0, done.stderr
    new = rows(out / "rating_list_2026-12.csv")
    assert 1000 <= int(new["5100100"]["rating"]) < 1400
    changes = rows(out / "changes_2026-11.csv")
    assert changes["5100100"]["status"] == "rated"
    first = rows(out / "first_ratings_2026-11.csv")["5100118"]
    # The older method: Ra over the rated opponents only (no imaginary 1800 games).
    ra = Fraction(int(first["opponents_sum"]), int(first["pooled_games"]))
    assert Fraction(first["ra"]) == Fraction(int(ra * 100 + Fraction(1, 2)), 100)
    with closing(openpyxl.load_workbook(out / "report_2026-11.xlsx", read_only=True)) as book:
        items = [row[0] for row in book["Summary"].iter_rows(values_only=True)]
    assert "dropped below 1000" in items and "dropped below 1400" not in items


results = st.tuples(
    st.sampled_from(["p", "q", "r10", "r9"]),
    st.sampled_from(["B", "A", "Ä", "a b"]),
    st.sampled_from(["2026-11-01", "2026-10-30", "2026-11-15"]),
    st.sampled_from([0, 50, 100]),
)


@settings(max_examples=80, deadline=None)
@given(st.lists(results, max_size=12), st.sets(st.sampled_from(["p", "q", "r9"])))
def test_zero_first_event_is_each_new_players_earliest(rows_given, before):
    """Disregarded: a player's earliest result (by start date, then event name, then row) when
    the player has none in the earlier pool and scored under the era's minimum; nothing else."""
    current = pool(
        [
            (p, f"h{i}", e, "2026-11", d, 3, h, 6000, False)
            for i, (p, e, d, h) in enumerate(rows_given)
        ]
    )
    earlier = pool([(p, "h", "E", "2026-10", "2026-10-01", 3, 150, 6000, False) for p in before])
    rules = era("standard-2025")
    marked = mark_zero_first_events(current, earlier, rules)["disregarded"].tolist()
    earliest = {}
    for i, (p, e, d, _) in enumerate(rows_given):
        if p not in earliest or (d, e) < earliest[p][0]:
            earliest[p] = ((d, e), i)
    expected = [
        earliest[p][1] == i and p not in before and h < rules.first_event_min_points_h
        for i, (p, _, _, h) in enumerate(rows_given)
    ]
    assert marked == expected


@pytest.mark.parametrize(
    ("name", "games", "points_h", "disregarded"),
    [
        # Before 2014-07 a first event counts only with at least 3 rated opponents and 1 point
        # ("plays against at least three rated opponents, scores at least 1 point", FIDE news,
        # 13 Jul 2009); "there is no longer a performance norm required of 3 games against a
        # FIDE rated player with 1pt or more" from 2014-07-01.
        ("standard-2012", 2, 150, True),
        ("standard-2012", 3, 100, False),
        ("standard-2012", 3, 50, True),
        ("standard-2009", 2, 200, True),
        ("standard-2014", 2, 150, False),
        ("standard-2014", 1, 50, False),
        ("standard-2014", 3, 0, True),  # from 2014-07: a zero first event only
    ],
)
def test_first_event_three_games_and_one_point_until_2014_06(name, games, points_h, disregarded):
    current = pool([("n", "h1", "E", "2013-05", "2013-05-01", games, points_h, 6000, False)])
    marked = mark_zero_first_events(current, pool([]), era(name))["disregarded"].tolist()
    assert marked == [disregarded]


@pytest.mark.parametrize(
    ("name", "floor"),
    [
        ("standard-2006", 1801),  # 2003 text: "ratings drop below 1801 ... delisted"
        ("standard-2008", 1801),
        ("standard-2009", 1200),  # "after 1.7.2009 the floor will be 1200"
        ("standard-2011", 1000),  # "lowering of the Rating floor ... down to 1000" (Jun 2011)
        ("standard-2022", 1000),
        ("standard-2024", 1400),  # qc.fide.com, 1 Mar 2024: "the new rating floor ... 1400"
    ],
)
def test_floors_by_era(name, floor):
    assert get_rules(name).floor == era(name).floor == floor
