"""One game per player per round: a player paired in two different games of the same round of one
event is an input error (``paired-twice``), whatever the format the games came from.

The same game given twice (the same two players) is not this error: the games reader reports it
as ``duplicate-game`` or ``result-mismatch``. Rows without a round are not checked.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.arrays.order import has_repeats
from pipeline.errors import Code, Problem
from pipeline.keys.game_codes import GameCodes
from pipeline.model import GamesInput


def _player_keys(codes: GameCodes) -> np.ndarray:
    """Player-in-round key for the white sides then the black sides: integers equal exactly
    when event, round and player are equal. Exact: every factor is below its count, and the
    product of the counts is checked < 2**62 (else tuples are factorized)."""
    n = len(codes.white)
    slot = codes.event * codes.n_round + codes.round
    if not codes.fits():  # too many to pack
        frame = pd.DataFrame(
            {"s": np.tile(slot, 2), "p": np.concatenate([codes.white, codes.black])}
        )
        return pd.MultiIndex.from_frame(frame).factorize()[0]
    # Written into one array, side by side: no 2 M-row temporaries (fresh memory is slow).
    base = slot * codes.n_player
    who = np.empty(2 * n, dtype=np.int64)
    np.add(base, codes.white, out=who[:n])
    np.add(base, codes.black, out=who[n:])
    return who


def _pair_keys(codes: GameCodes, who: np.ndarray) -> np.ndarray:
    """Player-opponent-in-round key per side (as ``_player_keys``, with the opponent too)."""
    opponents = np.concatenate([codes.black, codes.white])
    if not codes.fits():
        frame = pd.DataFrame({"w": who, "o": opponents})
        return pd.MultiIndex.from_frame(frame).factorize()[0]
    return who * codes.n_player + opponents


def _with_round(item: GamesInput) -> np.ndarray:
    """Bool per game: its round is not blank, worked out once per distinct round when the
    codes keep the rounds' texts (the same test on the same text gives the same answer; the
    encoding reads a missing round as "", so a column with one is tested cell by cell)."""
    codes = item.codes()
    if codes.rounds is None or item.games["round"].hasnans:
        return item.games["round"].astype(str).ne("").to_numpy()
    return codes.rounds.astype(str).ne("").to_numpy(dtype=bool)[codes.round]


def paired_twice(item: GamesInput) -> list[Problem]:
    """A problem for each game that puts a player in a round they already play in."""
    with_round = _with_round(item)
    every = bool(with_round.all())  # the usual case: no copy of the codes or the games
    codes = item.codes() if every else item.codes().rows(with_round)
    if not len(codes.white):
        return []
    who = _player_keys(codes)
    if not has_repeats(who):  # the usual case: one sort and done
        return []
    pair = _pair_keys(codes, who)
    distinct = ~pd.Series(pair).duplicated().to_numpy()  # one side per distinct game
    again = np.zeros(len(who), dtype=bool)
    again[distinct] = pd.Series(who[distinct]).duplicated().to_numpy()
    if not again.any():
        return []
    return _problems(item.source, item.games if every else item.games[with_round], who, again)


def _problems(
    source: str, games: pd.DataFrame, who: np.ndarray, again: np.ndarray
) -> list[Problem]:
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
