"""Matches (B.02 6.1, 6.2): an event between two players only.

- 6.1: a match in which one player is unrated is not rated (for either player: the unrated
  player's games do not count towards a first rating either).
- 6.2: in a match over a set number of games, the games played after one player has won the
  match are not rated. The number of games is the games the file holds for the match (every
  scheduled game, played or not, is a row); the match is won once a player has more than half
  the points of all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pandas and Arrow are imported where a frame is read (the notes need neither)
    import pandas as pd

NOTE_MATCH_UNRATED = "match with an unrated player (rule 6.1)"
NOTE_MATCH_DECIDED = "played after the match was decided (rule 6.2)"
MATCH_NOTES = (NOTE_MATCH_UNRATED, NOTE_MATCH_DECIDED)


@dataclass(frozen=True)
class SideKeys:
    """Per side, as integers: ``event`` numbers its (source, event), ``player`` and
    ``opponent`` its two players (one numbering for both), ``game`` says it has an opponent."""

    event: np.ndarray
    player: np.ndarray
    opponent: np.ndarray
    game: np.ndarray

    @classmethod
    def of_games(
        cls,
        players: tuple[np.ndarray, pd.Series],
        source: tuple[np.ndarray, pd.Series],
        event: tuple[np.ndarray, pd.Series],
    ) -> SideKeys:
        """The keys of sides made from games (``engine.sides``: each game's two sides one after
        the other), from the sides' codes: (each side's code, the distinct texts) of its player,
        source and event (``RatedPeriod.side_players``, ``side_texts``). A side's opponent is
        the other side of its game: the pairs' codes swapped."""
        codes, ids = players
        opponent = codes.reshape(-1, 2)[:, ::-1].ravel()
        return cls.of_codes(source[0], event[0], len(event[1]), (codes, opponent, ids))

    @classmethod
    def of_codes(
        cls,
        source: np.ndarray,
        event: np.ndarray,
        n_event: int,
        players: tuple[np.ndarray, np.ndarray, pd.Series],
    ) -> SideKeys:
        """The keys from each side's source and event code (``event`` below ``n_event``) and
        its player's and opponent's codes into ``ids`` (a blank id: no opponent)."""
        player, opponent, ids = players
        blank = ids.eq("").to_numpy(dtype=bool)
        return cls(pair_codes(source, event, n_event), player, opponent, ~blank[opponent])


def side_keys(sides: pd.DataFrame) -> SideKeys:
    """The keys of a sides frame from its text (Arrow's hash, columns on both cores)."""
    from pipeline.arrays.arrow_text import encode_together, factorize_text
    from pipeline.resources.threads import each

    encoded: list[Any] = each(
        [
            lambda: factorize_text(sides["source"]),
            lambda: factorize_text(sides["event"]),
            lambda: encode_together(sides["player"], sides["opponent"].fillna("")),
        ],
        len(sides),
    )
    (source, _), (event, names), ((player, opponent), ids) = encoded
    return SideKeys.of_codes(source, event, len(names), (player, opponent, ids))


def pair_codes(source: np.ndarray, event: np.ndarray, n_event: int) -> np.ndarray:
    """One code per distinct (source, event) pair of codes (``event`` below ``n_event``):
    source x n_event + event, one-to-one, as it is when its codes are no more than the sides
    (one file: the event codes); else renumbered 0, 1, ... (the match rules size arrays by the
    largest code, and use the codes only to tell the pairs apart)."""
    import pandas as pd

    packed = source.astype(np.int64) * max(n_event, 1) + event
    if not len(packed) or packed.max() <= len(packed):
        return packed
    return pd.factorize(packed)[0]


# Rows handled a block at a time: the per-row temporaries stay a few MB, reused from one block
# to the next, where whole-column ones (2 M sides: 16 MB each) were fresh memory every time.
BLOCK = 1 << 18


def _blocks(n: int) -> range:
    return range(0, n, BLOCK)


def _first_of(key: np.ndarray, mask: np.ndarray, size: int) -> np.ndarray:
    """Position of the first row with ``mask`` of each key (-1 when none): written backwards,
    block by block from the last, so the first row's position is the one that stays."""
    first = np.full(size, -1, dtype=np.int64)
    for start in reversed(_blocks(len(key))):
        rows = np.flatnonzero(mask[start : start + BLOCK])[::-1] + start
        first[key[rows]] = rows
    return first


def match_events(sides: pd.DataFrame, keys: SideKeys | None = None) -> np.ndarray:
    """Bool per side: the side is a game (it has an opponent) of an event with two players.

    Each event's first game names its two players, and every game side of the event must be
    one of them: integer comparisons of the sides' ``keys`` (``side_keys`` when not given)."""
    keys = side_keys(sides) if keys is None else keys
    key, player, opponent, game = keys.event, keys.player, keys.opponent, keys.game
    size = int(key.max()) + 1 if len(key) else 0
    first = _first_of(key, game, size)
    np.maximum(first, 0, out=first)  # -1: an event without games (its sides are not games)
    one, two = player[first], opponent[first]  # per event: the pair its first game names
    misfit = np.zeros(size, dtype=bool)
    for start in _blocks(len(key)):
        at = slice(start, start + BLOCK)
        k, p, o = key[at], player[at], opponent[at]
        a, b = one[k], two[k]
        fits = ((p == a) | (p == b)) & ((o == a) | (o == b))
        misfit[k[game[at] & ~fits]] = True  # events with a game side not the first's pair
    return game & ~misfit[key]


def match_codes(sides: pd.DataFrame, keys: SideKeys | None = None) -> np.ndarray:
    """int8 per side: 0 = no match rule, 1 = 6.1 (unrated player), 2 = 6.2 (already decided).
    ``keys``: the sides' ``SideKeys`` when the caller has them (else made from the text)."""
    import pandas as pd

    codes = np.zeros(len(sides), dtype=np.int8)
    if not len(sides):
        return codes
    keys = side_keys(sides) if keys is None else keys
    where = np.flatnonzero(match_events(sides, keys))
    if not len(where):
        return codes
    part = sides.iloc[where]
    # The codes only label groups and order rows within them: any numbering gives the same.
    key = pd.Series(keys.event[where], index=part.index)
    player = keys.player[where]
    unrated = part["player_rating"].isna().groupby(key).transform("any").to_numpy(dtype=bool)

    # 6.2: per player, the points before each game (rounds in order) against half the match.
    rounds = pd.to_numeric(part["round"], errors="coerce").fillna(0).to_numpy()
    order = np.lexsort((np.arange(len(part)), rounds, player, key.to_numpy()))
    frame = pd.DataFrame(
        {
            "key": key.to_numpy()[order],
            "player": player[order],
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
