"""``arrays.arrow_text.duplicated_text`` (issue 13: the players' duplicate-id check through Arrow's
hash kernel) marks the same rows as pandas' ``duplicated(keep="first")``."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.arrays.arrow_text import duplicated_text

cell = st.sampled_from(["", "1", "01", "10", "a", "A", "é", " 1"]) | st.text(max_size=3)


@settings(max_examples=200, deadline=None)
@given(st.lists(cell, max_size=30))
def test_duplicated_text_matches_pandas(values):
    series = pd.Series(pd.array(values, dtype=str))
    got = duplicated_text(series)
    assert got.dtype == bool
    assert got.tolist() == series.duplicated(keep="first").tolist()


def test_a_repeat_after_many_values_is_marked():
    series = pd.Series(["b", "a", "c", "a", "b", "d"], dtype=str)
    assert duplicated_text(series).tolist() == [False, False, False, True, True, False]
