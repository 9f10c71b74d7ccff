"""Domain errors with stable codes.

Every problem found in the input is a :class:`Problem` (where, what, how to fix). Readers collect
all problems of a file before raising one :class:`InputError`, so a user fixes a file in one pass.
The CLI turns :class:`FiderateError` into exit code 1 and prints :func:`format_problems`.

One concept: the error catalogue. Every code with its title, the exceptions that carry problems,
and the one way they are listed and counted live here together, so that a code is defined once
and tests/test_error_catalogue.py can read the whole catalogue from one file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


class Code(StrEnum):
    """The catalogue of problem codes: each defined once, with a title and the usual fix.

    A code is its stable string (``Code.BAD_RESULT == "bad-result"``): tests, ``--json``
    consumers and the docs refer to these strings. A call site gives the exact fix for the
    cell at hand; :attr:`fix` is the general advice (the table of codes in docs/validation.md).
    """

    title: str  # type: ignore[assignment]  # the code's title, not str.title()
    fix: str

    def __new__(cls, value: str, title: str, fix: str) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.title = title
        member.fix = fix
        return member

    BAD_RESULT = (
        "bad-result",
        "a result that is not one of the accepted spellings",
        "write 1-0, 0-1 or 1/2-1/2 (unplayed: +-, -+, --)",
    )
    UNKNOWN_PLAYER = (
        "unknown-player",
        "a player id that is not on the players list",
        "add the player to the players list, or correct the id",
    )
    RESULT_MISMATCH = (
        "result-mismatch",
        "the two sides of one game disagree",
        "make both sides of the game give the same result",
    )
    DUPLICATE_GAME = (
        "duplicate-game",
        "the same game appears twice",
        "delete one of the two rows",
    )
    SELF_PAIRING = (
        "self-pairing",
        "a player paired against themselves",
        "correct the opponent of the game",
    )
    BAD_RATING = (
        "bad-rating",
        "a rating that is not a whole number in 0..3500",
        "write the rating as a whole number, or leave it blank for an unrated player",
    )
    BAD_ID = (
        "bad-id",
        "a player id that is blank or malformed",
        "give every player an id (a FIDE ID, or any text without spaces)",
    )
    BAD_VALUE = (
        "bad-value",
        "a value of the wrong type (year, count, K, flag, date)",
        "write the value as the column expects (a year, a whole number, yes/no, a date)",
    )
    POINTS_MISMATCH = (
        "points-mismatch",
        "a points column that disagrees with the results",
        "correct the result cells or the points column",
    )
    MISSING_COLUMN = (
        "missing-column",
        "a required column is absent",
        "add the column, or name it with --column NAME=ROLE",
    )
    BAD_ENCODING = (
        "bad-encoding",
        "the file is not in a text encoding we can read",
        "save the file again as UTF-8",
    )
    NOT_A_TABLE = (
        "not-a-table",
        "the file is empty, binary or truncated",
        "give a CSV, XLSX, TRF or FIDE list file with data in it",
    )
    INCONSISTENT_K = (
        "inconsistent-k",
        "one player given two different K values",
        "give the player one K in the whole period",
    )
    DUPLICATE_PLAYER = (
        "duplicate-player",
        "the same player id twice on the players list",
        "keep one row per player id",
    )
    DUPLICATE_EVENT = (
        "duplicate-event",
        "the same games (players, rounds, colours, results) twice in a run, in any file or format",
        "give each event once",
    )
    ALREADY_RATED = (
        "already-rated",
        "an event that was already rated in an earlier run (same content hash)",
        "leave the event out, or rate the period again with --replace",
    )
    PERIOD_PUBLISHED = (
        "period-published",
        "a period whose list was already published (use --replace)",
        "rate the period again with --replace",
    )
    NO_LIST_IN_FORCE = (
        "no-list-in-force",
        "an event started in a month whose list is not in the history",
        "import the list of that month into the history first",
    )
    EVENT_AFTER_PERIOD = (
        "event-after-period",
        "an event that starts after the period being rated",
        "rate the event in the period of its start date",
    )
    TOO_LARGE = (
        "too-large",
        "a file over 2 GB, or an archive or workbook that unpacks to over 1 GB",
        "check the file; unpack an archive yourself and check it",
    )
    TOO_WIDE = (
        "too-wide",
        "a table with more columns than any input has (2,000)",
        "check the delimiter and the export",
    )
    NOT_ALLOWED = (
        "not-allowed",
        "an XML list with a DOCTYPE or entities (never resolved)",
        "download the list again from ratings.fide.com",
    )
    OUTPUT_REPLACES_INPUT = (
        "output-replaces-input",
        "an output file that would overwrite one of the inputs",
        "choose another --out folder",
    )
    BAD_OUTPUT = (
        "bad-output",
        "an output folder that cannot be written (a file, a dangling link, read-only, disk full)",
        "choose an --out folder you can write to, with free space",
    )
    TRF_TOO_LARGE = (
        "trf-too-large",
        "an event with more players than TRF16's four-digit starting ranks hold",
        "split the event, or keep it in a games file",
    )
    BAD_DATABASE = (
        "bad-database",
        "a history database that is empty, damaged or busy",
        "restore ratings.db from a backup, or wait for the other run",
    )
    NOT_A_HISTORY = (
        "not-a-history",
        "a --db file that is not a fiderate history (another program's database)",
        "give the ratings.db `fiderate period` wrote, or a name no file has yet",
    )
    HISTORY_IN_USE = (
        "history-in-use",
        "another `fiderate period` run is using the same history database",
        "wait for the other run to finish, then run this one again",
    )
    RUN_ORDER = (
        "run-order",
        "a period rated or replaced after a later period was published",
        "rate the next period: periods are published in order",
    )
    MORE_PROBLEMS = (
        "more-problems",
        "the count of problems past the listed ones (validate --json)",
        "fix the problems listed and run again",
    )
    LIST_CONFLICT = (
        "list-conflict",
        "an --earlier-list that differs from the list the history holds for that month",
        "leave the --earlier-list out: the history's list of that month is used",
    )
    BAD_OPTION = (
        "bad-option",
        "an option value that cannot be used (e.g. an --earlier-list month)",
        "give the option as its help says",
    )
    DATE_ORDER = (
        "date-order",
        "an event that ends before it starts, or whose rounds fall outside its dates",
        "correct the start (TRF 042, --start), end (052, --end) or round dates (132, date)",
    )
    PAIRED_TWICE = (
        "paired-twice",
        "a player paired in two different games of the same round",
        "correct the round or the player of one of the two games",
    )
    NOT_A_FILE = (
        "not-a-file",
        "an input that is a folder, a pipe or a device, or cannot be read",
        "give the path of a regular file you may read (save piped data to a file first)",
    )
    TRUNCATED_FILE = (
        "truncated-file",
        "a file cut short: fewer records than it announces, or its last line cut",
        "get the whole file again (the download or copy was interrupted)",
    )
    LATE_EVENT = (
        "late-event",
        "an event dated in a month whose list is already published (a scheduled run)",
        "re-rate that month with --replace while it is the latest, or rate the event with the "
        "next period",
    )
    INPUTS_CHANGED = (
        "inputs-changed",
        "the events of a published month, or the list file it published, differ from those "
        "recorded",
        "put the files back as they were, or re-rate the month with --replace",
    )


# The codes and their titles, by string (kept for callers that look codes up by name).
CODES = {code.value: code.title for code in Code}


@dataclass(frozen=True)
class FaceWords:
    """One thing a person gives, as each face names it: the CLI by its option, the web by the
    upload form's field (a browser user has no ``--players``)."""

    cli: str
    web: str


# Messages are written in the CLI's words (``FaceWords.cli``); a face that gives the input
# another way shows them in its own (:func:`in_face`). Longest first: "--players file" is
# matched before "--players".
PLAYERS_FILE = FaceWords("--players file", '"Rating list in force" file')
PLAYERS_LIST = FaceWords("--players LIST", 'a "Rating list in force" file')
PLAYERS_FILE_ARG = FaceWords("--players FILE", 'a "Rating list in force" file')
PLAYERS_OPTION = FaceWords("--players", 'a "Rating list in force" file')
PERIOD_OPTION = FaceWords("--period", 'the "Rating period" field')
FACE_WORDS = (PLAYERS_FILE, PLAYERS_LIST, PLAYERS_FILE_ARG, PLAYERS_OPTION, PERIOD_OPTION)
_CLI_WORDS = re.compile(
    "|".join(re.escape(w.cli) + r"(?![\w-])" for w in FACE_WORDS), flags=re.ASCII
)
_WEB_WORDS = {w.cli: w.web for w in FACE_WORDS}


def in_face(text: str, face: str) -> str:
    """``text`` (a message or a fix, in the CLI's words) as ``face`` ("cli" or "web") says it."""
    if face == "cli":
        return text
    return _CLI_WORDS.sub(lambda m: _WEB_WORDS[m.group()], text)


def quoted(value: object) -> str:
    """A problem's value as every face quotes it: ``repr`` (``'25OO'``, so a letter O is not
    read as a zero), unprintable characters escaped; "" when the problem has none."""
    return "" if value is None else printable(repr(value))


# Bounds on what a report quotes: a 200 MB cell is shown by its first characters and its length,
# and a million bad rows by the first LIST_LIMIT problems and a count of the rest.
QUOTE_LIMIT = 80
MESSAGE_LIMIT = 400
LIST_LIMIT = 200
# What a reader keeps in memory: problems past this many are counted, never built (a 45 MB file
# of bad rows once built 4.5 million of them, 2.4 GB).
KEEP_LIMIT = 1_000


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


# Characters a terminal acts on instead of showing (escape sequences, bell, carriage return,
# C1 controls such as CSI) or that hide text (zero-width, direction overrides, BOM): a name
# holding one is printed escaped, never raw. Line feed and tab are layout, kept.
_UNPRINTABLE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]"
)


def printable(text: str) -> str:
    """``text`` with every character of ``_UNPRINTABLE`` written as its escape (``\\x1b``,
    ``\\ufeff``), for messages and the console; data files keep the text as it is."""
    return _UNPRINTABLE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input, located as precisely as we can.

    The value is quoted by at most :data:`QUOTE_LIMIT` characters, the message and the fix by
    :data:`MESSAGE_LIMIT`: whatever the input holds, a report stays readable.
    """

    code: Code  # from the catalogue above (compares equal to its string)
    message: str
    file: str = ""
    row: int | None = None  # 1-based line/row number in the file as a person sees it
    column: str = ""
    value: str | None = None
    fix: str = ""

    def __post_init__(self) -> None:
        if self.value is not None and len(self.value) > QUOTE_LIMIT:
            object.__setattr__(self, "value", clip(self.value))
        if len(self.message) > MESSAGE_LIMIT:
            object.__setattr__(self, "message", clip(self.message, MESSAGE_LIMIT))
        if len(self.fix) > MESSAGE_LIMIT:
            object.__setattr__(self, "fix", clip(self.fix, MESSAGE_LIMIT))

    def as_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "row": self.row,
            "column": self.column,
            "value": self.value,
            "code": self.code,
            "message": self.message,
            "fix": self.fix,
        }


@dataclass(frozen=True)
class Omitted(Problem):
    """Stands for ``count`` problems that were found but not kept (past :data:`KEEP_LIMIT`):
    reports list the kept ones and add the count to the total (:func:`split_omitted`)."""

    count: int = 0

    @classmethod
    def of(cls, count: int, file: str = "") -> Omitted:
        return cls(
            Code.MORE_PROBLEMS,
            f"{count:,} more problem(s) found but not kept",
            file=file,
            fix="fix the problems listed and run again",
            count=count,
        )


def split_omitted(problems: Sequence[Problem]) -> tuple[list[Problem], int]:
    """(the problems kept, the count of those only counted): the total is their sum."""
    kept = [p for p in problems if not isinstance(p, Omitted)]
    return kept, sum(p.count for p in problems if isinstance(p, Omitted))


def count_problems(problems: Sequence[Problem]) -> int:
    """How many problems were found, the counted-only ones included."""
    kept, omitted = split_omitted(problems)
    return len(kept) + omitted


class FiderateError(Exception):
    """Base class: anything the CLI reports as a failed run (exit code 1)."""

    # The process's exit code when this error ends a command: 1, a person must look (bad input,
    # a refused run). A scheduler acts on it (docs/scheduling.md).
    exit_code = 1


class InputError(FiderateError):
    """The input is bad. Carries every problem found, not only the first."""

    headline = "the input is not valid."

    def __init__(
        self, problems: Sequence[Problem], partial: object = None, warnings: Sequence[str] = ()
    ):
        self.problems: list[Problem] = list(problems)
        # What could be read despite the problems (e.g. a GamesInput with its bad cells blanked),
        # so later checks (unknown players) can still report in the same pass.
        self.partial = partial
        # What the file also says that stops nothing (``EventInfo.warnings``): shown beside.
        self.warnings = tuple(warnings)
        super().__init__(format_problems(self.problems))

    def __reduce__(self):  # type: ignore[no-untyped-def]
        # Rebuilt from its problems when it crosses a process boundary (a Dask worker).
        return (type(self), (self.problems, self.partial, self.warnings))


class OutputError(InputError):
    """The outputs cannot be written where asked (a file, read-only, disk full, an input)."""

    headline = "cannot write the outputs; nothing was written."


EX_TEMPFAIL = 75  # sysexits.h: a temporary failure, the same command will work later


class HistoryRefusal(InputError):
    """The history database refuses the run (the inputs may be valid): the period is already
    published, a later one is, an event was rated before, or another run holds the history.
    Its headline says which, for the text and for ``--json``."""

    HEADLINES = {
        Code.RUN_ORDER: "a later period is already published: periods are rated in order; "
        "nothing was changed.",
        Code.PERIOD_PUBLISHED: "this period was already published; nothing was changed.",
        Code.ALREADY_RATED: "an event was already rated in an earlier run; nothing was changed.",
        Code.HISTORY_IN_USE: "another run is using the history database; nothing was changed.",
        Code.NOT_A_HISTORY: "the database given is not a fiderate history; nothing was changed.",
        Code.BAD_DATABASE: "the history database cannot be used; nothing was changed.",
        Code.INPUTS_CHANGED: "the inputs of a published month changed; nothing was changed.",
        Code.LATE_EVENT: "an event arrived for a month already published; nothing was changed.",
    }

    def __init__(self, problems: Sequence[Problem], partial: object = None):
        super().__init__(problems, partial)
        codes = [p.code for p in self.problems]
        first = next((code for code in self.HEADLINES if code in codes), None)
        self.headline = (
            self.HEADLINES[first]
            if first is not None
            else "the history database refuses this run; nothing was changed."
        )
        # Another run holds the history: EX_TEMPFAIL (sysexits.h), "try again later" to a
        # scheduler (cron, systemd, Task Scheduler), not a failure a person must look at.
        if codes == [Code.HISTORY_IN_USE]:
            self.exit_code = EX_TEMPFAIL


class RunError(FiderateError):
    """A run could not be completed for a reason other than bad input rows."""


class NotInHistory(RunError):
    """What was asked of the history (a player, a period, its calculation) is not in it: exit 1
    on the command line, 404 on the web pages."""


class UsageError(FiderateError):
    """The options ask for something the run cannot do (e.g. an option the chosen engine cannot
    honour). The CLI exits with 2, as for any usage error, before anything is read or written."""


# The keys of every problem in JSON output, in this order (stable: scripts rely on them).
JSON_KEYS = ("file", "row", "column", "value", "code", "message", "fix")


def problems_listed(
    problems: Sequence[Problem], limit: int = LIST_LIMIT
) -> list[dict[str, object]]:
    """The first ``limit`` problems as objects of ``JSON_KEYS``; past that, one last object with
    the code ``more-problems`` counts the rest (same keys, so a script reads it like any other)."""
    kept, omitted = split_omitted(problems)
    listed = [{key: p.as_dict()[key] for key in JSON_KEYS} for p in kept[:limit]]
    rest = len(kept) + omitted - len(listed)
    if rest > 0:
        more = Problem(
            Code.MORE_PROBLEMS,
            f"... and {rest:,} more problem(s) not listed",
            fix="fix the problems listed and run again",
        )
        listed.append({key: more.as_dict()[key] for key in JSON_KEYS})
    return listed


def format_problems(problems: Sequence[Problem], limit: int = LIST_LIMIT) -> str:
    """A plain-text table a person can read in a terminal."""
    kept, omitted = split_omitted(problems)
    if not kept and not omitted:
        return "no problems"
    lines = [f"{len(kept) + omitted} problem(s) found:"]
    for p in kept[:limit]:
        where = printable(p.file) or "<input>"
        if p.row is not None:
            where += f", row {p.row}"
        if p.column:
            where += f", column {printable(repr(p.column))}"
        value = f": value {quoted(p.value)}" if p.value is not None else ""
        fix = f"\n      fix: {printable(p.fix)}" if p.fix else ""
        lines.append(f"  [{p.code}] {where}{value}\n      {printable(p.message)}{fix}")
    rest = len(kept) + omitted - min(limit, len(kept))
    if rest > 0:
        lines.append(f"  ... and {rest} more")
    return "\n".join(lines)
