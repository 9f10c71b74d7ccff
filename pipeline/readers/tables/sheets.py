"""``--sheet``: which tables (sheets) of a workbook to read."""

from __future__ import annotations

from pipeline.errors import Code, InputError, Problem
from pipeline.readers.limits import Source
from pipeline.readers.tables.raw import RawTable


def select_sheet(tables: list[RawTable], sheet: str | None, path: Source) -> list[RawTable]:
    """The tables ``--sheet`` names (by name, else by 1-based number); all when not given.
    A CSV file has no sheets, so ``--sheet`` does not apply to it."""
    if sheet is None or all(t.sheet is None for t in tables):
        return tables
    named = [t for t in tables if t.sheet == sheet]
    if not named and sheet.isascii() and sheet.isdigit() and 1 <= int(sheet) <= len(tables):
        named = [tables[int(sheet) - 1]]
    if not named:
        names = ", ".join(repr(t.sheet) for t in tables)
        raise InputError(
            [
                Problem(
                    Code.NOT_A_TABLE,
                    f"no sheet named {sheet!r} (the workbook has {names})",
                    file=str(path),
                    value=sheet,
                    fix="check --sheet (a sheet name or its number, 1 = first)",
                )
            ]
        )
    return named
