"""Readers: files in, validated frames out. Every problem of a file is reported at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from pipeline.errors import InputError, Problem, ProblemList
from pipeline.model import GamesInput, PlayerList, SidesInput
from pipeline.readers.detect import KINDS, canonical_columns, closest_kind, detect_kind
from pipeline.readers.players import parse_players
from pipeline.readers.tabular import RawTable, read_tables

__all__ = ["read_event_file", "read_players", "read_table_of_kind"]


def read_table_of_kind(path: Path, wanted: set[str], sheet: str | None = None) -> tuple[str, RawTable]:
    """The first table (sheet) in ``path`` whose header makes it one of the ``wanted`` kinds."""
    tables = read_tables(path)
    if sheet is not None:
        tables = [t for t in tables if t.sheet == sheet]
        if not tables:
            raise InputError(
                [Problem("not-a-table", f"no sheet named {sheet!r}", file=str(path), fix="check --sheet")]
            )
    for table in tables:
        table.frame.columns = canonical_columns(list(table.frame.columns))
        kind = detect_kind(list(table.frame.columns))
        if kind in wanted:
            return kind, table
    # Nothing fits: say what the first table is closest to and which columns it lacks.
    first = tables[0]
    kind, missing = closest_kind(list(first.frame.columns))
    kind = kind if kind in wanted else sorted(wanted)[0]
    missing = KINDS[kind][0] - set(first.frame.columns)
    raise InputError(
        [
            Problem(
                "missing-column",
                f"this table is not a {kind} file: column(s) {', '.join(sorted(missing))} missing "
                f"(found: {', '.join(first.frame.columns) or 'nothing'})",
                file=str(path),
                row=1,
                column=", ".join(sorted(missing)),
                fix=f"a {kind} file needs the columns {', '.join(sorted(KINDS[kind][0]))}",
            )
        ]
    )


def read_event_file(
    path: Path | str,
    sheet: str | None = None,
    *,
    input_format: str | None = None,
    columns: Mapping[str, str] | Sequence[str] | None = None,
) -> GamesInput | SidesInput:
    """Any event file: games, individual, TRF, crosstable or grid (see :mod:`.formats`).

    A TRF or crosstable comes back as a GamesInput that also carries the event's own players
    (``.players``), byes (``.byes``) and header facts (``.info``).
    """
    from pipeline.readers.formats import read_event

    return read_event(path, input_format=input_format, sheet=sheet, columns=columns)


def read_players(path: Path | str, sheet: str | None = None) -> PlayerList:
    path = Path(path)
    _, table = read_table_of_kind(path, {"players"}, sheet)
    problems = ProblemList()
    players = parse_players(table, problems)
    problems.raise_if_any()
    return players
