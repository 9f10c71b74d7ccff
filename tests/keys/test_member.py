"""``keys.frame_lookup.member`` (issue 13: Arrow's is_in for text) answers as the pandas hash
look-up it replaced, blanks and missing values included, for Series and Index alike."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.keys.frame_lookup import member

cell = st.none() | st.sampled_from(["", "1", "01", "10", "a", "A", "é", " 1"]) | st.text(max_size=3)


def reference(values: list, universe: list) -> np.ndarray:
    index = pd.Index(pd.array(universe, dtype=str)).drop_duplicates()
    return index.get_indexer(pd.Index(pd.array(values, dtype=str))) >= 0


@settings(max_examples=200, deadline=None)
@given(st.lists(cell, max_size=20), st.lists(cell, max_size=20), st.booleans())
def test_member_matches_the_index_lookup(values, universe, as_index):
    wrap = pd.Index if as_index else pd.Series
    got = member(wrap(pd.array(values, dtype=str)), wrap(pd.array(universe, dtype=str)))
    assert got.dtype == bool
    assert got.tolist() == reference(values, universe).tolist()
