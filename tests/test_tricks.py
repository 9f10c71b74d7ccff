"""Each speed trick lives in a small named helper whose docstring proves it exact; these tests
hold the helpers to their proofs (against plain, slow computations)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.arrays.arrow_text import arrow_storage, may_contain
from pipeline.arrays.exact_sums import exact_in_float, int_bincount, packed_pair_sums
from pipeline.engine.four_hundred_point_rule import (
    EXEMPT_SHIFT,
    MAX_DIFF,
    lookup_table,
    pd_table,
    table_index,
)
from pipeline.writers.text.csvtext import block_bytes


def _plain_sums(codes, weights, size):
    sums = [0] * size
    for code, weight in zip(codes, weights, strict=True):
        sums[code] += int(weight)
    return sums


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(-(10**6), 10**6)), max_size=60))
def test_int_bincount_is_the_exact_sum(rows):
    codes = np.array([c for c, _ in rows], dtype=np.int64)
    weights = np.array([w for _, w in rows], dtype=np.int64)
    assert int_bincount(codes, weights, 5).tolist() == _plain_sums(codes, weights, 5)


def test_int_bincount_falls_back_to_integers_beyond_float_precision():
    # 2**60 + 1 is not a float: a float sum would lose the 1.
    codes = np.array([0, 0, 1])
    weights = np.array([2**60, 1, -(2**60) - 3], dtype=np.int64)
    assert not exact_in_float(2**60 * 3)
    assert int_bincount(codes, weights, 2).tolist() == [2**60 + 1, -(2**60) - 3]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 100), st.integers(-5000, 5000)), max_size=50
    )
)
def test_packed_pair_sums_equal_the_two_sums(rows):
    codes = np.array([c for c, _, _ in rows], dtype=np.int64)
    high = np.array([h for _, h, _ in rows], dtype=np.int64)
    low = np.array([lo for _, _, lo in rows], dtype=np.int64)
    # The bound the caller proves: |sum of low| per code < 2**(low_bits - 1).
    low_bits = int(2 * 5000 * max(len(rows), 1) + 1).bit_length()
    high_sum, low_sum = packed_pair_sums(codes, high, low, 4, low_bits)
    assert high_sum.tolist() == _plain_sums(codes, high, 4)
    assert low_sum.tolist() == _plain_sums(codes, low, 4)


def test_table_index_reads_the_exempt_table_for_exempt_sides():
    own = np.array([2700, 2649, 2650, 0, 3500, 1000], dtype=np.int64)
    opp = np.array([2000, 2000, 3500, 3500, 0, 1000], dtype=np.int64)
    index = table_index(own, opp, 2650)
    table = lookup_table("fide", 400, 2650)
    assert len(table) == 2 * EXEMPT_SHIFT
    exempt = own >= 2650
    assert ((index >= EXEMPT_SHIFT) == exempt).all()
    assert index.min() >= 0 and index.max() < len(table)
    diff = own - opp
    capped, uncapped = pd_table("fide", 400, False), pd_table("fide", 400, True)
    expected = np.where(exempt, uncapped[diff + MAX_DIFF], capped[diff + MAX_DIFF])
    assert (table[index] == expected).all()


def test_arrow_storage_is_pandas_own_array():
    series = pd.Series(["a", None, "c"], dtype="str")
    storage = arrow_storage(series.array)
    assert isinstance(storage, pa.ChunkedArray)
    assert storage.to_pylist() == ["a", None, "c"]
    # No copy: the very buffers pandas holds.
    again = arrow_storage(series.array)
    assert storage.chunk(0).buffers()[2].address == again.chunk(0).buffers()[2].address


def test_quote_scan_sees_the_three_characters_and_nothing_else():
    quotes = b',"\n'
    assert not may_contain(pa.array(["Müller", "Åström", "1-0", "½"]), quotes)
    assert not may_contain(pa.array([], type=pa.string()), quotes)
    assert not may_contain(pa.chunked_array([["a"], [None]]), quotes)
    for cell in ("a,b", 'say "x"', "two\nlines", "é,"):
        assert may_contain(pa.array(["plain", cell]), quotes)
        # In any chunk, not only the first.
        assert may_contain(pa.chunked_array([["plain"], [cell]]), quotes)


def test_block_bytes_of_a_slice_are_its_cells():
    lines = pa.array(["a,b\n", "ü\n", "", "last\n"])
    for kind in (pa.string(), pa.large_string()):
        typed = lines.cast(kind)
        assert bytes(block_bytes(typed)) == "".join(lines.to_pylist()).encode()
        assert bytes(block_bytes(typed.slice(1, 2))) == "ü\n".encode()
