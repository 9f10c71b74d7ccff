"""``stable_order`` is numpy's stable argsort, whatever the size of the keys; ``has_repeats``
is the plain question whether two keys are equal."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.arrays.order import has_repeats, stable_order

KEYS = st.one_of(st.integers(0, 2**16 - 1), st.integers(0, 2**32 - 1), st.integers(-(2**40), 2**40))


@settings(max_examples=200, deadline=None)
@given(st.lists(KEYS, max_size=60), st.integers(0, 3))
def test_stable_order_is_the_stable_argsort(keys, repeat):
    values = np.array(keys * (repeat + 1), dtype=np.int64)  # repeats: ties keep their order
    assert stable_order(values).tolist() == np.argsort(values, kind="stable").tolist()


def test_keys_sharing_their_low_digits_sort_by_the_high_ones():
    values = np.array([3 * 2**16 + 5, 5, 2**16 + 5, 5, 2**32 - 1], dtype=np.int64)
    assert stable_order(values).tolist() == [1, 3, 2, 0, 4]


@settings(max_examples=200, deadline=None)
@given(st.lists(KEYS, max_size=40))
def test_has_repeats_is_whether_two_keys_are_equal(keys):
    assert has_repeats(np.array(keys, dtype=np.int64)) == (len(set(keys)) < len(keys))
