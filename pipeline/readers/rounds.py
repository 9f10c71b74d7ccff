"""One game per player per round: a player paired in two different games of the same round of one
event is an input error (``paired-twice``), whatever the format the games came from.

The same game given twice (the same two players) is not this error: the games reader reports it
as ``duplicate-game`` or ``result-mismatch``. Rows without a round are not checked.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.columnar.game_codes import GameCodes
from pipeline.columnar.order import has_repeats
from pipeline.errors import Code, Problem
from pipeline.model import GamesInput


def _side_keys(codes: GameCodes) -> tuple[np.ndarray, np.ndarray]:
    """(player-in-round key, player-opponent-in-round key) for the white sides then the black
    sides: integers equal exactly when event, round and player (and opponent) are equal.
    Exact: every factor is below its count, and the product of the counts is checked < 2**62."""
    players = np.concatenate([codes.white, codes.black])
    opponents = np.concatenate([codes.black, codes.white])
    slot = np.tile(codes.event * codes.n_round + codes.round, 2)
    if not codes.fits():  # too many to pack: factorize tuples
        frame = pd.DataFrame({"s": slot, "p": players, "o": opponents})
        who = pd.MultiIndex.from_frame(frame[["s", "p"]]).factorize()[0]
        return who, pd.MultiIndex.from_frame(frame).factorize()[0]
    who = slot * codes.n_player + players
    return who, who * codes.n_player + opponents


def paired_twice(item: GamesInput) -> list[Problem]:
    """A problem for each game that puts a player in a round they already play in."""
    source = item.source
    with_round = item.games["round"].astype(str).ne("").to_numpy()
    games = item.games[with_round]
    if games.empty:
        return []
    who, pair = _side_keys(item.codes().rows(with_round))
    if not has_repeats(who):  # the usual case: one sort and done
        return []
    distinct = ~pd.Series(pair).duplicated().to_numpy()  # one side per distinct game
    again = np.zeros(len(who), dtype=bool)
    again[distinct] = pd.Series(who[distinct]).duplicated().to_numpy()
    if not again.any():
        return []
    n = len(games)
    first_at = pd.Series(np.arange(2 * n)).groupby(who).transform("first").to_numpy()
    lines = np.tile(games["line"].to_numpy(), 2)
    players = np.concatenate([games["white"].to_numpy(), games["black"].to_numpy()])
    opponents = np.concatenate([games["black"].to_numpy(), games["white"].to_numpy()])
    rounds = np.tile(games["round"].to_numpy(), 2)
    problems = []
    for i in np.flatnonzero(again):  # only the offending sides: few in a real file
        j = first_at[i]
        problems.append(
            Problem(
                Code.PAIRED_TWICE,
                f"player {players[i]!r} is paired twice in round {rounds[i]}: against "
                f"{opponents[j]!r} at row {lines[j]} and against {opponents[i]!r} here",
                file=source,
                row=int(lines[i]),
                column="white" if i < n else "black",
                value=str(players[i]),
                fix="correct the round number or the player of one of the two games",
            )
        )
    return sorted(problems, key=lambda p: (p.row or 0, p.column))
