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

from pipeline.arrays.arrow_text import encode_together, factorize_text
from pipeline.resources.threads import each


@dataclass(frozen=True)
class GameCodes:
    """Per game: the event's, the round's and both players' codes. ``players`` holds the
    distinct ids of both colours (code c is ``players[c]``); ``n_event``/``n_round`` bound the
    event and round codes (every code is below its count, also in a subset of the rows).
    ``events``/``rounds`` hold the distinct events and rounds (code c is ``events[c]``); None
    where the codes were renumbered past them (the duplicate check's events told apart by file).
    """

    event: np.ndarray
    round: np.ndarray
    white: np.ndarray
    black: np.ndarray
    n_event: int
    n_round: int
    players: pd.Series
    events: pd.Series | None = None
    rounds: pd.Series | None = None

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
            self.events,
            self.rounds,
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
        distinct = _taken(self.players, players)
        assert distinct is not None
        return GameCodes(
            event,
            round_,
            both[:n],
            both[n:],
            len(events),
            len(rounds),
            distinct,
            _taken(self.events, events),
            _taken(self.rounds, rounds),
        )

    def fits(self) -> bool:
        """Whether event x round x player x player codes pack into one int64 (exactly)."""
        return self.n_event * self.n_round * self.n_player * self.n_player < 2**62


def _taken(texts: pd.Series | None, at: np.ndarray) -> pd.Series | None:
    return None if texts is None else texts.take(at).reset_index(drop=True)


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
    return GameCodes(event, round_, white, black, len(events), len(rounds), players, events, rounds)


# The games' text columns that games.csv shows as they are: each game's, on both its sides.
GAME_TEXTS = ("event", "round", "date", "source")


def game_text_codes(
    games: pd.DataFrame, codes: GameCodes
) -> dict[str, tuple[np.ndarray, pd.Series]] | None:
    """Per column of ``GAME_TEXTS``: (each game's code, the distinct texts; a blank date is
    ""), event and round from ``codes`` (the games' one encoding), date and source hashed here
    (on both cores for a big file). None when ``codes`` lost its events' or rounds' texts."""
    if codes.events is None or codes.rounds is None:
        return None
    date, source = each(
        [lambda: factorize_text(games["date"]), lambda: factorize_text(games["source"])],
        len(games),
    )
    return {
        "event": (codes.event, codes.events),
        "round": (codes.round, codes.rounds),
        "date": date,
        "source": source,
    }


def side_player_codes(files: list[GameCodes]) -> tuple[np.ndarray, pd.Series]:
    """(each side's player code, the distinct ids) over the sides of these games files as
    ``engine.sides`` lays them out: per game white then black, file after file. One dictionary
    for all files, made from their small dictionaries (not from the sides' million cells).

    Every code has a side: each file's dictionary holds only ids that are some game's white or
    black player, and every game gives both players a side."""
    sides = []
    for codes in files:
        side = np.empty(2 * len(codes.white), dtype=np.int64)
        side[0::2], side[1::2] = codes.white, codes.black
        sides.append(side)
    return _unified(sides, [f.players for f in files])


def side_game_codes(files: list[tuple[np.ndarray, pd.Series]]) -> tuple[np.ndarray, pd.Series]:
    """(each side's code, the distinct texts) of a column of the games (event, round, date,
    source) over the sides as ``engine.sides`` lays them out: each game's code on both of its
    sides, file after file. ``files``: per games file, each game's code and that file's
    distinct texts (code c is ``texts[c]``). One dictionary for all files, as for the players;
    int32 codes (a dictionary is never near 2**31 texts)."""
    codes, texts = _unified(
        [np.repeat(codes, 2) for codes, _ in files], [texts for _, texts in files]
    )
    return codes.astype(np.int32), texts  # half the bytes: kept until games.csv is written


def _unified(codes: list[np.ndarray], texts: list[pd.Series]) -> tuple[np.ndarray, pd.Series]:
    """Codes of several files, each into its own distinct ``texts``, as codes into one
    dictionary (made from the small dictionaries, not from the cells), one file after another."""
    if len(codes) == 1:
        return codes[0], texts[0]
    if not codes:
        return np.zeros(0, dtype=np.int64), pd.Series([], dtype=str)
    remaps, distinct = encode_together(*texts)
    return np.concatenate([remap[c] for c, remap in zip(codes, remaps, strict=True)]), distinct
