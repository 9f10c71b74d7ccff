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
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from pipeline.resources.atomic_files import Target
from pipeline.rules.norm_labels import LEGEND
from pipeline.writers.xlsx import package as xlsx_package
from pipeline.writers.xlsx.cell_types import ID_COLUMNS, Number, cell_value
from pipeline.writers.xlsx.package import Book, column_letter, number_cell, string_cell
from pipeline.writers.xlsx.typed_rows import (
    Cell,
    TypedColumn,
    first_uses,
    rows_block,
    rows_xml,
    typed_columns,
)

if TYPE_CHECKING:
    from pipeline.writers.text.norms_text import NormsText

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


def write_table(ws: Sheet, table: pd.DataFrame) -> None:
    """Header row, typed rows, frozen header, autofilter and column widths, from ``ws.row`` on
    (a new sheet: row 0)."""
    columns = typed_columns(table)
    rows = np.arange(len(table))
    for _, _, num_format in first_uses(columns, rows):
        ws.book.number_format(num_format)
    body: list[str] | memoryview = []  # the rows as one block (no Python string a row)
    if len(rows):
        body = rows_block(ws.book, columns, rows, rows + ws.row + 2)
    write_typed(ws, columns, body, len(rows))


def write_typed(
    ws: Sheet, columns: list[TypedColumn], body: list[str] | memoryview, count: int = 0
) -> None:
    """``write_table`` with the rows already written as XML (:func:`.typed_rows.rows_xml`,
    numbered from ``ws.row + 2``): the per-player sheets write the whole breakdown at once and
    take a slice of it each (their columns' widths: the whole breakdown's). ``body``: a text
    a row, or the ``count`` rows as one UTF-8 block (:func:`.typed_rows.rows_block`)."""
    rows = len(body) if isinstance(body, list) else count
    first = ws.row
    for j, column in enumerate(columns):
        ws.set_width(j, column.width)
    ws.append_xml([_header_cells(tuple(column.name for column in columns), first + 1)])
    ws.freeze_rows(first + 1)
    if isinstance(body, list):
        ws.extend_rows(body)
    else:
        ws.extend_block(body, rows)
    if rows:
        ws.set_autofilter(first, 0, first + rows, len(columns) - 1)
        for j, column in enumerate(columns):
            if column.name in ID_COLUMNS:
                letter = column_letter(j)
                ws.ignore_text_ids(f"{letter}{first + 2}:{letter}{first + 1 + rows}")


@lru_cache(maxsize=64)
def _header_cells(names: tuple[str, ...], row: int) -> str:
    """The bold header cells of ``names`` on sheet row ``row`` (1-based): made once for the
    few headers of a workbook (every player sheet has the same)."""
    return "".join(
        string_cell(f"{column_letter(j)}{row}", name, xlsx_package.BOLD_STYLE)
        for j, name in enumerate(names)
    )


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


def write_norms_sheet(ws: Sheet, norms: NormsText) -> None:
    """The events' title norms (one row per event, player and title), then the legend of the
    margins and what the event file cannot say."""
    write_table(ws, norms.table)
    ws.append([])
    ws.append(["Margins", LEGEND])
    for note in norms.report.to_confirm:
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
    norms: NormsText | None = None,
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
    totals under it. All players' breakdowns and totals are typed and written as XML at once,
    in the order the sheets show them; each sheet takes its slices."""
    # Each player's games as one slice of a frame grouped by player (stable: game order kept).
    codes, uniques = pd.factorize(games["player"])
    order = np.argsort(codes, kind="stable")
    body_all = games.drop(columns=["player", *CHART_COLUMNS], errors="ignore").iloc[order]
    counts = np.bincount(codes, minlength=len(uniques))
    ends = np.cumsum(counts)
    bounds = dict(zip(uniques, zip(ends - counts, ends, strict=True), strict=True))
    ids = summary["id"].tolist()
    # A player's sheet is named "id name" (the tabs say whose sheet it is); the id alone
    # when the name is not known (the standings then list the id as the name).
    labels = [
        f"{i} {n}" if n and n != i else i
        for i, n in zip(ids, summary["name"].tolist(), strict=True)
    ]
    names = sheet_names(labels, taken)
    shown = [k for k, player_id in enumerate(ids) if player_id in bounds]  # players with games
    spans = [bounds[ids[k]] for k in shown]
    # The breakdown's rows in the sheets' order, each numbered on its sheet (from row 2), and
    # the totals' rows (after the breakdown and a blank row).
    sizes = np.array([hi - lo for lo, hi in spans], dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    rows = np.concatenate([np.arange(lo, hi) for lo, hi in spans] or [np.arange(0)])
    numbers = np.arange(len(rows)) - np.repeat(starts, sizes) + 2
    per_sheet = len(PLAYER_TOTALS)
    totals_rows = np.arange(len(shown) * per_sheet)
    totals_numbers = np.repeat(sizes, per_sheet) + 3 + totals_rows % per_sheet
    body = typed_columns(body_all)
    totals = _totals_columns(summary.iloc[shown])
    # Number formats get their styles in the order writing the cells one by one would meet
    # them: sheet by sheet, its breakdown then its totals. A row's place in that sequence:
    # a breakdown row has the totals of the sheets before it ahead of it, a totals row the
    # breakdowns of its own sheet and those before.
    body_uses = first_uses(body, rows)
    sheet_of = np.searchsorted(starts, [at for at, _, _ in body_uses], side="right") - 1
    totals_ahead = (starts + sizes)[totals_rows // per_sheet] if len(shown) else totals_rows
    uses = [
        (at + per_sheet * int(k), j, f) for (at, j, f), k in zip(body_uses, sheet_of, strict=True)
    ]
    uses += [(int(totals_ahead[at]) + at, j, f) for at, j, f in first_uses(totals, totals_rows)]
    for _, _, num_format in sorted(uses):
        wb.number_format(num_format)
    body_xml = rows_xml(wb, body, rows, numbers)
    totals_xml = rows_xml(wb, totals, totals_rows, totals_numbers)
    for n, k in enumerate(shown):
        ws = new_sheet(wb, names[k])
        write_typed(ws, body, body_xml[starts[n] : starts[n] + sizes[n]])
        ws.append([])
        ws.ignore_text_ids(f"B{ws.row + 1}")  # the totals' first row: the player's id
        ws.extend_rows(totals_xml[n * per_sheet : (n + 1) * per_sheet])
        if note:
            ws.append(["NOTE", note])


def _totals_columns(summary: pd.DataFrame) -> list[TypedColumn]:
    """The players' totals rows (``PLAYER_TOTALS`` for each row of ``summary``, one after the
    other) as two columns: the labels, and the summary's values typed by the column each
    comes from."""
    players, per_sheet = len(summary), len(PLAYER_TOTALS)
    label = TypedColumn(
        "label",
        [text for text, _ in PLAYER_TOTALS],
        np.tile(np.arange(per_sheet), players),
        0,
    )
    cells: list[Cell] = []
    codes = np.empty((players, per_sheet), dtype=np.int64)
    for t, (_, key) in enumerate(PLAYER_TOTALS):
        key_codes, distinct = pd.factorize(summary[key], use_na_sentinel=False)
        codes[:, t] = key_codes + len(cells)
        cells.extend(cell_value(key, str(value)) for value in distinct.tolist())
    return [label, TypedColumn("value", cells, codes.ravel(), 0)]
