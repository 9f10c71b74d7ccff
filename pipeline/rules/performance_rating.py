"""The FIDE performance rating as a rule (Handbook B.01 1.4.8; RULES.md section 8): Rp = Ra +
dp(p), Ra the opponents' average rounded to a whole number (.5 up), p the fractional score in
hundredths (.005 up), dp from table 8.1.1. One implementation for the event reports
(:mod:`pipeline.grouper.performance`), the title norms (:mod:`pipeline.norms.requirements`) and
the calculator.
"""

from __future__ import annotations

import numpy as np

from pipeline.rules.fide_tables import dp_table
from pipeline.rules.rounding import fraction_hundredths, round_half_up


def fide_performance(
    opponents_sum: np.ndarray, games: np.ndarray, score_h: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(Ra, p in hundredths, Rp) per player; entries with no games are 0 (callers blank them)."""
    n = np.asarray(games, dtype=np.int64)
    safe = np.maximum(n, 1)
    ra = np.where(n > 0, round_half_up(opponents_sum, safe), 0)
    p_h = np.where(n > 0, fraction_hundredths(score_h, safe), 0)
    rp = np.where(n > 0, ra + dp_table().dp(np.clip(p_h, 0, 100)), 0)
    return ra.astype(np.int64), p_h.astype(np.int64), rp.astype(np.int64)
