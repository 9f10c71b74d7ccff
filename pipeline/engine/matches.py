"""Matches (B.02 6.1, 6.2): an event between two players only.

- 6.1: a match in which one player is unrated is not rated (for either player: the unrated
  player's games do not count towards a first rating either).
- 6.2: in a match over a set number of games, the games played after one player has won the
  match are not rated. The number of games is the games the file holds for the match (every
  scheduled game, played or not, is a row); the match is won once a player has more than half
  the points of all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas and Arrow are imported where a frame is read (the notes need neither)
    import pandas as pd

NOTE_MATCH_UNRATED = "match with an unrated player (rule 6.1)"
NOTE_MATCH_DECIDED = "played after the match was decided (rule 6.2)"
MATCH_NOTES = (NOTE_MATCH_UNRATED, NOTE_MATCH_DECIDED)


def _event_codes(sides: pd.DataFrame) -> np.ndarray:
    """One int64 code per side for its (source, event)."""
    import pandas as pd

    from pipeline.columnar.arrow import factorize_text  # Arrow's hash: ~3x pd.factorize's speed
    from pipeline.columnar.threads import each

    (source, _), (event, names) = each(
        [lambda: factorize_text(sides["source"]), lambda: factorize_text(sides["event"])],
        len(sides),
    )
    return pd.factorize(source * max(len(names), 1) + event)[0]


def _first_of(key: np.ndarray, mask: np.ndarray, size: int) -> np.ndarray:
    """Position of the first row with ``mask`` of each key (-1 when none): written backwards,
    so the first row's position is the one that stays."""
    first = np.full(size, -1, dtype=np.int64)
    rows = np.flatnonzero(mask)[::-1]
    first[key[rows]] = rows
    return first


def match_events(sides: pd.DataFrame) -> np.ndarray:
    """Bool per side: the side is a game (it has an opponent) of an event with two players.

    No string is factorized: each event's first game names its two players, and every game side
    of the event must be one of them (two Arrow comparisons over the column)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from pipeline.columnar.arrow import arrow_text

    player = arrow_text(sides["player"])
    opponent = arrow_text(sides["opponent"].fillna(""))
    game = np.asarray(pc.not_equal(opponent, ""), dtype=bool)
    key = _event_codes(sides)
    size = int(key.max()) + 1 if len(key) else 0
    first = _first_of(key, game, size)
    pick = pa.array(np.where(first[key] >= 0, first[key], 0))
    one, two = pc.take(player, pick), pc.take(opponent, pick)
    mine = pc.or_(pc.equal(player, one), pc.equal(player, two))
    theirs = pc.or_(pc.equal(opponent, one), pc.equal(opponent, two))
    fits = np.asarray(pc.and_(mine, theirs), dtype=bool)
    misfit = np.bincount(key, weights=game & ~fits, minlength=size) > 0
    return game & ~misfit[key]


def match_codes(sides: pd.DataFrame) -> np.ndarray:
    """int8 per side: 0 = no match rule, 1 = 6.1 (unrated player), 2 = 6.2 (already decided)."""
    import pandas as pd

    codes = np.zeros(len(sides), dtype=np.int8)
    if not len(sides):
        return codes
    where = np.flatnonzero(match_events(sides))
    if not len(where):
        return codes
    part = sides.iloc[where]
    key = pd.Series(_event_codes(part), index=part.index)
    unrated = part["player_rating"].isna().groupby(key).transform("any").to_numpy(dtype=bool)

    # 6.2: per player, the points before each game (rounds in order) against half the match.
    rounds = pd.to_numeric(part["round"], errors="coerce").fillna(0).to_numpy()
    order = np.lexsort((np.arange(len(part)), rounds, part["player"].to_numpy(), key.to_numpy()))
    frame = pd.DataFrame(
        {
            "key": key.to_numpy()[order],
            "player": part["player"].to_numpy()[order],
            "score_h": part["score_h"].to_numpy(dtype=np.int64)[order],
        }
    )
    group = frame.groupby(["key", "player"], sort=False)
    own_before = group["score_h"].cumsum().to_numpy() - frame["score_h"].to_numpy()
    played_before = group.cumcount().to_numpy()
    games_in_match = group["score_h"].transform("size").to_numpy()
    # Each game gives 1 point in all (1-0, ½-½, forfeit +/-): the opponent has the rest.
    opp_before = played_before * 100 - own_before
    decided_sorted = np.maximum(own_before, opp_before) * 2 > games_in_match * 100
    decided = np.empty(len(part), dtype=bool)
    decided[order] = decided_sorted

    codes[where] = np.where(unrated, 1, np.where(decided, 2, 0))
    return codes
