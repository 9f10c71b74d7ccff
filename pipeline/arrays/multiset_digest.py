"""Order-free digests of groups of rows: one 64-bit hash per row from its integer codes, summed
and xor-ed per group, so the same rows in any order give the same digest (the duplicate-event
check fingerprints every event of a million-game file with a few numpy passes).

A digest only proposes: two groups with one digest may still differ (a 64-bit collision), so
a caller that must be exact compares the rows of such groups before it trusts them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

_MASK = 2**64 - 1
_GOLDEN = 0x9E3779B97F4A7C15  # 2**64 / golden ratio, odd


def mix64(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser on uint64 (a new array): spreads every input bit over the word.

    A bijection of the 64-bit words: xor with a right shift of itself is undone by repeating
    the shift-xor, and multiplication by an odd constant is invertible mod 2**64 (numpy's
    uint64 products wrap mod 2**64). So distinct inputs give distinct outputs."""
    x = x ^ (x >> np.uint64(30))
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


def packed_rows(columns: Sequence[tuple[np.ndarray, int]]) -> list[tuple[np.ndarray, int]]:
    """The rows' codes as one uint64 column, (packed, bound), when they fit one word; else the
    columns as given. ``columns``: (codes, bound), every code of a column in ``0 .. bound - 1``.

    Packed as the digits of one number (mixed radix, the first column most significant): when
    the product of the bounds is at most 2**64 every packed value is a word (no wrap), equal
    values are equal rows, and the values sort as the rows do, column after column."""
    product = 1
    for _, bound in columns:
        product *= max(int(bound), 1)
    if len(columns) < 2 or product > 2**64:
        return list(columns)
    packed = np.zeros(len(columns[0][0]), dtype=np.uint64)
    for codes, bound in columns:
        packed *= np.uint64(max(int(bound), 1))
        packed += codes.astype(np.uint64, copy=False)
    return [(packed, product)]


def row_hashes(columns: Sequence[tuple[np.ndarray, int]]) -> np.ndarray:
    """One uint64 per row from its codes, ``columns`` given as (codes, bound).

    When the rows pack into one word (:func:`packed_rows`), the hash is the packed value mixed:
    distinct rows get distinct hashes, as :func:`mix64` is a bijection. Otherwise each column
    is folded in and mixed in turn (a hash: rows may collide, which the exact comparison of a
    digest's groups catches)."""
    columns = packed_rows(columns)
    if len(columns) == 1:
        return mix64(columns[0][0].astype(np.uint64, copy=False))
    folded = np.zeros(len(columns[0][0]) if columns else 0, dtype=np.uint64)
    for i, (codes, _) in enumerate(columns):
        salt = np.uint64(_GOLDEN * (i + 1) & _MASK)  # another constant per column: order counts
        folded = mix64(folded ^ (codes.astype(np.uint64) + salt))
    return folded


def group_digests(
    hashes: np.ndarray, groups: np.ndarray, n_groups: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, sum, xor) of the row ``hashes`` of each group (``groups``: each row's group,
    ``0 .. n_groups - 1``): the same rows in any order give the same three numbers, since
    addition mod 2**64 (uint64 wraps) and xor are commutative and associative."""
    counts = np.bincount(groups, minlength=n_groups)
    if len(groups) and n_groups and (groups[1:] >= groups[:-1]).all() and counts.all():
        # Each group's rows together, groups in order (a file's events one after another):
        # sums and xors of consecutive runs, without the scattered writes of ``ufunc.at``.
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        return counts, np.add.reduceat(hashes, starts), np.bitwise_xor.reduceat(hashes, starts)
    sums = np.zeros(n_groups, dtype=np.uint64)
    np.add.at(sums, groups, hashes)
    xors = np.zeros(n_groups, dtype=np.uint64)
    np.bitwise_xor.at(xors, groups, hashes)
    return counts, sums, xors
