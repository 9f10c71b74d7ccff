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
from pipeline.writers.xlsx.typed_rows import Cell, TypedColumn, first_uses, rows_xml, typed_columns

if TYPE_CHECKING:
    from pipeline.model import NormReport

# Columns kept for the HTML charts only.
CHART_COLUMNS = ["cum_expected", "cum_score"]
# Excel's sheet names: at most 31 characters, none of []:*?/\, no quote at either end, and
# "History" is its own; control characters (a name from the input may hold any) are left out.
SHEET_NAME_MAX = 31
_BAD_SHEET_CHARS = re.compile(r"[\[\]\*\?/\\:\x00-\x1f\x7f\ufffe\uffff]")
RESERVED_SHEET_NAMES = {"history"}


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


def write_table(
    ws: Sheet,
    table: pd.DataFrame,
    widths: dict[str, float] | None = None,
) -> None:
    """Header row, typed rows, frozen header, autofilter and column widths, from ``ws.row`` on
    (a new sheet: row 0)."""
    columns = typed_columns(table)
    rows = np.arange(len(table))
    for _, _, num_format in first_uses(columns, rows):
        ws.book.number_format(num_format)
    body = rows_xml(ws.book, columns, rows, rows + ws.row + 2)
    write_typed(ws, columns, body, widths or column_widths(table))


def write_typed(
    ws: Sheet, columns: list[TypedColumn], body: list[str], widths: dict[str, float]
) -> None:
    """``write_table`` with the rows already written as XML (:func:`.typed_rows.rows_xml`,
    numbered from ``ws.row + 2``): the per-player sheets write the whole breakdown at once and
    take a slice of it each. ``widths``: shared by the per-player sheets, which have the same
    columns."""
    first = ws.row
    for j, column in enumerate(columns):
        ws.set_width(j, widths[column.name])
    ws.append_xml(
        string_cell(f"{column_letter(j)}{first + 1}", column.name, xlsx_package.BOLD_STYLE)
        for j, column in enumerate(columns)
    )
    ws.freeze_rows(first + 1)
    ws.extend_rows(body)
    if body:
        ws.set_autofilter(first, 0, first + len(body), len(columns) - 1)


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
        _write_player_sheets(wb, summary, games, taken, note)
    if about is not None:
        write_table(new_sheet(wb, ABOUT_SHEET), about)
    wb.save()


# A player sheet's totals under the games: (label, column of the summary).
PLAYER_TOTALS = (
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
)


def _write_player_sheets(
    wb: Book, summary: pd.DataFrame, games: pd.DataFrame, taken: set[str], note: str
) -> None:
    """One sheet per player (in the standings' order) with the game-by-game breakdown and the
    totals under it. The breakdowns of all players are typed and written as XML at once, in
    the order the sheets show them; each sheet takes its slice."""
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
    # A player's sheet is named "id name" (the tabs say whose sheet it is); the id alone
    # when the name is not known (the standings then list the id as the name).
    labels = [
        f"{i} {n}" if n and n != i else i
        for i, n in zip(ids, summary["name"].tolist(), strict=True)
    ]
    sheets = [
        (name, bounds[player_id], _totals_cells(records[player_id]))
        for player_id, name in zip(ids, sheet_names(labels, taken), strict=True)
        if player_id in bounds
    ]
    # The breakdown's rows in the sheets' order, each numbered on its sheet (from row 2).
    sizes = np.array([hi - lo for _, (lo, hi), _ in sheets], dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    rows = np.concatenate([np.arange(lo, hi) for _, (lo, hi), _ in sheets] or [np.arange(0)])
    numbers = np.arange(len(rows)) - np.repeat(starts, sizes) + 2
    body = typed_columns(body_all)
    _make_styles(wb, body, rows, starts, [totals for _, _, totals in sheets])
    body_xml = rows_xml(wb, body, rows, numbers)
    widths = column_widths(body_all)
    for (name, _, totals), start, size in zip(sheets, starts.tolist(), sizes.tolist(), strict=True):
        ws = new_sheet(wb, name)
        write_typed(ws, body, body_xml[start : start + size], widths)
        ws.append([])
        for label, value in totals:
            ws.append([label, value])
        if note:
            ws.append(["NOTE", note])


def _totals_cells(totals: dict) -> list[tuple[str, Cell]]:
    """A player sheet's totals rows: (label, the summary's value typed)."""
    return [(label, cell_value(key, str(totals[key]))) for label, key in PLAYER_TOTALS]


def _make_styles(
    wb: Book,
    body: list[TypedColumn],
    rows: np.ndarray,
    starts: np.ndarray,
    totals: list[list[tuple[str, Cell]]],
) -> None:
    """The number formats' styles of the player sheets, made in the order writing their cells
    one by one would first meet each (sheet by sheet: the breakdown's rows, then the totals),
    so that the styles are numbered as the cells are read."""
    uses = first_uses(body, rows)
    sheet_of = np.searchsorted(starts, [at for at, _, _ in uses], side="right") - 1
    firsts: dict[int, list[str]] = {}
    for k, (_, _, num_format) in zip(sheet_of.tolist(), uses, strict=True):
        firsts.setdefault(k, []).append(num_format)
    for k, cells in enumerate(totals):
        for num_format in firsts.get(k, []):
            wb.number_format(num_format)
        for _, value in cells:
            if isinstance(value, Number) and value.num_format:
                wb.number_format(value.num_format)
