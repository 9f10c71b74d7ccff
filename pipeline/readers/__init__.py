"""Readers: files in, validated frames out. Every problem of a file is reported at once."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pipeline.errors import InputError, Problem, ProblemList
from pipeline.model import GamesInput, PlayerList, SidesInput
from pipeline.readers import fide_list
from pipeline.readers.detect import KINDS, canonical_columns, closest_kind, detect_kind
from pipeline.readers.games import parse_games
from pipeline.readers.individual import parse_individual
from pipeline.readers.players import parse_players
from pipeline.readers.tabular import RawTable, normalize_header, read_tables
from pipeline.rules import RuleSet, get_rules

__all__ = ["read_event_file", "read_players", "read_table_of_kind"]


def select_sheet(tables: list[RawTable], sheet: str | None, path: Path) -> list[RawTable]:
    """The tables ``--sheet`` names (by name, else by 1-based number); all when not given.
    A CSV file has no sheets, so ``--sheet`` does not apply to it."""
    if sheet is None or all(t.sheet is None for t in tables):
        return tables
    named = [t for t in tables if t.sheet == sheet]
    if not named and sheet.isdigit() and 1 <= int(sheet) <= len(tables):
        named = [tables[int(sheet) - 1]]
    if not named:
        names = ", ".join(repr(t.sheet) for t in tables)
        raise InputError(
            [
                Problem(
                    "not-a-table",
                    f"no sheet named {sheet!r} (the workbook has {names})",
                    file=str(path),
                    value=sheet,
                    fix="check --sheet (a sheet name or its number, 1 = first)",
                )
            ]
        )
    return named


def _find_header(table: RawTable, wanted: set[str], scan: int = 20) -> tuple[str, RawTable] | None:
    """Title lines above the header (an event name, a date) are common in exported workbooks:
    look for a row among the first ``scan`` whose cells make the header of a ``wanted`` kind."""
    frame = table.frame
    for i in range(min(scan, len(frame))):
        names = canonical_columns([normalize_header(v) for v in frame.iloc[i].tolist()])
        kind = detect_kind(names)
        if kind in wanted:
            body = frame.iloc[i + 1 :].copy()
            body.columns = names
            body = body.loc[:, [c != "" for c in body.columns]]
            body = body.loc[:, ~pd.Index(body.columns).duplicated()]
            found = RawTable(
                body.reset_index(drop=True), table.rows[i + 1 :], table.source, table.sheet,
                table.decimal,
            )
            return kind, found
    return None


def read_table_of_kind(
    path: Path, wanted: set[str], sheet: str | None = None
) -> tuple[str, RawTable]:
    """The first table (sheet) in ``path`` whose header makes it one of the ``wanted`` kinds."""
    tables = select_sheet(read_tables(path), sheet, path)
    for table in tables:  # sheets in workbook order; in each, the header row or a later one
        table.frame.columns = canonical_columns(list(table.frame.columns))
        kind = detect_kind(list(table.frame.columns))
        if kind in wanted:
            table.frame = table.frame.loc[:, ~table.frame.columns.str.startswith("column_")]
            return kind, table
        found = _find_header(table, wanted)
        if found is not None:
            return found
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


def read_event_file(path: Path | str, sheet: str | None = None) -> GamesInput | SidesInput:
    path = Path(path)
    kind, table = read_table_of_kind(path, {"games", "individual"}, sheet)
    problems = ProblemList()
    parsed = parse_games(table, problems) if kind == "games" else parse_individual(table, problems)
    if problems:
        raise InputError(problems.problems, partial=parsed)
    return parsed


def read_players(
    path: Path | str, sheet: str | None = None, *, rules: RuleSet | str | None = None
) -> PlayerList:
    """A players file (CSV/XLSX) or a FIDE rating list as downloaded (TXT/XML, maybe zipped).

    ``rules`` (a rule set or its name) chooses the standard, rapid or blitz column of a FIDE list.
    """
    path = Path(path)
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
