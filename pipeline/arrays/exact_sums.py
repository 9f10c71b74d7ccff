"""Exact integer sums per group through ``np.bincount`` (which adds in float64).

Each trick lives in a small helper with the proof that it is exact; the grouper calls them.
"""

from __future__ import annotations

import numpy as np

# Every integer of magnitude up to 2**53 is a float64, so float sums stay exact below it.
FLOAT_EXACT_BITS = 53


def exact_in_float(bound: int) -> bool:
    """True when a sum whose every partial sum is at most ``bound`` in magnitude is exact in
    float64: integers up to 2**53 are floats, and adding two such floats whose exact sum is
    again such an integer gives that sum exactly (IEEE 754 rounds only inexact results)."""
    return bound < 1 << FLOAT_EXACT_BITS


def int_bincount(codes: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """Per code in ``0..size-1``, the exact int64 sum of ``weights`` (integers).

    Proof: every partial sum np.bincount forms is at most max|w| x len(w) in magnitude; when
    that bound passes :func:`exact_in_float`, each float addition is exact and so is the cast
    back. Otherwise the sums are taken in int64 by ``np.add.at`` (slower, exact).
    """
    weights = np.asarray(weights, dtype=np.int64)
    bound = int(np.abs(weights).max()) * len(weights) if len(weights) else 0
    if exact_in_float(bound):
        return np.bincount(codes, weights=weights, minlength=size)[:size].astype(np.int64)
    sums = np.zeros(size, dtype=np.int64)
    np.add.at(sums, codes, weights)
    return sums


def packed_pair_sums(
    codes: np.ndarray, high: np.ndarray, low: np.ndarray, size: int, low_bits: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per code, the sums of ``high`` (>= 0) and of ``low`` (signed) in one np.bincount pass.

    Each row is packed as high x 2**low_bits + low. The caller proves the bounds: every
    per-code |sum of low| < 2**(low_bits - 1) and every packed partial sum is below 2**52, so
    (:func:`exact_in_float`) the float sum is the exact integer H x 2**low_bits + L. Then
    H = floor((total + 2**(low_bits - 1)) / 2**low_bits), because
    |L| < 2**(low_bits - 1) puts total + 2**(low_bits - 1) in [H x 2**low_bits, (H + 1) x
    2**low_bits); and L = total - H x 2**low_bits.
    """
    weight = np.multiply(high, float(1 << low_bits), dtype=np.float64)
    weight += low
    total = np.bincount(codes, weights=weight, minlength=size)[:size].astype(np.int64)
    high_sum = (total + (1 << (low_bits - 1))) >> low_bits
    return high_sum, total - (high_sum << low_bits)
