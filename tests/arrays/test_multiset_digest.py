"""The helpers of the duplicate-event fingerprints (``arrays.multiset_digest``, and
``arrays.order.first_alike``) held to their docstrings' proofs, against plain computations."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.arrays.multiset_digest import group_digests, mix64, packed_rows, row_hashes
from pipeline.arrays.order import first_alike

SMALL = settings(max_examples=150, deadline=None)
rows = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 6), st.integers(0, 2)), max_size=40)
BOUNDS = (5, 7, 3)


def _columns(values: list[tuple[int, int, int]]) -> list[tuple[np.ndarray, int]]:
    arrays = np.array(values, dtype=np.int64).reshape(-1, 3)
    return [(arrays[:, c], BOUNDS[c]) for c in range(3)]


@SMALL
@given(rows)
def test_packed_rows_are_equal_and_ordered_as_the_rows(values):
    ((packed, bound),) = packed_rows(_columns(values))
    assert bound == 5 * 7 * 3
    for (i, a), (j, b) in zip(enumerate(values), list(enumerate(values))[1:], strict=False):
        assert (packed[i] == packed[j]) == (a == b)
        assert (packed[i] < packed[j]) == (a < b)


def test_rows_too_wide_for_a_word_are_left_as_columns():
    wide = [(np.array([1, 2]), 2**40), (np.array([3, 4]), 2**40)]
    assert len(packed_rows(wide)) == 2
    hashes = row_hashes(wide)
    assert hashes.dtype == np.uint64 and hashes[0] != hashes[1]
    swapped = [(np.array([3, 4]), 2**40), (np.array([1, 2]), 2**40)]
    assert (row_hashes(swapped) != hashes).all()  # the columns' order counts


@SMALL
@given(rows)
def test_distinct_rows_get_distinct_hashes(values):
    hashes = row_hashes(_columns(values)).tolist()
    assert len(set(hashes)) == len(set(values))


def test_mix64_is_one_to_one_on_a_dense_block_and_its_neighbours():
    block = np.arange(2**16, dtype=np.uint64)
    block = np.concatenate([block, block + np.uint64(2**63), ~block])
    assert len(np.unique(mix64(block))) == len(block)


@SMALL
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2**64 - 1)), max_size=40), st.randoms())
def test_group_digests_are_the_plain_sums_whatever_the_order(pairs, rng):
    n_groups = 6
    for order in (sorted(pairs), pairs, rng.sample(pairs, len(pairs))):  # together or scattered
        groups = np.array([g for g, _ in order], dtype=np.int64)
        hashes = np.array([h for _, h in order], dtype=np.uint64)
        counts, sums, xors = group_digests(hashes, groups, n_groups)
        for g in range(n_groups):
            mine = [h for k, h in pairs if k == g]
            assert counts[g] == len(mine)
            assert int(sums[g]) == sum(mine) % 2**64
            xor = 0
            for h in mine:
                xor ^= h
            assert int(xors[g]) == xor


@SMALL
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), max_size=40))
def test_first_alike_is_the_first_row_with_the_same_values(values):
    arrays = np.array(values, dtype=np.int64).reshape(-1, 2)
    first = first_alike([arrays[:, 0], arrays[:, 1].astype(np.uint64)])
    assert first.tolist() == [values.index(v) for v in values]


def test_first_alike_of_no_rows():
    assert first_alike([np.zeros(0, dtype=np.int64)]).tolist() == []
