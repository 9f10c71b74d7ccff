"""Hypothesis properties of the engine, the grouper and the rounding rule."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import GamesInput, PlayerList, RateOptions, rate_inputs
from pipeline.engine import expected_units
from pipeline.grouper import apply_700_rule
from pipeline.rules.fide_tables import expectancy_table
from pipeline.rules.rounding import round_half_away
from pipeline.rules.sets import get_rules

ratings = st.integers(1000, 2900)


@given(st.integers(-3000, 3000))
def test_pd_of_both_sides_sums_to_one(d):
    table = expectancy_table()
    assert table.lookup_h(np.array([d]))[0] + table.lookup_h(np.array([-d]))[0] == 100


@given(st.lists(st.integers(-1200, 1200), min_size=2, max_size=50))
def test_pd_is_monotone_in_the_difference(diffs):
    diffs = np.sort(np.array(diffs))
    for method in ("fide", "formula"):
        assert np.all(np.diff(expected_units(diffs, method)) >= 0)


@given(st.integers(-(10**12), 10**12), st.sampled_from([100, 1_000_000]))
def test_round_half_away_matches_decimal(units, scale):
    expected = int((Decimal(units) / scale).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    assert round_half_away(np.array([units]), scale)[0] == expected


@given(st.integers(1, 100), st.integers(0, 500))
def test_seven_hundred_rule_gives_the_largest_allowed_k(k, n):
    used = int(apply_700_rule(np.array([k]), np.array([n]), 700)[0])
    assert used * n <= 700 or used == k and k * n <= 700
    assert used <= k
    if used < k:
        assert (used + 1) * n > 700


@st.composite
def events(draw):
    """A random event among rated and unrated players, with forfeits."""
    n_players = draw(st.integers(2, 12))
    ids = [f"{4100000 + i}" for i in range(n_players)]
    rating = draw(st.lists(st.one_of(ratings, st.just(0)), min_size=n_players, max_size=n_players))
    n_games = draw(st.integers(1, 40))
    rows = []
    for r in range(n_games):
        a, b = draw(
            st.lists(st.sampled_from(range(n_players)), min_size=2, max_size=2, unique=True)
        )
        result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "1-0", "+-"]))
        rows.append((ids[a], ids[b], result, str(r + 1)))
    return ids, rating, rows


def _rate(ids, rating, rows, **options):
    from pipeline.readers.events.results import GAME_RESULTS

    games = pd.DataFrame(
        {
            "event": "E",
            "round": [r[3] for r in rows],
            "date": pd.array([pd.NA] * len(rows), dtype="string"),
            "white": [r[0] for r in rows],
            "black": [r[1] for r in rows],
            "result": [GAME_RESULTS[r[2]].canonical for r in rows],
            "white_h": [GAME_RESULTS[r[2]].white_h for r in rows],
            "black_h": [GAME_RESULTS[r[2]].black_h for r in rows],
            "played": [GAME_RESULTS[r[2]].played for r in rows],
            "white_rating": pd.array([pd.NA] * len(rows), dtype="Int64"),
            "black_rating": pd.array([pd.NA] * len(rows), dtype="Int64"),
            "source": "generated",
            "line": np.arange(2, len(rows) + 2),
        }
    )
    players = pd.DataFrame(
        {
            "id": ids,
            "name": ids,
            "rating": pd.array([r or None for r in rating], dtype="Int64"),
            "k": pd.array([None] * len(ids), dtype="Int64"),
            "birth_year": pd.array([None] * len(ids), dtype="Int64"),
            "games": pd.array([None] * len(ids), dtype="Int64"),
            "ever_2400": False,
            "federation": "",
            "title": "",
            "sex": "",
            "line": np.arange(2, len(ids) + 2),
        }
    )
    return rate_inputs(
        [GamesInput("generated", games)], PlayerList("players", players), RateOptions(**options)
    )


@settings(max_examples=30, deadline=None)
@given(events())
def test_zero_sum_with_equal_k_and_no_cap_asymmetry(event):
    ids, rating, rows = event
    # Everybody below 2650 under the 2024 rules: the cap is the same for both sides of a game.
    rating = [min(r, 2600) for r in rating]
    totals = _rate(ids, rating, rows, rules="standard-2024", k=20).totals
    assert int(totals["change_units"].sum()) == 0
    assert int(totals["dev_units"].sum()) == 0


@settings(max_examples=20, deadline=None)
@given(events(), st.randoms(use_true_random=False))
def test_period_change_does_not_depend_on_game_order(event, rnd):
    ids, rating, rows = event
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    a = _rate(ids, rating, rows).totals
    b = _rate(ids, rating, shuffled).totals
    columns = [
        "id",
        "k",
        "games",
        "score_h",
        "expected_units",
        "change_units",
        "change",
        "new_rating",
    ]
    pd.testing.assert_frame_equal(a[columns], b[columns])


@settings(max_examples=25, deadline=None)
@given(events())
def test_change_is_k_times_deviation_rounded_once(event):
    ids, rating, rows = event
    totals = _rate(ids, rating, rows).totals
    for row in totals.itertuples():
        if row.games == 0:
            assert row.change == 0
            continue
        exact = Decimal(int(row.k) * row.dev_units) / 100
        assert row.change == int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))
        assert row.new_rating == row.rating + row.change


@given(ratings, ratings)
def test_cap_is_decided_by_the_side_being_rated(a, b):
    rules = get_rules("standard")
    sides = pd.DataFrame(
        {
            "player_rating": pd.array([a, b], dtype="Int64"),
            "opponent_rating": pd.array([b, a], dtype="Int64"),
            "played": [True, True],
            "score_h": [100, 0],
        }
    )
    from pipeline.engine import rate_sides

    rated = rate_sides(sides, rules)
    for own, opp, diff in zip((a, b), (b, a), rated["diff"], strict=True):
        if own >= 2650:
            assert diff == own - opp
        else:
            assert diff == max(-400, min(400, own - opp))
