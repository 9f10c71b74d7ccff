"""``rate`` rates only the events' players: the list in force is cut to their rows before K and
the totals (``grouper.roster.listed_event_players``), and the result must be the rows of the
whole list's totals, whatever the list and the events hold. The K rules travel as codes into a
few labels (``kfactor.base_k``, ``totals.with_cap_suffix``): their text must be what naming
each player's rule would give."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.grouper.kfactor import cap_suffix
from pipeline.grouper.roster import event_players_only, listed_event_players
from pipeline.grouper.totals import finish_totals, partial_totals, with_cap_suffix
from pipeline.model import PlayerList
from pipeline.rules.sets import get_rules

RULES = get_rules("standard")


def player_list(ids: list[int], data: st.DataObject) -> PlayerList:
    n = len(ids)
    ints = st.integers

    def column(strategy, dtype):
        return pd.Series(data.draw(st.lists(strategy, min_size=n, max_size=n)), dtype=dtype)

    frame = pd.DataFrame(
        {
            "id": pd.Series([str(i) for i in ids], dtype=str),
            "name": pd.Series([f"Player {i}" for i in ids], dtype=str),
            "rating": column(st.one_of(st.none(), ints(1000, 2800)), "Int64"),
            "k": column(st.one_of(st.none(), st.sampled_from([10, 20, 40])), "Int64"),
            "birth_year": column(st.one_of(st.none(), ints(1950, 2020)), "Int64"),
            "games": column(st.one_of(st.none(), ints(0, 60)), "Int64"),
            "ever_2400": column(st.booleans(), bool),
            "federation": pd.Series(["ENG"] * n, dtype=str),
            "title": pd.Series([""] * n, dtype=str),
        }
    )
    return PlayerList("list.csv", frame)


def sides_of(players: list[str], data: st.DataObject) -> pd.DataFrame:
    n = len(players)
    draw = data.draw
    dev = draw(st.lists(st.integers(-100, 100), min_size=n, max_size=n))
    return pd.DataFrame(
        {
            "player": pd.Series(players, dtype=str),
            "rated": draw(st.lists(st.booleans(), min_size=n, max_size=n)),
            "score_h": draw(st.lists(st.sampled_from([0, 50, 100]), min_size=n, max_size=n)),
            "pd_units": [50] * n,
            "dev_units": dev,
            "k": pd.Series([pd.NA] * n, dtype="Int64"),
            "player_rating": pd.Series([1500] * n, dtype="Int64"),
            "name": pd.Series([f"Side {p}" for p in players], dtype=str),
        }
    )


@settings(max_examples=40, deadline=None)
@given(
    listed=st.lists(st.integers(1, 400), min_size=1, max_size=40, unique=True),
    data=st.data(),
)
def test_cut_list_gives_the_kept_rows_of_the_whole_lists_totals(listed, data):
    players = player_list(sorted(listed), data)
    # Sides of listed players and of players the list lacks (ids above 400), in any order.
    side_ids = data.draw(
        st.lists(st.sampled_from([*listed, 401, 402, 999]), min_size=1, max_size=60)
    )
    partials = partial_totals(sides_of([str(i) for i in side_ids], data))
    whole = finish_totals(partials, players, RULES, 100, 2026)
    expected = event_players_only(whole, partials["player"])
    cut = listed_event_players(players, partials["player"])
    got = finish_totals(partials, cut, RULES, 100, 2026)
    pd.testing.assert_frame_equal(got, expected)
    assert set(cut.players["id"]) == set(partials["player"]) & set(players.players["id"])


@settings(max_examples=40, deadline=None)
@given(
    codes=st.lists(st.integers(0, 3), min_size=0, max_size=50),
    data=st.data(),
)
def test_cap_suffix_in_code_space_is_the_suffixed_text(codes, data):
    labels = ["unrated", "published K", "junior", "standard K"]
    reduced = np.array(
        data.draw(st.lists(st.booleans(), min_size=len(codes), max_size=len(codes))), dtype=bool
    )
    rule = pd.Series(pd.Categorical.from_codes(np.array(codes, dtype=np.int8), labels))
    suffix = cap_suffix(RULES.k)
    text = [labels[c] + (suffix if r else "") for c, r in zip(codes, reduced, strict=True)]
    assert with_cap_suffix(rule, reduced, suffix).astype(str).tolist() == text
