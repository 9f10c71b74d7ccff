"""The win-expectancy table behind ``fiderate table``: for each rating gap, the favourite's expected
score by the formula and by FIDE's table 8.1.2, and what a win, a draw and a loss are worth to each
side at a given K.

Every expectation comes from the engine (``rate_sides``) on a synthetic pair of players, so the
table and the ratings can never disagree. The table shows table 8.1.2 for the real gap (no
400-point rule) unless ``cap`` is asked for; both players are then below 2650 (the underdog is
rated ``BASE``), so the rule set's cap applies to both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pipeline.engine import SCALES, rate_sides
from pipeline.errors import RunError
from pipeline.rules.sets import get_rules

BASE = 1000  # the underdog's rating in the synthetic games; gaps up to MAX_GAP stay below 2650
MAX_GAP = 1200
RESULTS = (("win", 100), ("draw", 50), ("loss", 0))


@dataclass
class ExpectancyTable:
    k: int
    rules: str
    cap: bool
    rows: pd.DataFrame  # gap, e_formula_u, pd_fide_h, and <method>_<side>_<result> in units

    def worth_units(self, method: str, side: str, result: str) -> np.ndarray:
        return self.rows[f"{method}_{side}_{result}"].to_numpy(dtype=np.int64)


def _pairs(gaps: np.ndarray, fav_h: int) -> pd.DataFrame:
    n = len(gaps)
    fav = BASE + gaps
    under = np.full(n, BASE, dtype=np.int64)
    return pd.DataFrame(
        {
            "player_rating": pd.array(np.concatenate([fav, under]), dtype="Int64"),
            "opponent_rating": pd.array(np.concatenate([under, fav]), dtype="Int64"),
            "played": np.ones(2 * n, dtype=bool),
            "score_h": np.concatenate([np.full(n, fav_h), np.full(n, 100 - fav_h)]).astype(
                np.int64
            ),
        }
    )


def expectancy_table(
    k: int = 20, step: int = 50, max_gap: int = 800, rules: str = "standard", cap: bool = False
) -> ExpectancyTable:
    if step < 1 or not 0 <= max_gap <= MAX_GAP:
        raise RunError(f"--step must be at least 1 and --max between 0 and {MAX_GAP}")
    rule_set = get_rules(rules)
    gaps = np.arange(0, max_gap + 1, step, dtype=np.int64)
    n = len(gaps)
    columns: dict[str, np.ndarray] = {"gap": gaps}
    for method in SCALES:
        for result, fav_h in RESULTS:
            rated = rate_sides(_pairs(gaps, fav_h), rule_set, method, cap=cap)
            dev = rated["dev_units"].to_numpy(dtype=np.int64)
            if result == "win":
                pd_units = rated["pd_units"].to_numpy(dtype=np.int64)
                columns["pd_fide_h" if method == "fide" else "e_formula_u"] = pd_units[:n]
            columns[f"{method}_favourite_{result}"] = k * dev[:n]
            # The underdog's result is the opposite one: favourite's win is the underdog's loss.
            opposite = {"win": "loss", "draw": "draw", "loss": "win"}[result]
            columns[f"{method}_underdog_{opposite}"] = k * dev[n:]
    return ExpectancyTable(k, rules, cap, pd.DataFrame(columns))


def formula_gap_for(p: float) -> float:
    """The gap at which the formula expects ``p`` for the favourite (display only)."""
    if not 0 < p < 1:
        raise RunError(f"an expected score must be strictly between 0 and 1 (got {p})")
    return 400 * math.log10(p / (1 - p))
