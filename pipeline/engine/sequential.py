"""Sequential mode (NOT the FIDE method): the rating is updated after every game.

Some club calculators carry the rating forward game by game. FIDE does not: it rates the whole
period against the rating at its start (RULES.md section 3). This module exists so the two can be
compared; everything it produces is labelled "sequential" by the callers.

Decisions (documented in docs/calculators.md):
- The running rating is kept exactly (integer units of 1/scale); the change is rounded once, at
  the end, .5 away from zero, as in the FIDE method. Nothing is rounded per game.
- The expectation of each game is taken from the running rating as a whole number (rounded .5
  away from zero), because table 8.1.2 is indexed by whole-number differences; the formula uses the
  same whole number so the two methods see the same rating.
- Opponents keep their start ratings (a calculator knows only the ratings you type), and which
  games are rated is decided with the start ratings, as for the FIDE method.
- Games are taken in input order (the order of the rows).

Vectorized across players: one pass per game number (round), never a Python loop over rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.engine import SCALES, rate_sides
from pipeline.rules.rounding import round_half_away
from pipeline.rules.sets import RuleSet

MODES = ("fide", "sequential")
SEQUENTIAL_LABEL = (
    "sequential mode: the rating is updated after every game (club calculators); "
    "NOT the FIDE method, which rates the whole period against the start rating"
)


def sequential_sides(
    rated: pd.DataFrame,
    k_by_player: pd.Series,
    rules: RuleSet,
    method: str,
    cap: bool | None = None,
) -> pd.DataFrame:
    """Re-rate each player's rated games in order against the running rating.

    ``rated`` is the engine's output (schema RatedSides); ``k_by_player`` maps player id to the K
    used for the period. Returns a copy with ``diff, pd_units, dev_units`` recomputed and a column
    ``rating_used`` (the whole-number rating each game's expectation was computed from).
    """
    scale = SCALES[method]
    out = rated.copy()
    is_rated = rated["rated"].to_numpy(dtype=bool)
    codes, _ = pd.factorize(rated["player"])
    start = rated["player_rating"].fillna(0).to_numpy(dtype=np.int64)
    k_side = rated["player"].map(k_by_player).astype("Int64").fillna(0).to_numpy(dtype=np.int64)
    step = np.full(len(rated), -1, dtype=np.int64)
    step[is_rated] = pd.Series(codes[is_rated]).groupby(codes[is_rated]).cumcount().to_numpy()

    delta = np.zeros(codes.max() + 1 if len(codes) else 0, dtype=np.int64)  # running change
    rating_used = start.copy()
    diff = rated["diff"].to_numpy(dtype=np.int64, na_value=0).copy()
    pd_units = rated["pd_units"].to_numpy(dtype=np.int64, na_value=0).copy()
    dev_units = rated["dev_units"].to_numpy(dtype=np.int64, na_value=0).copy()
    for j in range(int(step.max()) + 1 if len(step) else 0):
        pos = np.flatnonzero(step == j)
        who = codes[pos]
        current = start[pos] + round_half_away(delta[who], scale)
        sub = rated.iloc[pos].assign(player_rating=pd.array(current, dtype="Int64"), played=True)
        r = rate_sides(sub, rules, method, cap)
        game_dev = r["dev_units"].to_numpy(dtype=np.int64, na_value=0)
        rating_used[pos] = current
        diff[pos] = r["diff"].to_numpy(dtype=np.int64, na_value=0)
        pd_units[pos] = r["pd_units"].to_numpy(dtype=np.int64, na_value=0)
        dev_units[pos] = game_dev
        delta[who] += k_side[pos] * game_dev  # one side per player per step: no collisions

    mask = ~is_rated
    out["diff"] = pd.arrays.IntegerArray(diff, mask)
    out["pd_units"] = pd.arrays.IntegerArray(pd_units, mask)
    out["dev_units"] = pd.arrays.IntegerArray(dev_units, mask)
    out["rating_used"] = pd.arrays.IntegerArray(
        rating_used, rated["player_rating"].isna().to_numpy()
    )
    return out
