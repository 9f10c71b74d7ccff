"""The live site's search (pipeline/site/name_search.py) against the rule written plainly, as the
static site's search.js has it: a player whose id starts with the query, or whose name holds it
from the start of a word, any case, commas and spaces alike ("garcia lucia" finds "Garcia,
Lucia")."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.site.name_search import SHOWN, find, name_index

WORDS = st.text(alphabet="abcAB éÉ-'", min_size=1, max_size=6)
NAMES = st.lists(WORDS, min_size=1, max_size=3).map(", ".join)


def rule(ids: list[str], names: list[str], query: str) -> set[str]:
    def spaced(text: str) -> str:
        return " ".join(text.lower().replace(",", " ").split())

    needle = spaced(query)
    found = set()
    for player_id, name in zip(ids, names, strict=True):
        if player_id.startswith(query.strip()) or " " + needle in " " + spaced(name):
            found.add(player_id)
    return found if needle else set()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.from_regex(r"[0-9]{1,4}", fullmatch=True), NAMES),
        max_size=30,
        unique_by=lambda p: p[0],
    ),  # fmt: skip
    st.one_of(WORDS, NAMES, st.from_regex(r"[0-9]{1,3}", fullmatch=True)),
)
def test_the_search_finds_what_the_rule_says(players, query):
    players = sorted(players)
    ids = [p[0] for p in players]
    names = [p[1] for p in players]
    frame = pd.DataFrame(
        {
            "id": pd.Series(ids, dtype=str),
            "name": pd.Series(names, dtype=str),
            "rating": pd.array(range(len(ids)), dtype="Int64"),
        }  # fmt: skip
    )
    found, matched = find(frame, name_index(frame), query)
    expected = rule(ids, names, query)
    assert matched == len(expected)
    assert set(found["id"]) <= expected and len(found) == min(len(expected), SHOWN)
