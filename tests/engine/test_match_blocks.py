"""The match rules' event check (``match_events``) works through the sides a block of rows at
a time (issue 13: no whole-column temporaries); any block size gives the same answer."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pipeline.engine.matches as matches
from pipeline.engine.matches import SideKeys, match_events

SIDE = st.tuples(
    st.integers(0, 3),  # event
    st.integers(0, 3),  # player
    st.integers(0, 3),  # opponent
    st.booleans(),  # a game (has an opponent)
)


def keys(rows: list[tuple[int, int, int, bool]]) -> SideKeys:
    event, player, opponent, game = (np.array(c) for c in zip(*rows, strict=True))
    return SideKeys(event.astype(np.int64), player, opponent, game.astype(bool))


def by_rows(rows: list[tuple[int, int, int, bool]]) -> list[bool]:
    """The rule row by row: each event's first game side names its pair, and a game side of an
    event is a match side when every game side of that event is between that pair's players."""
    pair = {}
    for event, player, opponent, game in rows:
        if game and event not in pair:
            pair[event] = {player, opponent}
    fits = {e: all({p, o} <= pair[e] for ev, p, o, g in rows if ev == e and g) for e in pair}
    return [bool(g and fits[e]) for e, _, _, g in rows]


@settings(max_examples=200, deadline=None)
@given(st.lists(SIDE, min_size=1, max_size=20), st.integers(1, 5))
def test_any_block_size_gives_the_rule(rows, block):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(matches, "BLOCK", block)
        assert match_events(None, keys(rows)).tolist() == by_rows(rows)  # type: ignore[arg-type]
