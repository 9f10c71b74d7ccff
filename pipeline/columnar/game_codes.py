"""One dictionary encoding of a games frame's keys, shared by every stage (issue 13).

The duplicate-game check, the paired-twice check, the players-list look-up and the list match
all ask about the same columns (event, round, white, black). Each used to hash the text of a
million rows again; :func:`encode_games` hashes them once into integer codes, kept on the
``GamesInput`` (``GamesInput.codes()``), and every stage works on the integers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from pipeline.columnar.arrow import encode_together
from pipeline.columnar.threads import each


@dataclass(frozen=True)
class GameCodes:
    """Per game: the event's, the round's and both players' codes. ``players`` holds the
    distinct ids of both colours (code c is ``players[c]``); ``n_event``/``n_round`` bound the
    event and round codes (every code is below its count, also in a subset of the rows)."""

    event: np.ndarray
    round: np.ndarray
    white: np.ndarray
    black: np.ndarray
    n_event: int
    n_round: int
    players: pd.Series

    @property
    def n_player(self) -> int:
        return len(self.players)

    def rows(self, keep: np.ndarray) -> GameCodes:
        """The codes of the games ``keep`` selects (a mask or positions), same dictionaries."""
        return GameCodes(
            self.event[keep],
            self.round[keep],
            self.white[keep],
            self.black[keep],
            self.n_event,
            self.n_round,
            self.players,
        )

    def part(self, start: int, stop: int) -> GameCodes:
        """The codes of games ``start:stop`` exactly as ``encode_games`` gives them for those
        games alone (their own dictionaries), from integers instead of hashing text again.

        Exact: ``encode_games`` numbers distinct texts in order of first appearance (players:
        white cells, then black cells); codes here are a one-to-one image of the texts, so
        numbering them in the same order of first appearance gives the same numbers, and the
        dictionary entries taken at the first-seen codes are the same texts in the same order."""
        event, events = _first_seen(self.event[start:stop])
        round_, rounds = _first_seen(self.round[start:stop])
        both, players = _first_seen(
            np.concatenate([self.white[start:stop], self.black[start:stop]])
        )
        n = len(event)
        distinct = self.players.take(players).reset_index(drop=True)
        return GameCodes(event, round_, both[:n], both[n:], len(events), len(rounds), distinct)

    def fits(self) -> bool:
        """Whether event x round x player x player codes pack into one int64 (exactly)."""
        return self.n_event * self.n_round * self.n_player * self.n_player < 2**62


def _first_seen(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(``codes`` renumbered 0, 1, ... in order of first appearance, the old code of each)."""
    new, old = pd.factorize(codes, sort=False)
    return new.astype(np.int64, copy=False), np.asarray(old, dtype=np.int64)


def encode_games(games: pd.DataFrame) -> GameCodes:
    """The codes of ``games`` (columns event, round, white, black; text). The three encodings
    of a big file run on every core at once (Arrow's hash releases the GIL)."""
    encoded = each(
        [
            lambda: encode_together(games["event"]),
            lambda: encode_together(games["round"]),
            lambda: encode_together(games["white"], games["black"]),
        ],
        len(games),
    )
    ((event,), events), ((round_,), rounds), ((white, black), players) = encoded
    return GameCodes(event, round_, white, black, len(events), len(rounds), players)


def side_player_codes(files: list[GameCodes]) -> tuple[np.ndarray, pd.Series]:
    """(each side's player code, the distinct ids) over the sides of these games files as
    ``engine.sides`` lays them out: per game white then black, file after file. One dictionary
    for all files, made from their small dictionaries (not from the sides' million cells).

    Every code has a side: each file's dictionary holds only ids that are some game's white or
    black player, and every game gives both players a side."""
    if len(files) == 1:
        remaps, players = [np.arange(files[0].n_player)], files[0].players
    else:
        remaps, players = encode_together(*(f.players for f in files))
    parts = []
    for codes, remap in zip(files, remaps, strict=True):
        side = np.empty(2 * len(codes.white), dtype=np.int64)
        side[0::2], side[1::2] = remap[codes.white], remap[codes.black]
        parts.append(side)
    return (np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)), players
