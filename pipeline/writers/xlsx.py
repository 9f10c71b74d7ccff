"""Spreadsheets for people: rating_list.xlsx and report.xlsx (summary + one sheet per player).

Numbers are written as numbers (so Excel can sort and sum them) with fixed number formats; the
values come from the same exact text tables as the CSV files. Every other value is a text cell,
whatever it starts with (see :mod:`.text_cells`): a player named ``=HYPERLINK(...)`` is a name,
never a formula.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from pipeline.norms.check import REQUIREMENTS
from pipeline.norms.render import LEGEND, sheet_table
from pipeline.writers.text_cells import text_cell

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


def _cell(ws: Worksheet, column: str, text: str) -> object:
    """A typed value, with its number format when the column has one."""
    value = _value(column, text)
    if column in DECIMAL_FORMATS and value is not None:
        cell = WriteOnlyCell(ws, value=value)
        cell.number_format = DECIMAL_FORMATS[column]
        return cell
    if isinstance(value, str):
        return text_cell(ws, value)
    return value


def column_widths(table: pd.DataFrame) -> dict[str, float]:
    """Excel column widths from the header and (the first 2,000) values, 6 to 45 characters."""
    widths = {}
    for column in table.columns:
        values = table[column].head(2000).astype(str)
        longest = max([len(column), *values.str.len().tolist()]) if len(values) else len(column)
        widths[column] = min(max(longest + 2, 6), 45)
    return widths


def write_table(
    ws: Worksheet,
    table: pd.DataFrame,
    bold: Font | None = None,
    widths: dict[str, float] | None = None,
) -> None:
    """Header row, typed rows, frozen header, autofilter and column widths (write-only sheet).

    ``widths``: precomputed (e.g. once for all per-player sheets, which share their columns).
    """
    columns = list(table.columns)
    widths = widths or column_widths(table)
    for i, column in enumerate(columns, start=1):
        ws.column_dimensions[get_column_letter(i)].width = widths[column]
    ws.freeze_panes = "A2"
    header = []
    for column in columns:
        cell = WriteOnlyCell(ws, value=column)
        cell.font = bold or Font(bold=True)
        header.append(cell)
    ws.append(header)
    for record in table.itertuples(index=False, name=None):
        row = []
        for column, text in zip(columns, record, strict=True):
            row.append(_cell(ws, column, text))
        ws.append(row)
    if len(table):
        ws.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{len(table) + 1}"


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


def write_norms_sheet(ws: Worksheet, report: NormReport) -> None:
    """The events' title norms (one row per event, player and title), then the legend of the
    margins and what the event file cannot say."""
    write_table(ws, sheet_table(report))
    ws.append([])
    ws.append(["Margins", LEGEND])
    for note in report.to_confirm:
        ws.append(["To confirm", note])


def save_workbook(wb: Workbook, path: Path) -> None:
    """``wb.save(path)``; if it fails (a full disk), the half-written sheets are closed quietly,
    so only our own clear error reaches the user, not openpyxl's complaints when they are freed."""
    try:
        wb.save(path)
    except BaseException:
        discard_workbook(wb)
        raise


def discard_workbook(wb: Workbook) -> None:
    for ws in wb.worksheets:
        writer = getattr(ws, "_writer", None)
        # The sheet's row generator, then its XML stream: closing them inside an open element
        # makes lxml object; better here, silenced, than later on stderr when they are freed.
        for stream in (getattr(ws, "_rows", None), getattr(writer, "xf", None)):
            if stream is None:
                continue
            try:
                stream.close()
            except Exception:  # noqa: BLE001, S110 - lxml objects to closing an open element
                pass
        out = getattr(writer, "out", None)
        if isinstance(out, str):
            Path(out).unlink(missing_ok=True)


def write_rating_list_xlsx(table: pd.DataFrame, path: Path) -> None:
    wb = Workbook(write_only=True)
    write_table(wb.create_sheet("Rating list"), table)
    save_workbook(wb, path)


def write_report_xlsx(
    summary: pd.DataFrame,
    games: pd.DataFrame,
    path: Path,
    per_player: bool,
    note: str = "",
    norms: NormReport | None = None,
    context: list[str] | None = None,
) -> None:
    """Summary sheet (standings), the events' title norms (if ``norms``), then (if
    ``per_player``) one sheet per player with the game-by-game breakdown and the totals under
    it. ``note`` labels a non-FIDE mode; ``context`` (the period and rule set used, and why)
    goes into the workbook's description."""
    wb = Workbook(write_only=True)
    if context:
        wb.properties.description = "\n".join(context)
    ws = wb.create_sheet("Summary")
    write_table(ws, summary)
    if note:
        ws.append([])
        ws.append([text_cell(ws, f"NOTE: {note}")])
    taken = {"Summary"}
    if norms is not None:
        write_norms_sheet(wb.create_sheet(NORMS_SHEET), norms)
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
        for player_id, name in zip(ids, sheet_names(ids, taken), strict=True):
            if player_id not in bounds:
                continue
            lo, hi = bounds[player_id]
            ws = wb.create_sheet(name)
            totals = records[player_id]
            write_table(ws, body_all.iloc[lo:hi], widths=shared)
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
                ws.append([label, _cell(ws, key, str(totals[key]))])
            if note:
                ws.append(["NOTE", text_cell(ws, note)])
    save_workbook(wb, path)
