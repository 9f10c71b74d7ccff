"""List rows go into the history in SQLite's key order (issue 13: sequential B-tree inserts);
that order is Python's order of the id strings, which is SQLite's BINARY order of their UTF-8."""

from __future__ import annotations

import sqlite3

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.history.store import key_order

ids = st.lists(
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=8)
    | st.integers(0, 10**9).map(str),
    unique=True,
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(ids)
def test_key_order_is_sqlites_order(values):
    order = key_order(pd.Series(values, dtype=str)).tolist()
    assert [values[i] for i in order] == sorted(values)
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE t (id TEXT PRIMARY KEY) WITHOUT ROWID")
    con.executemany("INSERT INTO t VALUES (?)", [(v,) for v in values])
    assert [r[0] for r in con.execute("SELECT id FROM t")] == sorted(values)
