"""The one rounding rule of the project: to the nearest whole, .5 away from zero, on integers.

Rating changes are carried as exact integers in units of 1/scale (hundredths for the FIDE table).
Python's ``round`` and numpy's ``round`` go half to even and binary floats cannot hold 0.45, so
neither is used anywhere for a rating change.
"""

from __future__ import annotations

import numpy as np


def round_half_away(units: np.ndarray | int, scale: int) -> np.ndarray:
    """``units / scale`` rounded to an integer, halves away from zero (exact for integers)."""
    u = np.asarray(units, dtype=np.int64)
    magnitude = (np.abs(u) * 2 + scale) // (2 * scale)
    return np.sign(u) * magnitude


def rescale_half_away(units: np.ndarray | int, scale: int, to_scale: int) -> np.ndarray:
    """Re-express exact ``units / scale`` in units of ``1/to_scale``, halves away from zero."""
    u = np.asarray(units, dtype=np.int64) * to_scale
    magnitude = (np.abs(u) * 2 + scale) // (2 * scale)
    return np.sign(u) * magnitude


def round_half_up(numerator: np.ndarray | int, denominator: np.ndarray | int) -> np.ndarray:
    """``numerator / denominator`` (denominator > 0) rounded, .5 up: the first-rating decisions."""
    n = np.asarray(numerator, dtype=np.int64)
    d = np.asarray(denominator, dtype=np.int64)
    return (2 * n + d) // (2 * d)


def fraction_hundredths(points_h: np.ndarray | int, games: np.ndarray | int) -> np.ndarray:
    """A fractional score p = points / games in hundredths, .005 rounding up (RULES.md 7 and 8).

    ``points_h`` is the score in hundredths of a point (a win is 100). Shared by the first-rating
    and performance calculations, which both look p up in table 8.1.1.
    """
    return round_half_up(points_h, games)
