"""Readers: files in, validated frames out. Every problem of a file is reported at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from pipeline.errors import Code, InputError, Problem
from pipeline.model import GamesInput, InputFile, PlayerList, SidesInput
from pipeline.problem_list import ProblemList
from pipeline.readers import limits
from pipeline.readers.limits import Source
from pipeline.readers.lists import fide_list
from pipeline.readers.lists.players_file import parse_players
from pipeline.readers.tables.detect import KINDS, canonical_columns, closest_kind, detect_kind
from pipeline.readers.tables.sheets import select_sheet
from pipeline.readers.tables.tabular import RawTable, read_tables
from pipeline.rules.sets import RuleSet, get_rules

__all__ = ["read_event_file", "read_players", "read_table_of_kind", "select_sheet"]


def read_table_of_kind(
    path: Source, wanted: set[str], sheet: str | None = None
) -> tuple[str, RawTable]:
    """The first table (sheet) in ``path`` whose header makes it one of the ``wanted`` kinds."""
    tables = select_sheet(read_tables(path), sheet, path)
    for table in tables:
        table.frame.columns = canonical_columns(list(table.frame.columns))
        kind = detect_kind(list(table.frame.columns))
        if kind in wanted:
            return kind, table
    if tables[0].sheet is not None:
        # Workbooks often carry title rows above the header: the same search as event files.
        from pipeline.readers.formats import _with_header_search, full_width_sheets

        for sheet_table in full_width_sheets(path, tables[0].sheet if sheet is not None else None):
            for candidate in _with_header_search(sheet_table):
                candidate.frame.columns = canonical_columns(list(candidate.frame.columns))
                kind = detect_kind(list(candidate.frame.columns))
                if kind in wanted:
                    return kind, candidate
    # Nothing fits: say what the first table is closest to and which columns it lacks.
    first = tables[0]
    kind, missing = closest_kind(list(first.frame.columns))
    kind = kind if kind in wanted else sorted(wanted)[0]
    missing = KINDS[kind][0] - set(first.frame.columns)
    raise InputError(
        [
            Problem(
                Code.MISSING_COLUMN,
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
    path: Path | str | InputFile,
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


def read_players(
    path: Path | str | InputFile, sheet: str | None = None, *, rules: RuleSet | str | None = None
) -> PlayerList:
    """A players file (CSV/XLSX) or a FIDE rating list as downloaded (TXT/XML, maybe zipped).

    ``rules`` (a rule set or its name) chooses the standard, rapid or blitz column of a FIDE list.
    """
    path = limits.as_source(path)
    limits.check_input(path)  # a folder, FIFO or device: refused before it is opened
    found = fide_list.sniff(path)
    if found is not None:
        rule_set = get_rules(rules) if isinstance(rules, str) else rules
        column = rule_set.list_column if rule_set is not None else "standard"
        return fide_list.read_fide_list(path, found, column)
    _, table = read_table_of_kind(path, {"players"}, sheet)
    problems = ProblemList()
    players = parse_players(table, problems)
    problems.raise_if_any()
    return players
