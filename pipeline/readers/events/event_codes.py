"""Round results of event formats (TRF, crosstables, grids) as data.

Every reader of an event format turns each round cell into one canonical TRF result code
(TRF.md, "Result codes"); pairing, scoring and the TRF writer all read these tables, so a code
means the same thing everywhere.
"""

from __future__ import annotations

from pipeline.readers.events.results import GameResult

# Codes of a cell that names an opponent: the player's own score in hundredths, and whether the
# game was played (only played games are ever rated: RULES.md section 5).
GAME_CODES: dict[str, tuple[int, bool]] = {
    "1": (100, True),
    "=": (50, True),
    "0": (0, True),
    "+": (100, False),  # forfeit win
    "-": (0, False),  # forfeit loss
    "W": (100, False),  # won in less than one move
    "D": (50, False),
    "L": (0, False),
}

# Codes of a cell with no opponent (opponent 0000 or blank). "+" and "-" with no opponent are
# what some programs write for a full-point bye and for the dummy "bye" player.
BYE_CODES: dict[str, int] = {"H": 50, "F": 100, "U": 100, "Z": 0, "+": 100, "-": 0}

BYE_TEXT: dict[str, str] = {
    "H": "bye ½",
    "F": "bye 1",
    "U": "bye 1 (unpaired)",
    "Z": "bye 0 (absent)",
    "+": "bye 1",
    "-": "bye 0",
}

# The two sides of one game, (own code, opponent's code) -> the game from the first player's
# side as white. Any pair not listed is a result-mismatch.
PAIR_RESULTS: dict[tuple[str, str], GameResult] = {
    ("1", "0"): GameResult(100, 0, True, "1-0"),
    ("0", "1"): GameResult(0, 100, True, "0-1"),
    ("=", "="): GameResult(50, 50, True, "1/2-1/2"),
    ("+", "-"): GameResult(100, 0, False, "+-"),
    ("-", "+"): GameResult(0, 100, False, "-+"),
    ("-", "-"): GameResult(0, 0, False, "--"),  # double forfeit
    ("W", "L"): GameResult(100, 0, False, "+-"),
    ("L", "W"): GameResult(0, 100, False, "-+"),
    ("D", "D"): GameResult(50, 50, False, "1/2-1/2"),
}

# games-frame result (white first) -> (white's code, black's code) for writing a TRF.
WRITE_CODES: dict[tuple[str, bool], tuple[str, str]] = {
    ("1-0", True): ("1", "0"),
    ("0-1", True): ("0", "1"),
    ("1/2-1/2", True): ("=", "="),
    ("+-", False): ("+", "-"),
    ("-+", False): ("-", "+"),
    ("--", False): ("-", "-"),
    ("1/2-1/2", False): ("D", "D"),
}

ALL_CODES = set(GAME_CODES) | set(BYE_CODES)
CODE_HELP = "1, =, 0 (played); +, - (forfeit); W, D, L (less than one move); H, F, U, Z (byes)"

# Titles as event files spell them (TRF exports often hold FIDE's one/two-letter codes).
TITLES: dict[str, str] = {
    "g": "GM",
    "gm": "GM",
    "m": "IM",
    "im": "IM",
    "f": "FM",
    "fm": "FM",
    "c": "CM",
    "cm": "CM",
    "wg": "WGM",
    "wgm": "WGM",
    "wm": "WIM",
    "wim": "WIM",
    "wf": "WFM",
    "wfm": "WFM",
    "wc": "WCM",
    "wcm": "WCM",
}
# Sex as event files spell it -> the players list's m / w.
SEXES: dict[str, str] = {"m": "m", "w": "w", "f": "w"}
