"""Result spellings as data: each accepted token and what it means.

Scores are carried in hundredths of a point (100 = win, 50 = draw) so that every later sum is an
exact integer. ``played`` is False for forfeits and other unplayed games: they stay in the data
(and in games.csv) but are never rated (RULES.md section 5).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from pipeline.arrays.arrow_text import factorize_text


class GameResult(NamedTuple):
    white_h: int
    black_h: int
    played: bool
    canonical: str


# Games files: one token for both sides, white first.
GAME_RESULTS: dict[str, GameResult] = {}
_tokens: tuple[str, ...]
for _tokens, _result in (
    (("1-0", "1:0"), GameResult(100, 0, True, "1-0")),
    (("0-1", "0:1"), GameResult(0, 100, True, "0-1")),
    (
        ("1/2-1/2", "½-½", "0.5-0.5", "0,5-0,5", "=", "1/2", "½", "½:½", "0.5:0.5", "draw"),
        GameResult(50, 50, True, "1/2-1/2"),
    ),
    (("+-", "+/-", "1-0f", "1-0ff", "+:-"), GameResult(100, 0, False, "+-")),
    (("-+", "-/+", "0-1f", "0-1ff", "-:+"), GameResult(0, 100, False, "-+")),
    (("--", "-/-", "0-0", "0-0f", "0:0"), GameResult(0, 0, False, "--")),
):
    for _t in _tokens:
        GAME_RESULTS[_t] = _result

GAME_RESULT_HELP = (
    "1-0, 0-1, 1/2-1/2 (or ½-½, 0.5-0.5, =); unplayed: +-, -+, +/-, -/+, 1-0F, 0-1F, --, 0-0"
)


class SideResult(NamedTuple):
    score_h: int
    played: bool
    canonical: str


# Individual files: the player's own result.
SIDE_RESULTS: dict[str, SideResult] = {}
for _tokens, _side in (
    (("1", "1.0", "1,0", "w", "win"), SideResult(100, True, "1")),
    (("0.5", "0,5", ".5", "½", "=", "1/2", "d", "draw"), SideResult(50, True, "½")),
    (("0", "0.0", "0,0", "l", "loss"), SideResult(0, True, "0")),
    (("+", "1f", "+:-"), SideResult(100, False, "+")),
    (("-", "0f", "-:+"), SideResult(0, False, "-")),
):
    for _t in _tokens:
        SIDE_RESULTS[_t] = _side

SIDE_RESULT_HELP = "1, 0.5 (or ½, =, 1/2), 0; unplayed: + (forfeit win), - (forfeit loss)"

# Canonical text of one side's result in games.csv.
SIDE_TEXT = {100: "1", 50: "½", 0: "0"}
UNPLAYED_TEXT = {100: "+", 50: "=", 0: "-"}


def normalize_token(token: str) -> str:
    """Case and spacing do not matter: '1 - 0', '1-0F' and ' ½-½ ' are read alike."""
    return "".join(token.split()).lower()


def normalize_tokens(cells: pd.Series) -> pd.Series:
    """:func:`normalize_token` for a whole column at once (no Python call per cell)."""
    # Literal replacements run in Arrow; a regex here would fall back to a Python call per cell.
    text = cells.astype(str)
    for space in (" ", "\t", "\u00a0"):
        text = text.str.replace(space, "", regex=False)
    return text.str.lower()


def lookup(
    tokens: pd.Series, table: dict[str, GameResult] | dict[str, SideResult], default: str
) -> tuple[np.ndarray, list[np.ndarray]]:
    """(known mask, one array per field of the table's tuples) for normalized ``tokens``;
    unknown tokens get the fields of ``default`` (an unplayed result: callers report them)."""
    keys = list(table)
    # Each distinct token is looked up once (a results column holds a handful), then spread
    # back by codes: no Python string per cell.
    codes, uniques = factorize_text(tokens)
    position = pd.Index(keys).get_indexer(uniques.to_numpy(dtype=object))[codes]
    known = position >= 0
    position = np.where(known, position, keys.index(default))
    values = list(zip(*table.values(), strict=True))
    return known, [np.asarray(field, dtype=object)[position] for field in values]
