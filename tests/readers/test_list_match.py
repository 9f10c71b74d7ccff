"""``list_match`` against a plain-Python count of the same four figures: repeated and blank ids,
ids not written as FIDE writes them, blank ratings on the list and on the games."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.model import GamesInput, ListMatch, PlayerList
from pipeline.readers.lists.list_match import list_match

ids = st.sampled_from(["4100001", "4100002", "17", "007", "abc", ""])
ratings = st.none() | st.sampled_from([0, 1000, 1001])  # 0: as a blank filled with 0 would read


def _oracle(listed: list[tuple[str, int | None]], games: list[tuple]) -> ListMatch:
    first: dict[str, int | None] = {}
    for pid, rating in listed:
        first.setdefault(pid, rating)
    event = {pid for white, black, _, _ in games for pid in (white, black) if pid != ""}
    printed = [(w, wr) for w, _, wr, _ in games] + [(b, br) for _, b, _, br in games]
    differ = {
        pid
        for pid, rating in printed
        if rating is not None and pid in first and first[pid] != rating
    }
    return ListMatch(len(event), len(event & first.keys()), len(first), len(differ))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(ids.filter(bool), ratings), max_size=6),
    st.lists(st.tuples(ids, ids, ratings, ratings), max_size=8),
)
def test_list_match_counts(listed, games):
    players = pd.DataFrame(
        {
            "id": pd.Series([p for p, _ in listed], dtype=str),
            "rating": pd.Series([r for _, r in listed], dtype="Int64"),
        }
    )
    frame = pd.DataFrame(
        {
            "event": pd.Series(["e"] * len(games), dtype=str),
            "round": pd.Series(["1"] * len(games), dtype=str),
            "white": pd.Series([g[0] for g in games], dtype=str),
            "black": pd.Series([g[1] for g in games], dtype=str),
            "white_rating": pd.Series([g[2] for g in games], dtype="Int64"),
            "black_rating": pd.Series([g[3] for g in games], dtype="Int64"),
        }
    )
    got = list_match(PlayerList("players.csv", players), [GamesInput("games.csv", frame)])
    assert got == _oracle(listed, games)
