"""Check input files without rating: the library behind ``fiderate validate``.

The checks are exactly those of ``fiderate rate`` (:func:`jobs.rate.stages.input_problems`: the
readers, the schemas and the assembly of games with the players list); this module only reports
them, with the events' warnings, as a table for people or JSON for programs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import (
    LIST_LIMIT,
    Problem,
    printable,
    problems_listed,
    quoted,
    split_omitted,
)
from pipeline.jobs.rate.stages import input_problems
from pipeline.model import READ_DEFAULTS, ReadOptions
from pipeline.readers.rating_inputs import read_rating_inputs


@dataclass(frozen=True)
class ValidateRequest:
    """One ``fiderate validate`` run: the event files (or folders, or patterns), the list in
    force (unknown players are checked against it), its rules column and how to read."""

    files: tuple[Path | str, ...]
    players: Path | str | None = None
    rules: str | None = None
    reading: ReadOptions = READ_DEFAULTS

    def __post_init__(self) -> None:
        # A list given for ``files`` would leave the request mutable through it.
        object.__setattr__(self, "files", tuple(self.files))


@dataclass(frozen=True)
class ValidationReport:
    """The files checked (the players list first), every problem found, in fixing order, and
    the warnings of the events read (what a file says that contradicts itself: they stop
    nothing)."""

    files: tuple[str, ...]
    problems: tuple[Problem, ...]
    warnings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def validate(request: ValidateRequest) -> ValidationReport:
    """Every problem ``rate`` would stop on, without rating or writing anything."""
    read = read_rating_inputs(
        request.files, request.players, rules=request.rules, reading=request.reading
    )
    problems = input_problems(read, request.files, request.players)
    players = [str(request.players)] if request.players is not None else []
    files = (*players, *(str(p) for p in request.files))
    return ValidationReport(files, tuple(problems), tuple(read.warnings))


def report_json(report: ValidationReport, limit: int = LIST_LIMIT) -> str:
    """The report as one JSON object, as every command's ``--json`` prints one: ``ok``, the
    ``files`` checked, the ``problem_count``, the ``problems`` (``errors.problems_listed``:
    the first ``limit``, then one ``more-problems`` object counting the rest) and the
    ``warnings``."""
    answer = {
        "ok": report.ok,
        "files": report.files,
        "problem_count": len(report.problems),
        "problems": problems_listed(report.problems, limit),
        "warnings": list(report.warnings),
    }
    return json.dumps(answer, ensure_ascii=False, indent=1)


def _cell(value: object, width: int) -> str:
    text = "" if value is None else str(value)
    text = printable(text.replace("\n", " ").replace("\r", " "))
    return text if len(text) <= width else text[: width - 1] + "…"


def problems_table(problems: Sequence[Problem], limit: int = LIST_LIMIT) -> str:
    """One line per problem: where (file, row, column), the value, the code, then what and fix;
    the first ``limit`` problems, then a count of the rest."""
    kept, omitted = split_omitted(problems)
    more = len(kept) + omitted - min(limit, len(kept))
    problems = kept[:limit]
    rows = [
        (
            p.file or "<input>",
            "" if p.row is None else str(p.row),
            p.column,
            quoted(p.value),
            p.code,
            f"{p.message}; fix: {p.fix}" if p.fix else p.message,
        )
        for p in problems
    ]
    header = ("file", "row", "column", "value", "code", "problem and fix")
    limits = (10_000, 8, 24, 24, 18, 10_000)  # cut long values only: a path must stay whole
    widths = [
        min(limit, max(len(_cell(r[i], limit)) for r in [header, *rows]))
        for i, limit in enumerate(limits)
    ]
    lines = []
    for r in [header, *rows]:
        cells = [_cell(v, limits[i]).ljust(widths[i]) for i, v in enumerate(r)]
        lines.append("  ".join(cells).rstrip())
    if more > 0:
        lines.append(f"... and {more:,} more")
    return "\n".join(lines)
