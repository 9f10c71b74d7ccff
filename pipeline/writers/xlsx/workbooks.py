"""Spreadsheets for people: rating_list.xlsx and report.xlsx (summary + one sheet per player).

Numbers are written as numbers (so Excel can sort and sum them) with fixed number formats; the
values come from the same exact text tables as the CSV files.

Written by ``xlsx_package`` (the few SpreadsheetML parts these sheets use, as text): openpyxl's
write-only mode spent about 40 us a cell, most of a one-event run (issue 13). Strings stay
strings: nothing that looks like a formula, URL or number is converted, and text that a
spreadsheet would read as the start of a formula carries the quote prefix (see
:mod:`.text_cells`): a player named ``=HYPERLINK(...)`` is a name, never a formula.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import pandas as pd

from pipeline.rules.norm_labels import LEGEND, REQUIREMENTS
from pipeline.writers.text.norms_text import sheet_table
from pipeline.writers.xlsx import package as xlsx_package
from pipeline.writers.xlsx.package import Book, column_letter, number_cell, string_cell

if TYPE_CHECKING:
    from pipeline.model import NormReport

INT_COLUMNS = {
    "rating",
    "k",
    "games",
    "change",
    "new_rating",
    "player_rating",
    "opponent_rating",
    "diff",
    "round_no",
    "rank",
    "line",
    "gap",
    "gap_used",
    "performance",
    "rating_used",
    # the Norms sheet
    "played",
    "unrated",
    "lowest",
    "raised_to",
    "ra",
    "dp",
}
# Number formats: PD and deviations with two decimals, scores with one.
DECIMAL_FORMATS = {
    "score": "0.0",
    "expected": "0.00",
    "change_exact": "+0.00;-0.00;0.00",
    "pd": "0.00",
    "dev": "+0.00;-0.00;0.00",
    "k_dev": "+0.00;-0.00;0.00",
    "points": "0.0",
    # the Norms sheet: margins signed (+ spare, - short), p with two decimals
    "p": "0.00",
    **{f"{name}_margin": "+General;-General;0" for name in REQUIREMENTS},
}
# Columns kept for the HTML charts only.
CHART_COLUMNS = ["cum_expected", "cum_score"]
_BAD_SHEET_CHARS = re.compile(r"[\[\]\*\?/\\:]")


class Styled(NamedTuple):
    """A value with the number format it is shown with."""

    value: int | float
    num_format: str


class Sheet(xlsx_package.Sheet):
    """A worksheet with ``append``: a row of values (str, numbers, ``Styled``; None = blank)."""

    def append(self, values: Iterable[object]) -> None:
        row = self.row + 1
        cells = []
        for j, value in enumerate(values):
            if value is None:
                continue
            ref = f"{column_letter(j)}{row}"
            if isinstance(value, Styled):
                style = self.book.number_format(value.num_format)
                cells.append(number_cell(ref, value.value, style))
            elif isinstance(value, str):
                cells.append(string_cell(ref, value))
            else:
                cells.append(number_cell(ref, value))  # type: ignore[arg-type]
        self.append_xml(cells)


def new_sheet(book: Book, name: str) -> Sheet:
    sheet = Sheet(book, name)
    book.sheets.append(sheet)
    return sheet


def _value(column: str, text: str) -> object:
    if text == "":
        return None
    if column in INT_COLUMNS:
        try:
            return int(text)
        except ValueError:
            return text
    if column in DECIMAL_FORMATS:
        return float(text)  # display only: the exact value is the text in the CSV
    return text


# A player sheet's round, opponent id and result: numbers where they are numbers, so Excel does
# not flag "number stored as text" and an arbiter can sum the results against the score. An id
# is a number only when the number shows its exact digits (no leading zero, at most 15 digits:
# Excel keeps 15 significant digits); otherwise, and for rounds such as "1.10", it stays text.
# Results: 1, 0.5, 0 as numbers (the side's points, as the score total counts them); the marks
# of unplayed games (+, -) stay text, as crosstables print them: they are no points of a game.
WHOLE_NUMBER_COLUMNS = {"round", "opponent"}
SIDE_SCORES = {"1": 1, "½": 0.5, "0": 0}


def _whole_number(text: str) -> int | None:
    exact = text.isascii() and text.isdigit() and len(text) <= 15
    return int(text) if exact and (text == "0" or not text.startswith("0")) else None


def breakdown_value(column: str, text: str) -> object:
    """A player sheet's cell (:func:`_value`, with the round, opponent and result typed)."""
    if column in WHOLE_NUMBER_COLUMNS:
        number = _whole_number(text)
        return text or None if number is None else number
    if column == "result" and text in SIDE_SCORES:
        return SIDE_SCORES[text]
    return _value(column, text)


def _cell(column: str, text: str) -> object:
    """A typed value, with its number format when the column has one."""
    value = _value(column, text)
    if column in DECIMAL_FORMATS and isinstance(value, int | float):
        return Styled(value, DECIMAL_FORMATS[column])
    return value


def column_widths(table: pd.DataFrame) -> dict[str, float]:
    """Excel column widths from the header and (the first 2,000) values, 6 to 45 characters."""
    widths = {}
    for column in table.columns:
        values = table[column].head(2000).astype(str)
        longest = max([len(column), *values.str.len().tolist()]) if len(values) else len(column)
        widths[column] = min(max(longest + 2, 6), 45)
    return widths


def typed_columns(
    table: pd.DataFrame, value: Callable[[str, str], object] | None = None
) -> list[list[object]]:
    """Each column's cells as the values written (int, float, str or None for blank), by
    ``value`` (column, text) -> cell (default: :func:`_value`)."""
    typed = value or _value
    return [[typed(column, text) for text in table[column].tolist()] for column in table.columns]


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
    ws: Sheet, columns: list[str], cells: list[list[object]], widths: dict[str, float]
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
    styles = [
        ws.book.number_format(DECIMAL_FORMATS[c]) if c in DECIMAL_FORMATS else 0 for c in columns
    ]
    rows = len(cells[0]) if cells else 0
    for i, values in enumerate(zip(*cells, strict=True), start=first + 2):
        row = []
        for letter, style, value in zip(letters, styles, values, strict=True):
            if value is None:
                continue
            if isinstance(value, str):
                row.append(string_cell(f"{letter}{i}", value))
            else:
                row.append(number_cell(f"{letter}{i}", value, style))  # type: ignore[arg-type]
        ws.append_xml(row)
    if rows:
        ws.set_autofilter(first, 0, first + rows, len(columns) - 1)


def sheet_names(ids: Iterable[str], taken: set[str]) -> list[str]:
    """Unique sheet names within Excel's 31 characters and allowed characters."""
    names = []
    used = {t.lower() for t in taken}
    for raw in ids:
        base = _BAD_SHEET_CHARS.sub("_", str(raw)).strip("'")[:31] or "player"
        name, n = base, 2
        while name.lower() in used:
            suffix = f"~{n}"
            name = base[: 31 - len(suffix)] + suffix
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


def write_rating_list_xlsx(table: pd.DataFrame, path: Path) -> None:
    write_tables_xlsx([("Rating list", table)], path)


def write_tables_xlsx(sheets: Sequence[tuple[str, pd.DataFrame]], path: Path) -> None:
    """One sheet per (title, table), in that order, each written by :func:`write_table`."""
    wb = Book(path)
    for title, table in sheets:
        write_table(new_sheet(wb, title), table)
    wb.save()


ABOUT_SHEET = "About"


def write_report_xlsx(
    summary: pd.DataFrame,
    games: pd.DataFrame,
    path: Path,
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
        body_cells = typed_columns(body_all, breakdown_value)
        for player_id, name in zip(ids, sheet_names(ids, taken), strict=True):
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
                ws.append([label, _cell(key, str(totals[key]))])
            if note:
                ws.append(["NOTE", note])
    if about is not None:
        write_table(new_sheet(wb, ABOUT_SHEET), about)
    wb.save()
