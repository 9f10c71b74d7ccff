"""games.csv's writer (``write_coded_csv``): columns as codes into distinct texts, lines made
block by block in the file's order. Held to pandas' ``to_csv`` of the same rows in that order."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

import pipeline.writers.text.csvtext as csvtext
from pipeline.arrays.coded_text import CodedText, coded_ints
from pipeline.arrays.number_text import int_arrow

CELLS = ["a", 'q"x', "c,d", "é", "", "line\nbreak", "12", "x\ry"]


def _column(texts: list[str], codes: list[int], coded: bool) -> CodedText:
    if coded:
        return CodedText(pa.array(texts, pa.string()), pa.array(codes, pa.int64()))
    return CodedText(pa.array([texts[c] for c in codes], pa.string()))


@settings(max_examples=80, deadline=None)
@given(
    st.integers(2, 4),
    st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(0, 7)), max_size=40),
    st.lists(st.booleans(), min_size=3, max_size=3),
    st.integers(1, 7),
    st.randoms(use_true_random=False),
)
def test_coded_lines_in_order_are_pandas_lines_of_the_rows_in_order(
    tmp_path_factory, n_columns, rows, coded, block, rnd
):
    # Blocks of a few rows (so a table spans several, on threads) and any order of the rows.
    csvtext.ROWS_PER_BLOCK, saved = block, csvtext.ROWS_PER_BLOCK
    try:
        names = ["p", "q", "r"][: min(n_columns, 3)]
        columns = [_column(CELLS, [row[i] for row in rows], coded[i]) for i in range(len(names))]
        order = np.array(rnd.sample(range(len(rows)), len(rows)), dtype=np.int64)
        path = tmp_path_factory.mktemp("coded") / "t.csv"
        csvtext.write_coded_csv(names, columns, path, order)
    finally:
        csvtext.ROWS_PER_BLOCK = saved
    frame = pd.DataFrame(
        {name: [CELLS[rows[r][i]] for r in order] for i, name in enumerate(names)}, dtype=str
    )
    expected = io.StringIO()
    frame.to_csv(expected, index=False, lineterminator="\n")
    assert path.read_bytes() == expected.getvalue().encode("utf-8")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-(10**6), 10**6)), max_size=30))
def test_coded_ints_are_each_cells_digits_or_blank(values):
    # Small ranges are formatted once and taken by code, wide ones cell by cell: the text is
    # str(value) either way, blank for <NA>.
    filled = np.array([v or 0 for v in values], dtype=np.int64)
    missing = np.array([v is None for v in values], dtype=bool)
    coded = coded_ints(filled, missing, lambda r: pa.array([str(v) for v in r], pa.string()))
    expected = ["" if v is None else str(v) for v in values]
    assert coded.full().to_pylist() == expected
    assert int_arrow(pd.Series(values, dtype="Int64")).to_pylist() == expected
    order = np.arange(len(values))[::-1]
    assert coded.rows(pa.array(order)).to_pylist() == expected[::-1]
