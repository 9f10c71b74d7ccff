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


def row_hashes(columns: Sequence[tuple[np.ndarray, int]]) -> np.ndarray:
    """One uint64 per row from its codes, ``columns`` given as (codes, bound): every code of a
    column is in ``0 .. bound - 1``.

    When the product of the bounds is below 2**64 the codes are packed exactly (mixed radix,
    as digits of one number), then mixed: distinct rows get distinct hashes, as :func:`mix64`
    is a bijection. Otherwise each column is folded in and mixed in turn (a hash: rows may
    collide, which the exact comparison of a digest's groups catches)."""
    n = len(columns[0][0]) if columns else 0
    if _fits(columns):
        packed = np.zeros(n, dtype=np.uint64)
        for codes, bound in columns:
            packed *= np.uint64(bound)
            packed += codes.astype(np.uint64, copy=False)
        return mix64(packed)
    folded = np.zeros(n, dtype=np.uint64)
    for i, (codes, _) in enumerate(columns):
        salt = np.uint64(_GOLDEN * (i + 1) & _MASK)  # another constant per column: order counts
        folded = mix64(folded ^ (codes.astype(np.uint64) + salt))
    return folded


def _fits(columns: Sequence[tuple[np.ndarray, int]]) -> bool:
    """Whether the largest packed row, (product of the bounds) - 1, is a 64-bit word."""
    product = 1
    for _, bound in columns:
        product *= max(int(bound), 1)
    return product <= 2**64


def group_digests(
    hashes: np.ndarray, groups: np.ndarray, n_groups: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, sum, xor) of the row ``hashes`` of each group (``groups``: each row's group,
    ``0 .. n_groups - 1``): the same rows in any order give the same three numbers, since
    addition mod 2**64 (uint64 wraps) and xor are commutative and associative."""
    counts = np.bincount(groups, minlength=n_groups)
    sums = np.zeros(n_groups, dtype=np.uint64)
    np.add.at(sums, groups, hashes)
    xors = np.zeros(n_groups, dtype=np.uint64)
    np.bitwise_xor.at(xors, groups, hashes)
    return counts, sums, xors
