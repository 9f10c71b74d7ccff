"""Many rows per INSERT statement (issue 13): every row arrives once, its values in their own
columns, whatever the number of rows (a multiple of the rows per statement or not, fewer than
one statement's worth, more than one slice) and with NULLs and constants in the row template."""

from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.history import bulk_insert
from pipeline.history.bulk_insert import insert_chunks


def _table(rows: list[tuple[str, int | None, bool]]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": pd.Series([r[0] for r in rows], dtype=str),
            "rating": pd.array([r[1] for r in rows], dtype="Int64"),
            "flag": pd.Series([r[2] for r in rows], dtype=bool),
        }
    )


rows_strategy = st.lists(
    st.tuples(st.text(max_size=6), st.none() | st.integers(-(2**40), 2**40), st.booleans()),
    max_size=260,
)


@settings(max_examples=60, deadline=None)
@given(rows_strategy, st.integers(1, 7), st.booleans())
def test_every_row_arrives_once_in_its_columns(rows, chunk, ordered):
    frame = _table(rows)
    order = np.arange(len(frame))[::-1].copy() if ordered else None
    con = sqlite3.connect(":memory:")
    con.execute(
        "CREATE TABLE t (seq INTEGER PRIMARY KEY, tag INTEGER, id TEXT, rating INTEGER, "
        "flag INTEGER)"
    )
    saved = bulk_insert.INSERT_CHUNK
    bulk_insert.INSERT_CHUNK = chunk * 37  # slices that are not multiples of a statement
    try:
        insert_chunks(
            con,
            "INSERT INTO t (tag, id, rating, flag)",
            "(7, ?, ?, ?)",
            frame,
            ["id", "rating", "flag"],
            order,
        )
    finally:
        bulk_insert.INSERT_CHUNK = saved
    got = con.execute("SELECT tag, id, rating, flag FROM t ORDER BY seq").fetchall()
    expected = [(7, r[0], r[1], int(r[2])) for r in rows]
    assert got == (expected[::-1] if ordered else expected)


def test_wide_rows_stay_under_sqlites_variable_limit():
    columns = [f"c{i}" for i in range(1000)]  # 50 rows x 1000 columns would be 50,000 ?s
    frame = pd.DataFrame({c: np.arange(120) + i for i, c in enumerate(columns)})
    con = sqlite3.connect(":memory:")
    con.execute(f"CREATE TABLE w ({', '.join(columns)})")
    insert_chunks(
        con,
        f"INSERT INTO w ({', '.join(columns)})",
        f"({', '.join('?' for _ in columns)})",
        frame,
        columns,
    )
    assert con.execute("SELECT count(*), sum(c0), sum(c999) FROM w").fetchone() == (
        120,
        sum(range(120)),
        sum(range(120)) + 999 * 120,
    )
