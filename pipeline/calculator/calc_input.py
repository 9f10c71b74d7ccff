"""What a person types into the calculator, read one way for both of its faces: ``fiderate calc``
(RATING, ``--vs RATING:RESULT``, the K options) and the web calculator (``/calc``, ``/api/calc``).

A rating, a result, a whole number in a range and the list of games are read here and nowhere
else, and every refusal is worded here: the two faces accept the same text and refuse it with the
same words (each only says where: ``--vs '1800:x'`` on the command line, "result 3" on the page).

Numbers are ASCII digits. Python's ``int()`` also reads Arabic-Indic, full-width and other Unicode
digits ('١٥٠٠' is 1500) and underscores ('1_500'), none of which a user means as a rating (the
input files refuse them too: docs/safety.md); the page once took them while the CLI refused them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from pipeline.errors import UsageError, clip

_WHOLE = re.compile(r"[+-]?[0-9]+")
# More significant digits than any range here holds: refused without calling int(), which
# takes quadratic time on long digit strings and refuses more than 4300 digits with ValueError.
_MAX_DIGITS = 18


class Whole(NamedTuple):
    """A range of whole numbers, both ends included."""

    low: int
    high: int


RATING = Whole(1, 3500)
K = Whole(1, 100)
BIRTH_YEAR = Whole(1850, 2100)
CAREER_GAMES = Whole(0, 100_000)  # rated games before the period (only "fewer than 30" counts)

# One player's games in one rating period: a blitz player's busiest month is a few hundred. Past
# this the list is refused (saying so), never cut short: the 700 rule makes K depend on the count.
MAX_GAMES = 1000

# The spellings of a result, in hundredths of a point for the player.
RESULT_SPELLINGS = {
    "1": 100,
    "1.0": 100,
    "win": 100,
    "w": 100,
    "1-0": 100,
    "0.5": 50,
    ".5": 50,
    "1/2": 50,
    "½": 50,
    "=": 50,
    "draw": 50,
    "d": 50,
    "1/2-1/2": 50,
    "0": 0,
    "0.0": 0,
    "loss": 0,
    "l": 0,
    "0-1": 0,
}
NOT_PLAYED = ("", "?")  # no result: the game is not played yet (every possible result is shown)

Game = tuple[int, int | None]  # (opponent's rating, the player's result in hundredths or None)


def read_whole(text: str, bounds: Whole) -> int:
    """``text`` as a whole number in ASCII digits within ``bounds`` (spaces around allowed)."""
    typed = text.strip()
    if not _WHOLE.fullmatch(typed):
        raise UsageError(f"{clip(typed)!r} is not a whole number in ASCII digits (0-9)")
    if len(typed.lstrip("+-").lstrip("0")) <= _MAX_DIGITS:
        value = int(typed)
        if bounds.low <= value <= bounds.high:
            return value
    raise UsageError(f"{clip(typed)} is not in {bounds.low}..{bounds.high}")


def read_rating(text: str) -> int:
    """A rating: a whole number in ASCII digits from 1 to 3500."""
    return read_whole(text, RATING)


def read_result(text: str) -> int | None:
    """The player's result in hundredths (100, 50, 0), or None for a game not played yet."""
    typed = text.strip()
    if typed in NOT_PLAYED:
        return None
    score = RESULT_SPELLINGS.get(typed.lower())
    if score is None:
        raise UsageError(
            f"{clip(typed)!r} is not a result: write 1, 0.5 or 0 (also win, draw, loss, 1-0, =, "
            "0-1), or nothing (or ?) for a game not played yet"
        )
    return score


def check_game_count(count: int) -> None:
    """Refuse more than :data:`MAX_GAMES` games, saying how many were given."""
    if count > MAX_GAMES:
        raise UsageError(
            f"{count:,} games: the calculator rates at most {MAX_GAMES:,} games at once (one "
            "player's rating period); rate a longer list as an event file"
        )


class GameProblem(NamedTuple):
    number: int  # 1-based, in the list given to :func:`read_games`
    part: str  # "rating" or "result"
    message: str


class GamesError(UsageError):
    """Every game of the list that cannot be read, at once."""

    def __init__(self, problems: Sequence[GameProblem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(f"game {p.number}: {p.message}" for p in self.problems))


def read_games(rows: Sequence[tuple[str, str]]) -> list[Game]:
    """One (rating text, result text) pair a game, as typed, into games. Raises ``UsageError``
    over :data:`MAX_GAMES` games, else :class:`GamesError` naming every game it cannot read."""
    check_game_count(len(rows))
    games: list[Game] = []
    problems: list[GameProblem] = []
    for number, (rating_text, result_text) in enumerate(rows, start=1):
        rating: int | None = None
        try:
            rating = read_rating(rating_text)
        except UsageError as exc:
            problems.append(GameProblem(number, "rating", str(exc)))
        try:
            result = read_result(result_text)
        except UsageError as exc:
            problems.append(GameProblem(number, "result", str(exc)))
            continue
        if rating is not None:
            games.append((rating, result))
    if problems:
        raise GamesError(problems)
    return games
