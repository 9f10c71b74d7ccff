"""per_distinct: a function of each row's values, called once per distinct combination."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.arrays.distinct_values import per_distinct

rows = st.lists(
    st.tuples(
        st.sampled_from(["met", "missed", "waived", "n/a"]),
        st.one_of(st.none(), st.integers(-5, 5).map(lambda n: n / 4)),
        st.text(alphabet="ab<&\"'", max_size=3),
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(rows=rows)
def test_every_row_gets_the_function_of_its_own_values(rows):
    status = pd.Series([r[0] for r in rows], dtype="category")
    margin = pd.Series([r[1] for r in rows], dtype=float)
    text = pd.Series([r[2] for r in rows], dtype=str)
    seen = []

    def show(*values):
        seen.append(values)
        return repr(values)

    got = per_distinct(show, status, margin, text)
    assert got.dtype == object and len(got) == len(rows)
    assert got.tolist() == [show(s, m, t) for s, m, t in zip(status, margin, text, strict=True)]
    # Called once per distinct combination (NaN margins alike), before the check's own calls.
    triples = zip(status, margin, text, strict=True)
    distinct = {(s, "nan" if np.isnan(m) else m, t) for s, m, t in triples}
    assert len(seen) == len(distinct) + len(rows)


def test_no_rows():
    assert per_distinct(str, pd.Series([], dtype=str)).tolist() == []
