"""A K the input cannot decide is marked assumed (issue 35, item 3).

The K precedence (RULES.md section 4: 10 once 2400, 40 junior below 2300, 40 under 30 games,
else 20) reads three facts an input may not give: the 2400 history, the birth year and the
rated games so far. The oracle here is the precedence itself (``base_k``): a K is assumed
exactly when some way of filling in the facts the input left blank gives another K.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.grouper.kfactor import assumed_k_warning, base_k, unknown_facts
from pipeline.rules.k_facts import UNKNOWN_2400, UNKNOWN_BIRTH, UNKNOWN_GAMES, assumed_label
from pipeline.rules.sets import RULE_SETS, KPrecedence

YEAR = 2026
STANDARD = KPrecedence()


def players(rows: list[dict]) -> pd.DataFrame:
    """A players frame as the grouper reads it: blank (None) = the input does not say."""
    frame = pd.DataFrame(rows)
    return pd.DataFrame(
        {
            "rating": pd.array(frame["rating"], dtype="Int64"),
            "k": pd.array(frame.get("k", [None] * len(frame)), dtype="Int64"),
            "birth_year": pd.array(frame["birth_year"], dtype="Int64"),
            "games": pd.array(frame["games"], dtype="Int64"),
            "ever_2400": pd.array(frame["ever_2400"], dtype="boolean"),
        }
    )


def facts(frame: pd.DataFrame, precedence: KPrecedence = STANDARD) -> np.ndarray:
    k, _ = base_k(frame, precedence, YEAR)
    return unknown_facts(frame, k, precedence, YEAR)


# The players, as a TRF alone gives them (rating and birth year; no games, no history).
SILVA = {"rating": 1650, "birth_year": 1988, "games": None, "ever_2400": None}
OKAFOR = {"rating": 2194, "birth_year": 1985, "games": None, "ever_2400": None}


@pytest.mark.parametrize(
    "player, expected",
    [
        # Silva: 12 games on the list (K 40); a TRF says neither games nor history.
        (SILVA, UNKNOWN_GAMES | UNKNOWN_2400),
        # Okafor has reached 2400 (K 10); a TRF shows 2194 only.
        (OKAFOR, UNKNOWN_GAMES | UNKNOWN_2400),
        # The list gives every fact: known.
        ({**SILVA, "games": 12, "ever_2400": False}, 0),
        ({**OKAFOR, "games": 512, "ever_2400": True}, 0),
        # A rating of 2400+ has reached 2400: K 10 whatever else is blank.
        ({"rating": 2450, "birth_year": None, "games": None, "ever_2400": None}, 0),
        # A published K is used as given.
        ({**SILVA, "k": 20}, 0),
        # An unrated player has no K to assume.
        ({"rating": None, "birth_year": None, "games": None, "ever_2400": None}, 0),
        # A junior below 2300 (K 40) whose history is blank: 10 if it had reached 2400.
        ({"rating": 1842, "birth_year": 2010, "games": None, "ever_2400": None}, UNKNOWN_2400),
        # ... with the history given, the junior K is known even without a games count (the
        # junior rule comes first, and "fewer than 30 games" would give 40 too).
        ({"rating": 1842, "birth_year": 2010, "games": None, "ever_2400": False}, 0),
        # No birth year: a player below 2300 could be a junior (40).
        ({"rating": 1900, "birth_year": None, "games": 400, "ever_2400": False}, UNKNOWN_BIRTH),
        # ... but at 2300 or more no junior K applies, birth year or not.
        ({"rating": 2350, "birth_year": None, "games": 400, "ever_2400": False}, 0),
        # Fewer than 30 games (40) given: the birth year could only give 40 too.
        ({"rating": 1900, "birth_year": None, "games": 12, "ever_2400": False}, 0),
    ],
)
def test_which_facts_leave_k_assumed(player, expected):
    assert facts(players([player]))[0] == expected


def test_a_forced_k_is_never_assumed():
    frame = players([SILVA, OKAFOR])
    k, _ = base_k(frame, STANDARD, YEAR, forced_k=16)
    assert (unknown_facts(frame, k, STANDARD, YEAR, forced_k=16) == 0).all()


def test_rules_not_in_force_in_the_era_cannot_make_k_assumed():
    # standard-2012 has no junior K: a blank birth year changes nothing there.
    era = RULE_SETS["standard-2012"].k
    player = {"rating": 1900, "birth_year": None, "games": 400, "ever_2400": False}
    assert facts(players([player]), era)[0] == 0


def test_the_reason_says_what_the_input_lacked():
    assert assumed_label("standard K", UNKNOWN_GAMES | UNKNOWN_2400) == (
        "standard K (assumed: no games count, no 2400 history)"
    )
    assert assumed_label("standard K", 0) == "standard K"


# Values of each fact that decide every rule one way or the other.
FILL = {
    "ever_2400": [False, True],
    "birth_year": [YEAR - 10, YEAR - 40],  # a junior, an adult
    "games": [0, 500],
}
BIT = {"ever_2400": UNKNOWN_2400, "birth_year": UNKNOWN_BIRTH, "games": UNKNOWN_GAMES}


@st.composite
def a_player(draw: st.DrawFn) -> dict:
    return {
        "rating": draw(st.one_of(st.none(), st.integers(1000, 2900))),
        "k": draw(st.one_of(st.none(), st.sampled_from([10, 20, 40]))),
        "ever_2400": draw(st.one_of(st.none(), st.booleans())),
        "birth_year": draw(st.one_of(st.none(), st.integers(YEAR - 80, YEAR - 5))),
        "games": draw(st.one_of(st.none(), st.integers(0, 60))),
    }


@given(st.lists(a_player(), min_size=1, max_size=20), st.sampled_from(sorted(RULE_SETS)))
def test_assumed_exactly_when_a_blank_fact_could_change_k(rows, era):
    """A fact is named iff filling it in (the others as they stand or filled in too) can give
    a K other than the one used; a K with no such fact is known."""
    precedence = RULE_SETS[era].k
    frame = players(rows)
    k, _ = base_k(frame, precedence, YEAR)
    got = unknown_facts(frame, k, precedence, YEAR)
    # Every row with its blank facts filled in every way, rated at once (one base_k call).
    filled_rows, owner = [], []
    for i, row in enumerate(rows):
        blank = [f for f in FILL if row[f] is None]
        for values in itertools.product(*(FILL[f] for f in blank)):
            filled_rows.append({**row, **dict(zip(blank, values, strict=True))})
            owner.append(i)
    other_k = base_k(players(filled_rows), precedence, YEAR)[0]
    changes = {
        i
        for i, other in zip(owner, other_k, strict=True)
        if not (pd.isna(other) and pd.isna(k.iloc[i])) and other != k.iloc[i]
    }
    for i, row in enumerate(rows):
        blank = [f for f in FILL if row[f] is None]
        assert (got[i] != 0) == (i in changes), (row, int(got[i]))
        # Only blank facts are ever named.
        named = {f for f, bit in BIT.items() if got[i] & bit}
        assert named <= set(blank), (row, named)


def test_the_warning_names_a_few_counts_the_rest_and_says_the_fix():
    n = 8
    totals = pd.DataFrame(
        {
            "id": [f"{i}" for i in range(n)],
            "name": [f"Player {i}" for i in range(n)],
            "k_assumed": [True] * 7 + [False],
            "k_reason": [assumed_label("standard K", UNKNOWN_GAMES)] * 6
            + [assumed_label("standard K", UNKNOWN_BIRTH), "standard K"],
        }
    )
    warning = assumed_k_warning(totals, named=5)
    assert warning is not None
    # What the input lacked: the union over the assumed players, nothing more.
    start = "K assumed (marked *) for 7 players (no games count, no birth year): "
    assert warning.startswith(start)
    assert "Player 0 0" in warning and "Player 4 4" in warning and "Player 5" not in warning
    assert "and 2 more" in warning and "--players" in warning
    assert assumed_k_warning(totals.assign(k_assumed=False)) is None
