"""Domain errors with stable codes.

Every problem found in the input is a :class:`Problem` (where, what, how to fix). Readers collect
all problems of a file before raising one :class:`InputError`, so a user fixes a file in one pass.
The CLI turns :class:`FiderateError` into exit code 1 and prints :func:`format_problems`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# Stable codes: tests, `--json` consumers and the README refer to these strings.
CODES = {
    "bad-result": "a result that is not one of the accepted spellings",
    "unknown-player": "a player id that is not on the players list",
    "result-mismatch": "the two sides of one game disagree",
    "duplicate-game": "the same game appears twice",
    "self-pairing": "a player paired against themselves",
    "bad-rating": "a rating that is not a whole number in 0..3500",
    "bad-id": "a player id that is blank or malformed",
    "bad-value": "a value of the wrong type (year, count, K, flag, date)",
    "points-mismatch": "a points column that disagrees with the results",
    "missing-column": "a required column is absent",
    "bad-encoding": "the file is not in a text encoding we can read",
    "not-a-table": "the file is empty, binary or truncated",
    "inconsistent-k": "one player given two different K values",
    "duplicate-player": "the same player id twice on the players list",
    "duplicate-event": "the same event file (same content) given twice in one run",
    "already-rated": "an event that was already rated in an earlier run (same content hash)",
    "period-published": "a period whose list was already published (use --replace)",
    "no-list-in-force": "an event started in a month whose list is not in the history",
    "event-after-period": "an event that starts after the period being rated",
    "too-large": "an archive or workbook that unpacks to more than we read (1 GB)",
    "too-wide": "a table with more columns than any input has (2,000)",
    "not-allowed": "an XML list with a DOCTYPE or entities (never resolved)",
    "output-replaces-input": "an output file that would overwrite one of the inputs",
    "bad-output": "an output folder that cannot be written (a file, read-only, disk full)",
    "trf-too-large": "an event with more players than TRF16's four-digit starting ranks hold",
    "bad-database": "a history database that is empty, damaged or busy",
}


# Bounds on what a report quotes: a 200 MB cell is shown by its first characters and its length,
# and a million bad rows by the first LIST_LIMIT problems and a count of the rest.
QUOTE_LIMIT = 80
MESSAGE_LIMIT = 400
LIST_LIMIT = 200


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input, located as precisely as we can.

    The value is quoted by at most :data:`QUOTE_LIMIT` characters, the message and the fix by
    :data:`MESSAGE_LIMIT`: whatever the input holds, a report stays readable.
    """

    code: str
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


class FiderateError(Exception):
    """Base class: anything the CLI reports as a failed run (exit code 1)."""


class InputError(FiderateError):
    """The input is bad. Carries every problem found, not only the first."""

    headline = "the input is not valid."

    def __init__(self, problems: Sequence[Problem], partial: object = None):
        self.problems: list[Problem] = list(problems)
        # What could be read despite the problems (e.g. a GamesInput with its bad cells blanked),
        # so later checks (unknown players) can still report in the same pass.
        self.partial = partial
        super().__init__(format_problems(self.problems))

    def __reduce__(self):  # type: ignore[no-untyped-def]
        # Rebuilt from its problems when it crosses a process boundary (a Dask worker).
        return (type(self), (self.problems, self.partial))


class OutputError(InputError):
    """The outputs cannot be written where asked (a file, read-only, disk full, an input)."""

    headline = "cannot write the outputs; nothing was written."


class RunError(FiderateError):
    """A run could not be completed for a reason other than bad input rows."""


@dataclass
class ProblemList:
    """Collects problems while a reader scans a file."""

    problems: list[Problem] = field(default_factory=list)

    def add(self, code: str, message: str, **where: object) -> None:
        self.problems.append(Problem(code, message, **where))  # type: ignore[arg-type]

    def extend(self, problems: Iterable[Problem]) -> None:
        self.problems.extend(problems)

    def raise_if_any(self) -> None:
        if self.problems:
            raise InputError(self.problems)

    def __bool__(self) -> bool:
        return bool(self.problems)


def format_problems(problems: Sequence[Problem], limit: int = LIST_LIMIT) -> str:
    """A plain-text table a person can read in a terminal."""
    if not problems:
        return "no problems"
    lines = [f"{len(problems)} problem(s) found:"]
    for p in problems[:limit]:
        where = p.file or "<input>"
        if p.row is not None:
            where += f", row {p.row}"
        if p.column:
            where += f", column {p.column!r}"
        value = f": value {p.value!r}" if p.value is not None else ""
        fix = f"\n      fix: {p.fix}" if p.fix else ""
        lines.append(f"  [{p.code}] {where}{value}\n      {p.message}{fix}")
    if len(problems) > limit:
        lines.append(f"  ... and {len(problems) - limit} more")
    return "\n".join(lines)
