"""Rows of a frame into SQLite in bulk: a slice of rows at a time, in the table's key order,
many rows per INSERT statement.

Used by the history (``store``) for list rows (1.9 M a list for FIDE's) and the other tables.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import numpy as np
import pandas as pd
import pyarrow as pa

INSERT_CHUNK = 100_000  # rows converted and inserted at a time
ROWS_PER_STATEMENT = 50  # rows in one INSERT ... VALUES (...), (...): 2x faster a row than one
MAX_VARIABLES = 32_766  # SQLite's limit on ? in one statement (3.32 and later)


def _columns(frame: pd.DataFrame, columns: Sequence[str]) -> list[list[object]]:
    """Each column as a list of plain Python values for sqlite3 (<NA> -> NULL)."""
    values = []
    for column in columns:
        series = frame[column]
        if series.dtype == bool:
            values.append(series.astype(np.int64).tolist())
            continue
        try:  # through Arrow: 2.5x faster than pandas' object conversion
            values.append(pa.array(series, from_pandas=True).to_pylist())
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # mixed Python objects
            values.append(series.astype(object).where(series.notna(), None).tolist())
    return values


def _arrow_columns(part: pa.Table) -> list[list[object]]:
    """Each column of an Arrow slice as a list of plain Python values (booleans as 0/1)."""
    return [
        (column.cast(pa.int64()) if pa.types.is_boolean(column.type) else column).to_pylist()
        for column in part.columns
    ]


def _multi_row(into: str, row: str, rows: int) -> str:
    return f"{into} VALUES {', '.join([row] * rows)}"


def _insert_values(
    con: sqlite3.Connection, into: str, row: str, values: list[list[object]], rows: int
) -> None:
    """One slice of rows, given column by column: ``per`` rows a statement through
    ``executemany``, the rest (fewer than ``per``) in one last statement. The values go row
    after row, column by column within a row: the order of the ``?`` in ``row`` repeated (each
    column put in place by one slice assignment: faster than zipping the columns)."""
    width = len(values)
    per = max(1, min(ROWS_PER_STATEMENT, MAX_VARIABLES // max(width, 1)))
    flat: list[object] = [None] * (rows * width)
    for i, column in enumerate(values):
        flat[i::width] = column
    size = per * width
    full = rows // per * size
    if full:
        con.executemany(
            _multi_row(into, row, per), (flat[at : at + size] for at in range(0, full, size))
        )
    if full < len(flat):
        con.execute(_multi_row(into, row, (len(flat) - full) // width), flat[full:])


def insert_chunks(
    con: sqlite3.Connection,
    into: str,
    row: str,
    frame: pd.DataFrame,
    columns: Sequence[str],
    order: np.ndarray | None = None,
) -> None:
    """``frame``'s ``columns`` inserted with ``into`` (``INSERT INTO t (a, b, ...)``), each
    row's values as ``row`` (``(?, ?, ...)``, one ``?`` per column in order; constants allowed).
    A slice of rows at a time: only one slice's Python values exist at once (a 1.9 M-row list
    as Python objects is a gigabyte). ``order``: the rows' positions in the order to insert
    them."""
    for start in range(0, len(frame), INSERT_CHUNK):
        if order is None:
            part = frame.iloc[start : start + INSERT_CHUNK]
        else:
            part = frame.iloc[order[start : start + INSERT_CHUNK]]
        _insert_values(con, into, row, _columns(part, columns), len(part))


def insert_table(con: sqlite3.Connection, into: str, row: str, table: pa.Table) -> None:
    """:func:`insert_chunks` of an Arrow table's columns, in its row order (a list's rows as
    hashed, already in key order: no pandas slices, no second conversion)."""
    for start in range(0, table.num_rows, INSERT_CHUNK):
        part = table.slice(start, INSERT_CHUNK)
        _insert_values(con, into, row, _arrow_columns(part), part.num_rows)


def key_order(ids: pd.Series) -> np.ndarray:
    """The positions of ``ids`` in SQLite's order of TEXT keys (bytes of UTF-8, the code point
    order): rows inserted in key order append to the table's and the index's B-trees instead of
    splitting pages all over them (2.5x faster for a list of mixed-length ids). The order of
    insertion changes nothing a query sees."""
    import pyarrow.compute as pc

    from pipeline.arrays.arrow_text import arrow_text

    return np.asarray(pc.sort_indices(arrow_text(ids)), dtype=np.int64)
