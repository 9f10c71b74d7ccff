"""The win-expectancy table behind ``fiderate table``: for each rating gap, the favourite's expected
score by the formula and by FIDE's table 8.1.2, and what a win, a draw and a loss are worth to each
side at a given K.

Every expectation comes from the engine (``rate_arrays``, on plain arrays: no pandas, so the
command answers at once) on a synthetic pair of players, so the table and the ratings can never
disagree. The table shows table 8.1.2 for the real gap (no
400-point rule) unless ``cap`` is asked for; both players are then below 2650 (the underdog is
rated ``BASE``), so the rule set's cap applies to both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from pipeline.engine.expected import SCALES
from pipeline.engine.rate_sides import rate_arrays
from pipeline.errors import UsageError
from pipeline.rules.sets import get_rules

BASE = 1000  # the underdog's rating in the synthetic games; gaps up to MAX_GAP stay below 2650
MAX_GAP = 1200
RESULTS = (("win", 100), ("draw", 50), ("loss", 0))


class GapRow(NamedTuple):
    gap: int
    e_formula_u: int
    pd_fide_h: int


@dataclass
class ExpectancyTable:
    k: int
    rules: str
    cap: bool
    rows: dict[
        str, np.ndarray
    ]  # gap, e_formula_u, pd_fide_h, and <method>_<side>_<result> in units

    def worth_units(self, method: str, side: str, result: str) -> np.ndarray:
        return np.asarray(self.rows[f"{method}_{side}_{result}"], dtype=np.int64)

    def records(self) -> list[GapRow]:
        """One row per gap (a few dozen: the text and JSON are built from these)."""
        return [
            GapRow(int(g), int(e), int(p))
            for g, e, p in zip(
                self.rows["gap"], self.rows["e_formula_u"], self.rows["pd_fide_h"], strict=True
            )
        ]


def _pairs(gaps: np.ndarray, fav_h: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(own, opponent, played, score_h): the favourite's sides, then the underdog's."""
    n = len(gaps)
    fav = BASE + gaps
    under = np.full(n, BASE, dtype=np.int64)
    return (
        np.concatenate([fav, under]),
        np.concatenate([under, fav]),
        np.ones(2 * n, dtype=bool),
        np.concatenate([np.full(n, fav_h), np.full(n, 100 - fav_h)]).astype(np.int64),
    )


def expectancy_table(
    k: int = 20, step: int = 50, max_gap: int = 800, rules: str = "standard", cap: bool = False
) -> ExpectancyTable:
    if step < 1 or not 0 <= max_gap <= MAX_GAP:
        raise UsageError(f"--step must be at least 1 and --max between 0 and {MAX_GAP}")
    rule_set = get_rules(rules)
    gaps = np.arange(0, max_gap + 1, step, dtype=np.int64)
    n = len(gaps)
    columns: dict[str, np.ndarray] = {"gap": gaps}
    for method in SCALES:
        for result, fav_h in RESULTS:
            rated = rate_arrays(*_pairs(gaps, fav_h), rule_set, method, cap=cap)
            # Every side is rated (both players rated, below any gap rule's 2600).
            dev = rated.dev_units.astype(np.int64)
            if result == "win":
                pd_units = rated.pd_units.astype(np.int64)
                columns["pd_fide_h" if method == "fide" else "e_formula_u"] = pd_units[:n]
            columns[f"{method}_favourite_{result}"] = k * dev[:n]
            # The underdog's result is the opposite one: favourite's win is the underdog's loss.
            opposite = {"win": "loss", "draw": "draw", "loss": "win"}[result]
            columns[f"{method}_underdog_{opposite}"] = k * dev[n:]
    return ExpectancyTable(k, rules, cap, columns)


def formula_gap_for(p: float) -> float:
    """The gap at which the formula expects ``p`` for the favourite (display only)."""
    if not 0 < p < 1:
        raise UsageError(f"an expected score must be strictly between 0 and 1 (got {p})")
    return 400 * math.log10(p / (1 - p))
