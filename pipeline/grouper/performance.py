"""Performance rating (RULES.md section 8).

FIDE: Rp = Ra + dp(p). Ra is the opponents' average rounded to a whole number (.5 up), p the
fractional score rounded to two decimals (.005 up,
``pipeline.rules.rounding.fraction_hundredths``), and dp comes from table 8.1.1 (so 100% gives
+800 and 0% gives -800).

The linear approximation many calculators show, TPR = average + 400 x (2p - 1), is computed
exactly (as a fraction) and always labelled an approximation.

Vectorized: the event reports compute every player's performance in one call.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from pipeline.arrays.exact_sums import int_bincount
from pipeline.errors import UsageError
from pipeline.rules.performance_rating import fide_performance
from pipeline.rules.rounding import round_half_up

if TYPE_CHECKING:  # the calculator's `performance` runs without pandas (fast start-up)
    import pandas as pd

LINEAR_LABEL = "linear approximation (not FIDE): average + 400 x (2p - 1)"


def event_performance(sides: pd.DataFrame, totals: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``totals``: points over every game (forfeits included, in hundredths) and the
    FIDE performance over the rated games (0 where there are none: callers blank it)."""
    from pipeline.keys.frame_lookup import positions

    codes = positions(sides["player"], totals["id"])
    size = len(totals)
    rated = sides["rated"].to_numpy(dtype=bool)
    points_h = int_bincount(codes, sides["score_h"].to_numpy(dtype=np.int64), size)
    opponents = sides["opponent_rating"].to_numpy(dtype=np.int64, na_value=0)
    opponents_sum = int_bincount(codes[rated], opponents[rated], size)
    games = totals["games"].to_numpy(dtype=np.int64)
    _, _, rp = fide_performance(opponents_sum, games, totals["score_h"].to_numpy(dtype=np.int64))
    return points_h, rp


@dataclass(frozen=True)
class Performance:
    games: int
    score_h: int  # hundredths of a point
    opponents_sum: int
    ra: int  # average rounded .5 up
    p_h: int  # p in hundredths, .005 up
    dp: int
    rp: int  # FIDE performance
    linear: Fraction  # the approximation, exact

    @property
    def average(self) -> Fraction:
        return Fraction(self.opponents_sum, self.games)

    @property
    def linear_rounded(self) -> int:
        return int(round_half_up(self.linear.numerator, self.linear.denominator))


def performance(opponents: list[int], score_h: int) -> Performance:
    """Performance from the opponents' ratings and the score (hundredths of a point)."""
    n = len(opponents)
    if n == 0:
        raise UsageError("a performance needs at least one opponent (--opponents or --vs)")
    bad = [r for r in opponents if not 1 <= r <= 3500]
    if bad:
        raise UsageError(f"opponent ratings must be whole numbers in 1..3500 (got {bad[0]!r})")
    if score_h % 50 or not 0 <= score_h <= 100 * n:
        raise UsageError(
            f"the score must be a multiple of 0.5 between 0 and {n} for {n} games "
            f"(got {score_h / 100:g})"
        )
    total = sum(opponents)
    ra, p_h, rp = (
        int(v[0]) for v in fide_performance(np.array([total]), np.array([n]), np.array([score_h]))
    )
    linear = Fraction(total, n) + 400 * (2 * Fraction(score_h, 100 * n) - 1)
    return Performance(n, score_h, total, ra, p_h, rp - ra, rp, linear)
