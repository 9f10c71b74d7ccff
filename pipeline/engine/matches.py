"""Matches (B.02 6.1, 6.2): an event between two players only.

- 6.1: a match in which one player is unrated is not rated (for either player: the unrated
  player's games do not count towards a first rating either).
- 6.2: in a match over a set number of games, the games played after one player has won the
  match are not rated. The number of games is the games the file holds for the match (every
  scheduled game, played or not, is a row); the match is won once a player has more than half
  the points of all of them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

NOTE_MATCH_UNRATED = "match with an unrated player (rule 6.1)"
NOTE_MATCH_DECIDED = "played after the match was decided (rule 6.2)"
MATCH_NOTES = (NOTE_MATCH_UNRATED, NOTE_MATCH_DECIDED)


def match_codes(sides: pd.DataFrame) -> np.ndarray:
    """int8 per side: 0 = no match rule, 1 = 6.1 (unrated player), 2 = 6.2 (already decided)."""
    codes = np.zeros(len(sides), dtype=np.int8)
    games = np.flatnonzero(sides["opponent"].fillna("").astype(str).ne("").to_numpy())
    if not len(games):
        return codes
    part = sides.iloc[games]
    event = part["source"].astype(str) + "\x1f" + part["event"].astype(str)
    key = pd.Series(pd.factorize(event)[0], index=part.index)
    players = part["player"].groupby(key).transform("nunique").to_numpy()
    in_match = players == 2
    if not in_match.any():
        return codes
    part, key, where = part[in_match], key[in_match], games[in_match]
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
