"""The workbook writer as it was before issue 35: every cell's XML built one by one, row by row,
each number format given its style when a cell first uses it. Kept as the oracle of
:mod:`pipeline.writers.xlsx.typed_rows` (tests/writers/test_xlsx_typed_rows.py): the columnar
writer must give the same bytes."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.writers.xlsx import package as xlsx_package
from pipeline.writers.xlsx.cell_types import ID_COLUMNS, cell_value
from pipeline.writers.xlsx.package import Book, column_letter, string_cell
from pipeline.writers.xlsx.workbooks import CHART_COLUMNS, PLAYER_TOTALS, new_sheet, sheet_names


def column_widths(table: pd.DataFrame) -> dict[str, float]:
    widths = {}
    for column in table.columns:
        values = table[column].head(2000).astype(str)
        longest = max([len(column), *values.str.len().tolist()]) if len(values) else len(column)
        widths[column] = min(max(longest + 2, 6), 45)
    return widths


def typed_columns(table: pd.DataFrame) -> list[list]:
    return [
        [cell_value(column, text) for text in table[column].tolist()] for column in table.columns
    ]


def write_typed(ws, columns: list[str], cells: list[list], widths: dict[str, float]) -> None:
    first = ws.row
    for j, column in enumerate(columns):
        ws.set_width(j, widths[column])
    ws.append_xml(
        string_cell(f"{column_letter(j)}{first + 1}", column, xlsx_package.BOLD_STYLE)
        for j, column in enumerate(columns)
    )
    ws.freeze_rows(first + 1)
    rows = len(cells[0]) if cells else 0
    for values in zip(*cells, strict=True):
        ws.append(values)
    if rows:
        ws.set_autofilter(first, 0, first + rows, len(columns) - 1)
        for j, column in enumerate(columns):  # ids: text on purpose, one range a column
            if column in ID_COLUMNS:
                letter = column_letter(j)
                ws.ignore_text_ids(f"{letter}{first + 2}:{letter}{first + 1 + rows}")


def write_table(ws, table: pd.DataFrame) -> None:
    write_typed(ws, list(table.columns), typed_columns(table), column_widths(table))


def write_report_xlsx(summary, games, path, note: str = "") -> None:
    """``workbooks.write_report_xlsx`` with per-player sheets, no norms, no About sheet."""
    wb = Book(path)
    ws = new_sheet(wb, "Summary")
    write_table(ws, summary)
    if note:
        ws.append([])
        ws.append([f"NOTE: {note}"])
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
    labels = [
        f"{i} {n}" if n and n != i else i
        for i, n in zip(ids, summary["name"].tolist(), strict=True)
    ]
    for player_id, name in zip(ids, sheet_names(labels, {"Summary"}), strict=True):
        if player_id not in bounds:
            continue
        lo, hi = bounds[player_id]
        ws = new_sheet(wb, name)
        totals = records[player_id]
        write_typed(ws, body_columns, [c[lo:hi] for c in body_cells], shared)
        ws.append([])
        ws.ignore_text_ids(f"B{ws.row + 1}")  # the totals' first row: the player's id
        for label, key in PLAYER_TOTALS:
            ws.append([label, cell_value(key, str(totals[key]))])
        if note:
            ws.append(["NOTE", note])
    wb.save()


def rating_list_both_ways(table: pd.DataFrame) -> tuple[bytes, bytes]:
    """``table`` as a rating list's workbook by the columnar writer and by this oracle."""
    import io

    from pipeline.writers.xlsx.workbooks import write_rating_list_xlsx

    columnar, cell_by_cell = io.BytesIO(), io.BytesIO()
    write_rating_list_xlsx(table, columnar)
    book = Book(cell_by_cell)
    write_table(new_sheet(book, "Rating list"), table)
    book.save()
    return columnar.getvalue(), cell_by_cell.getvalue()
