"""The totals' shortcuts (issue 13): the natural order of ids written as numbers without sorting
text, each partial player's row of the info found through the list's id look-up, and the rules'
text taken by code. Each against a plain reference on random inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.grouper.totals import (
    category_text,
    finish_totals,
    info_and_rows,
    natural_order,
    partial_totals,
)
from pipeline.model import PlayerList
from pipeline.rules.sets import get_rules

RULES = get_rules("standard")
CANONICAL = st.integers(0, 10**12).map(str)
ANY_ID = st.one_of(CANONICAL, st.sampled_from(["007", "0", "00", "A1", "b", "12x", "99"]))


def reference_order(ids: list[str]) -> list[int]:
    """Numeric ids (digits only) by length then text, then the others by text; stable."""

    def key(i: int) -> tuple[bool, int, str]:
        text = ids[i]
        digits = text.isdigit() and text.isascii()
        return (not digits, len(text) if digits else 0, text)

    return sorted(range(len(ids)), key=key)


@settings(max_examples=60, deadline=None)
@given(ids=st.one_of(st.lists(CANONICAL, max_size=40), st.lists(ANY_ID, max_size=40)))
def test_natural_order_is_the_reference_order(ids):
    got = natural_order(pd.Series(ids, dtype=str))
    assert got.tolist() == reference_order(ids)


@settings(max_examples=60, deadline=None)
@given(ids=st.lists(CANONICAL, min_size=1, max_size=40, unique=True))
def test_natural_order_of_a_sorted_list_keeps_it(ids):
    ordered = [ids[i] for i in reference_order(ids)]
    assert natural_order(pd.Series(ordered, dtype=str)).tolist() == list(range(len(ids)))


def a_list(ids: list[str], ks: list[int | None]) -> PlayerList:
    n = len(ids)
    frame = pd.DataFrame(
        {
            "id": pd.Series(ids, dtype=str),
            "name": pd.Series([f"P{i}" for i in ids], dtype=str),
            "rating": pd.Series([1500 + 7 * i for i in range(n)], dtype="Int64"),
            "k": pd.Series(ks, dtype="Int64"),
            "birth_year": pd.Series([pd.NA] * n, dtype="Int64"),
            "games": pd.Series([40] * n, dtype="Int64"),
            "ever_2400": [False] * n,
            "federation": pd.Series(["FRA"] * n, dtype=str),
            "title": pd.Series([""] * n, dtype=str),
        }
    )
    return PlayerList("list.csv", frame)


def sides(players: list[str], given_k: list[int | None]) -> pd.DataFrame:
    n = len(players)
    return pd.DataFrame(
        {
            "player": pd.Series(players, dtype=str),
            "rated": [True] * n,
            "score_h": [100] * n,
            "pd_units": [50] * n,
            "dev_units": [50] * n,
            "k": pd.Series(given_k, dtype="Int64"),
            "player_rating": pd.Series([1600] * n, dtype="Int64"),
            "name": pd.Series([f"Side {p}" for p in players], dtype=str),
        }
    )


@settings(max_examples=60, deadline=None)
@given(
    listed=st.lists(ANY_ID, min_size=1, max_size=30, unique=True),
    extra=st.lists(st.sampled_from(["5000", "A9", "0042", "77777"]), max_size=6),
    data=st.data(),
)
def test_each_partial_player_finds_its_own_row(listed, extra, data):
    extra = [e for e in extra if e not in listed]
    ks = data.draw(
        st.lists(st.sampled_from([None, 20]), min_size=len(listed), max_size=len(listed))
    )
    players = a_list(data.draw(st.permutations(listed)), ks)
    side_ids = data.draw(st.lists(st.sampled_from(listed + extra), min_size=1, max_size=40))
    given_k = data.draw(
        st.lists(st.sampled_from([None, 10, 40]), min_size=len(side_ids), max_size=len(side_ids))
    )
    partials = partial_totals(sides(side_ids, given_k))
    info, rows = info_and_rows(partials, players)
    assert info["id"].take(rows).tolist() == partials["player"].tolist()
    ids = info["id"].tolist()
    assert [ids[j] for j in reference_order(ids)] == ids
    assert sorted(info["id"]) == sorted(set(listed) | set(side_ids))
    # A K given on a side counts where the list gives none (first side with a K).
    by_id = dict(zip(players.players["id"], players.players["k"], strict=True))
    for player, k in zip(partials["player"], partials["given_k"], strict=True):
        if player not in by_id:
            continue
        want = by_id[player] if not pd.isna(by_id[player]) else k
        got = info["k"].iloc[int(np.flatnonzero(info["id"] == player)[0])]
        assert (pd.isna(got) and pd.isna(want)) or got == want
    totals = finish_totals(partials, players, RULES, 100, 2026)
    assert totals["games"].take(rows).tolist() == partials["games"].tolist()


@settings(max_examples=40, deadline=None)
@given(codes=st.lists(st.integers(0, 3), max_size=50))
def test_category_text_is_astype_str(codes):
    labels = ["unrated", "published K", "junior (20 or younger)", "standard K"]
    rule = pd.Series(pd.Categorical.from_codes(np.array(codes, dtype=np.int8), labels))
    got = category_text(rule)
    pd.testing.assert_series_equal(got, rule.astype(str))
