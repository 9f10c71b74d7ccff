"""Months as numbers, over a whole column at once (computed per distinct text, then taken)."""

from __future__ import annotations

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from pipeline.rules.months import month_index, month_indexes

PERIODS = st.one_of(
    st.builds(lambda y, m: f"{y:04d}-{m:02d}", st.integers(1900, 2200), st.integers(1, 12)),
    st.sampled_from(["", "2026-1", "26-11", "x", "2026-11-01"]),
    st.none(),
)


@given(st.lists(PERIODS, max_size=40))
def test_month_indexes_is_month_index_cell_by_cell(cells):
    got = month_indexes(pd.Series(cells, dtype=object))
    expected = [
        month_index(c) if c is not None and len(c) == 7 and c[4] == "-" else -1 for c in cells
    ]
    assert got.tolist() == expected
    assert got.dtype == "int64"
