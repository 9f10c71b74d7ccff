"""First ratings (RULES.md section 7): the golden case, the rules around it, and a property check
against the plain Fraction implementation in ``period_reference``."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from period_reference import first_rating as reference_first_rating

from pipeline.lists.first_rating import compute, first_ratings


def totals(games: int, points_h: int, opp_sum: int) -> pd.DataFrame:
    return pd.DataFrame(
        {"games": [games], "points_h": [points_h], "opp_sum": [opp_sum]}, index=["p1"]
    )


def test_golden_case_1922():
    # EXAMPLES.md: 5 games, 3 points, opponents summing to 9507 -> Ra 1872.43, p 4/7 -> 0.57,
    # dp 50, Ru 1922.43 -> 1922.
    row = compute(totals(5, 300, 9507)).iloc[0]
    assert row["ra_h"] == 187243
    assert row["p_h"] == 57
    assert row["dp"] == 50
    assert row["rating"] == 1922
    assert bool(row["published"])


def test_fewer_than_five_games_is_not_published():
    row = compute(totals(4, 300, 4 * 1900)).iloc[0]
    assert not row["published"] and not row["enough_games"]


def test_capped_at_2200():
    row = compute(totals(6, 600, 6 * 2300)).iloc[0]
    assert row["ru"] > 2200 and row["rating"] == 2200 and bool(row["published"])


def test_below_1400_is_not_published():
    # Ra = (5 x 1450 + 3600) / 7 = 1550; p = 1.5 / 7 = 0.21 -> dp -230 -> 1320.
    row = compute(totals(5, 50, 5 * 1450)).iloc[0]
    assert row["rating"] < 1400 and not row["published"]


def test_p_rounds_005_up():
    # n = 18, points 5.5: p = 6.5 / 20 = 0.325 exactly -> 0.33 (.005 up), not 0.32.
    assert compute(totals(18, 550, 18 * 1800)).iloc[0]["p_h"] == 33


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=40),
    data=st.data(),
)
def test_matches_the_fraction_reference(n, data):
    points_h = data.draw(st.integers(min_value=0, max_value=2 * n)) * 50
    opp_sum = sum(data.draw(st.lists(st.integers(1001, 2800), min_size=n, max_size=n)))
    row = compute(totals(n, points_h, opp_sum)).iloc[0]
    ru, published = reference_first_rating(n, Fraction(points_h, 100), opp_sum)
    assert (int(row["rating"]), bool(row["published"])) == (ru, published)


def pool(rows):
    frame = pd.DataFrame(
        rows,
        columns=[
            "player_id",
            "event_sha256",
            "event",
            "period",
            "start_date",
            "games",
            "points_h",
            "opp_sum",
            "disregarded",
        ],
    )
    return frame.astype(
        {"games": "int64", "points_h": "int64", "opp_sum": "int64", "disregarded": bool}
    )


def test_zero_score_in_the_first_event_is_disregarded():
    current = pool(
        [
            ("p", "h1", "A", "2026-05", "2026-05-01", 4, 0, 7200, False),
            ("p", "h2", "B", "2026-05", "2026-05-20", 5, 250, 9000, False),
        ]
    )
    result = first_ratings(current, pool([]), "2026-05")
    assert result.current["disregarded"].tolist() == [True, False]
    assert result.ratings.loc["p", "games"] == 5


def test_zero_score_later_counts():
    earlier = pool([("p", "h0", "Z", "2026-04", "2026-04-03", 2, 100, 3600, False)])
    current = pool([("p", "h1", "A", "2026-05", "2026-05-01", 4, 0, 7200, False)])
    result = first_ratings(current, earlier, "2026-05")
    assert not result.current["disregarded"].any()
    assert result.ratings.loc["p", "games"] == 6


@pytest.mark.parametrize(("old_period", "pooled"), [("2024-04", 8), ("2024-03", 5)])
def test_pool_spans_at_most_26_months(old_period, pooled):
    # Period 2026-05: the 26 months are 2024-04 .. 2026-05.
    earlier = pool([("p", "h0", "Z", old_period, f"{old_period}-03", 3, 150, 5400, False)])
    current = pool([("p", "h1", "A", "2026-05", "2026-05-01", 5, 250, 9000, False)])
    assert first_ratings(current, earlier, "2026-05").ratings.loc["p", "games"] == pooled


def test_dropped_reads_text_and_coded_statuses_alike():
    """``dropped`` gives the same answer for the statuses as text (the changes table) and as
    the next list's codes (one label per status)."""
    from pipeline.lists.next_list import STATUS_FIRST, STATUS_IDLE, dropped, status_dropped

    labels = [STATUS_IDLE, STATUS_FIRST, status_dropped(1400), status_dropped(1000), "below"]
    text = pd.Series(labels * 3, dtype=str)
    coded = text.astype("category")
    assert dropped(text).tolist() == [False, False, True, True, False] * 3
    assert dropped(coded).tolist() == dropped(text).tolist()
