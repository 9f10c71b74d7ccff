"""Spreadsheets for people: rating_list.xlsx and report.xlsx (summary + one sheet per player).

Numbers are written as numbers (so Excel can sort and sum them), each the CSV files' exact
decimal shown with its decimals, and ids as text: one rule for every workbook, by column name
(:mod:`.cell_types`). The values come from the same exact text tables as the CSV files.

Written by ``xlsx_package`` (the few SpreadsheetML parts these sheets use, as text): openpyxl's
write-only mode spent about 40 us a cell, most of a one-event run (issue 13). Strings stay
strings: nothing that looks like a formula, URL or number is converted, and text that a
spreadsheet would read as the start of a formula carries the quote prefix (see
:mod:`.text_cells`): a player named ``=HYPERLINK(...)`` is a name, never a formula.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from pipeline.resources.atomic_files import Target
from pipeline.rules.norm_labels import LEGEND
from pipeline.writers.text.norms_text import sheet_table
from pipeline.writers.xlsx import package as xlsx_package
from pipeline.writers.xlsx.cell_types import Number, cell_value
from pipeline.writers.xlsx.package import Book, column_letter, number_cell, string_cell

if TYPE_CHECKING:
    from pipeline.model import NormReport

# Columns kept for the HTML charts only.
CHART_COLUMNS = ["cum_expected", "cum_score"]
# Excel's sheet names: at most 31 characters, none of []:*?/\, no quote at either end, and
# "History" is its own; control characters (a name from the input may hold any) are left out.
SHEET_NAME_MAX = 31
_BAD_SHEET_CHARS = re.compile(r"[\[\]\*\?/\\:\x00-\x1f\x7f\ufffe\uffff]")
RESERVED_SHEET_NAMES = {"history"}

Cell = str | Number | None  # a value written: text, a number, or None for a blank cell


class Sheet(xlsx_package.Sheet):
    """A worksheet with ``append``: a row of values (text, ``Number``; None = blank)."""

    def append(self, values: Iterable[Cell]) -> None:
        row = self.row + 1
        self.append_xml(
            _cell_xml(self.book, f"{column_letter(j)}{row}", value)
            for j, value in enumerate(values)
            if value is not None
        )


def _cell_xml(book: Book, ref: str, value: str | Number) -> str:
    if isinstance(value, Number):
        style = book.number_format(value.num_format) if value.num_format else 0
        return number_cell(ref, value.text, style)
    return string_cell(ref, value)


def new_sheet(book: Book, name: str) -> Sheet:
    sheet = Sheet(book, name)
    book.sheets.append(sheet)
    return sheet


def column_widths(table: pd.DataFrame) -> dict[str, float]:
    """Excel column widths from the header and (the first 2,000) values, 6 to 45 characters."""
    widths = {}
    for column in table.columns:
        values = table[column].head(2000).astype(str)
        longest = max([len(column), *values.str.len().tolist()]) if len(values) else len(column)
        widths[column] = min(max(longest + 2, 6), 45)
    return widths


def typed_columns(table: pd.DataFrame) -> list[list[Cell]]:
    """Each column's cells as the values written (:func:`.cell_types.cell_value`)."""
    return [
        [cell_value(column, text) for text in table[column].tolist()] for column in table.columns
    ]


def write_table(
    ws: Sheet,
    table: pd.DataFrame,
    widths: dict[str, float] | None = None,
) -> None:
    """Header row, typed rows, frozen header, autofilter and column widths, from ``ws.row`` on
    (a new sheet: row 0)."""
    columns = list(table.columns)
    write_typed(ws, columns, typed_columns(table), widths or column_widths(table))


def write_typed(
    ws: Sheet, columns: list[str], cells: list[list[Cell]], widths: dict[str, float]
) -> None:
    """``write_table`` on columns already typed (``typed_columns``): the per-player sheets
    type the whole breakdown once and write a slice of it each. ``widths``: shared by the
    per-player sheets, which have the same columns."""
    first = ws.row
    for j, column in enumerate(columns):
        ws.set_width(j, widths[column])
    ws.append_xml(
        string_cell(f"{column_letter(j)}{first + 1}", column, xlsx_package.BOLD_STYLE)
        for j, column in enumerate(columns)
    )
    ws.freeze_rows(first + 1)
    letters = [column_letter(j) for j in range(len(columns))]
    book = ws.book
    rows = len(cells[0]) if cells else 0
    for i, values in enumerate(zip(*cells, strict=True), start=first + 2):
        ws.append_xml(
            _cell_xml(book, f"{letter}{i}", value)
            for letter, value in zip(letters, values, strict=True)
            if value is not None
        )
    if rows:
        ws.set_autofilter(first, 0, first + rows, len(columns) - 1)


def _cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters as Excel counts them (UTF-16 units: a character
    beyond the Basic Multilingual Plane, an emoji, counts twice)."""
    text = text[:limit]
    while len(text.encode("utf-16-le")) > 2 * limit:
        text = text[:-1]
    return text


def sheet_names(labels: Iterable[str], taken: set[str]) -> list[str]:
    """Sheet names for ``labels`` (a player sheet's "id name"): Excel's forbidden characters
    removed, cut to 31 characters, unique (case aside) against each other and ``taken`` by a
    ``~2`` suffix."""
    names = []
    used = {t.lower() for t in taken} | RESERVED_SHEET_NAMES
    for raw in labels:
        base = _cut(_BAD_SHEET_CHARS.sub("", raw), SHEET_NAME_MAX).strip(" '") or "player"
        name, n = base, 2
        while name.lower() in used:
            suffix = f"~{n}"
            name = _cut(base, SHEET_NAME_MAX - len(suffix)).rstrip(" '") + suffix
            n += 1
        used.add(name.lower())
        names.append(name)
    return names


NORMS_SHEET = "Norms"


def write_norms_sheet(ws: Sheet, report: NormReport) -> None:
    """The events' title norms (one row per event, player and title), then the legend of the
    margins and what the event file cannot say."""
    write_table(ws, sheet_table(report))
    ws.append([])
    ws.append(["Margins", LEGEND])
    for note in report.to_confirm:
        ws.append(["To confirm", note])


def write_rating_list_xlsx(table: pd.DataFrame, path: Target) -> None:
    write_tables_xlsx([("Rating list", table)], path)


def write_tables_xlsx(sheets: Sequence[tuple[str, pd.DataFrame]], path: Target) -> None:
    """One sheet per (title, table), in that order, each written by :func:`write_table`."""
    wb = Book(path)
    for title, table in sheets:
        write_table(new_sheet(wb, title), table)
    wb.save()


ABOUT_SHEET = "About"


def write_report_xlsx(
    summary: pd.DataFrame,
    games: pd.DataFrame,
    path: Target,
    per_player: bool,
    note: str = "",
    norms: NormReport | None = None,
    about: pd.DataFrame | None = None,
) -> None:
    """Summary sheet (standings), the events' title norms (if ``norms``), then (if
    ``per_player``) one sheet per player with the game-by-game breakdown and the totals under
    it, and last the About sheet (``about``: period, rule set, why, method, version, inputs).
    ``note`` labels a non-FIDE mode."""
    wb = Book(path)
    ws = new_sheet(wb, "Summary")
    write_table(ws, summary)
    if note:
        ws.append([])
        ws.append([f"NOTE: {note}"])
    taken = {"Summary", ABOUT_SHEET} if about is not None else {"Summary"}
    if norms is not None:
        write_norms_sheet(new_sheet(wb, NORMS_SHEET), norms)
        taken.add(NORMS_SHEET)
    if per_player:
        # Each player's games as one slice of a frame grouped by player (stable: game order
        # kept), and the totals from a dict: no per-player filtering of whole frames.
        codes, uniques = pd.factorize(games["player"])
        order = np.argsort(codes, kind="stable")
        body_all = games.drop(columns=["player", *CHART_COLUMNS], errors="ignore").iloc[order]
        counts = np.bincount(codes, minlength=len(uniques))
        ends = np.cumsum(counts)
        bounds = dict(zip(uniques, zip(ends - counts, ends, strict=True), strict=True))
        records = {r["id"]: r for r in summary.to_dict("records")}
        ids = summary["id"].tolist()
        shared = column_widths(body_all)
        body_columns = list(body_all.columns)
        body_cells = typed_columns(body_all)
        # A player's sheet is named "id name" (the tabs say whose sheet it is); the id alone
        # when the name is not known (the standings then list the id as the name).
        labels = [
            f"{i} {n}" if n and n != i else i
            for i, n in zip(ids, summary["name"].tolist(), strict=True)
        ]
        for player_id, name in zip(ids, sheet_names(labels, taken), strict=True):
            if player_id not in bounds:
                continue
            lo, hi = bounds[player_id]
            ws = new_sheet(wb, name)
            totals = records[player_id]
            write_typed(ws, body_columns, [c[lo:hi] for c in body_cells], shared)
            ws.append([])
            for label, key in (
                ("player", "id"),
                ("name", "name"),
                ("rating", "rating"),
                ("K used", "k"),
                ("K explained", "k_rule"),
                ("rated games", "games"),
                ("score", "score"),
                ("expected (sum of PD)", "expected"),
                ("performance (FIDE: Ra + dp(p))", "performance"),
                ("change exact (K x sum(S - PD))", "change_exact"),
                ("change (rounded once, .5 away from zero)", "change"),
                ("new rating", "new_rating"),
            ):
                ws.append([label, cell_value(key, str(totals[key]))])
            if note:
                ws.append(["NOTE", note])
    if about is not None:
        write_table(new_sheet(wb, ABOUT_SHEET), about)
    wb.save()
