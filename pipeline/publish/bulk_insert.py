"""Rows of a frame into SQLite in bulk: a slice of rows at a time, in the table's key order.

Used by the history (``store``) for list rows (1.9 M a list for FIDE's) and the other tables.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import numpy as np
import pandas as pd
import pyarrow as pa

INSERT_CHUNK = 100_000  # rows converted and inserted at a time


def _records(frame: pd.DataFrame, columns: Sequence[str]) -> list[tuple[object, ...]]:
    """Rows as tuples of plain Python values for sqlite3 (<NA> -> NULL), column by column."""
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
    return list(zip(*values, strict=True))


def insert_chunks(
    con: sqlite3.Connection,
    statement: str,
    frame: pd.DataFrame,
    columns: Sequence[str],
    order: np.ndarray | None = None,
) -> None:
    """``executemany`` a slice of rows at a time: only one slice's Python tuples exist at once
    (a 1.9 M-row list as tuples is a gigabyte). ``order``: the rows' positions in the order to
    insert them."""
    for start in range(0, len(frame), INSERT_CHUNK):
        if order is None:
            part = frame.iloc[start : start + INSERT_CHUNK]
        else:
            part = frame.iloc[order[start : start + INSERT_CHUNK]]
        con.executemany(statement, _records(part, columns))


def key_order(ids: pd.Series) -> np.ndarray:
    """The positions of ``ids`` in SQLite's order of TEXT keys (bytes of UTF-8, the code point
    order): rows inserted in key order append to the table's and the index's B-trees instead of
    splitting pages all over them (2.5x faster for a list of mixed-length ids). The order of
    insertion changes nothing a query sees."""
    import pyarrow.compute as pc

    from pipeline.columnar.arrow import arrow_text

    return np.asarray(pc.sort_indices(arrow_text(ids)), dtype=np.int64)
