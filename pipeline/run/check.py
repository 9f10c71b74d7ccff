"""Check input files without rating: the library behind ``fiderate validate``.

The checks are exactly those of ``fiderate rate`` (:func:`pipeline.run.rate.check_inputs`: the
readers, the schemas and the assembly of games with the players list); this module only reports
them, as a table for people or JSON for programs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import LIST_LIMIT, Problem, printable, problems_listed, split_omitted
from pipeline.model import READ_DEFAULTS, ReadOptions
from pipeline.run.rate import check_inputs


@dataclass
class ValidationReport:
    files: list[str]
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.problems


def validate_files(
    paths: Sequence[Path | str],
    players_path: Path | str | None = None,
    *,
    rules: str | None = None,
    reading: ReadOptions = READ_DEFAULTS,
) -> ValidationReport:
    problems = check_inputs(paths, players_path, rules=rules, reading=reading)
    files = ([str(players_path)] if players_path is not None else []) + [str(p) for p in paths]
    return ValidationReport(files, problems)


def problems_json(problems: Sequence[Problem], limit: int = LIST_LIMIT) -> str:
    """``errors.problems_listed`` as JSON text: a list of objects."""
    listed = problems_listed(problems, limit)
    return json.dumps(listed, ensure_ascii=False, indent=1)


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
            "" if p.value is None else repr(p.value),
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
