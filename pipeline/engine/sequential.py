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

from typing import TYPE_CHECKING

import numpy as np

from pipeline.engine import SCALES
from pipeline.engine.rate_sides import rate_arrays
from pipeline.rules.rounding import round_half_away
from pipeline.rules.sets import RuleSet

if TYPE_CHECKING:  # imported where a frame is built: the calculator runs on arrays alone
    import pandas as pd


def sequential_sides(
    rated: pd.DataFrame,
    k_by_player: pd.Series,
    rules: RuleSet,
    method: str,
    cap: bool | None = None,
) -> pd.DataFrame:
    """Re-rate each player's rated games in order against the running rating.

    ``rated`` is the engine's output (schema RatedSides); ``k_by_player`` maps player id to the K
    used for the period. Returns a copy with ``diff, pd_units, dev_units, counted_why``
    recomputed and a column ``rating_used`` (the whole-number rating each game's expectation was
    computed from).
    """
    import pandas as pd

    out = rated.copy()
    is_rated = rated["rated"].to_numpy(dtype=bool)
    codes, _ = pd.factorize(rated["player"])
    k_side = rated["player"].map(k_by_player).astype("Int64").fillna(0).to_numpy(dtype=np.int64)
    rating_used, diff, pd_units, dev_units, counted_why = sequential_arrays(
        codes,
        is_rated,
        rated["player_rating"].fillna(0).to_numpy(dtype=np.int64),
        rated["opponent_rating"].fillna(0).to_numpy(dtype=np.int64),
        rated["score_h"].to_numpy(dtype=np.int64),
        k_side,
        rated["diff"].to_numpy(dtype=np.int64, na_value=0),
        rated["pd_units"].to_numpy(dtype=np.int64, na_value=0),
        rated["dev_units"].to_numpy(dtype=np.int64, na_value=0),
        rules,
        method,
        cap,
    )
    mask = ~is_rated
    out["diff"] = pd.arrays.IntegerArray(diff, mask)
    out["pd_units"] = pd.arrays.IntegerArray(pd_units, mask)
    out["dev_units"] = pd.arrays.IntegerArray(dev_units, mask)
    out["counted_why"] = counted_why
    out["rating_used"] = pd.arrays.IntegerArray(
        rating_used, rated["player_rating"].isna().to_numpy()
    )
    return out


def rank_within(codes: np.ndarray) -> np.ndarray:
    """Each row's position among the earlier rows of the same code (0, 1, 2, ...)."""
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    new_group = np.ones(len(codes), dtype=bool)
    new_group[1:] = sorted_codes[1:] != sorted_codes[:-1]
    starts = np.flatnonzero(new_group)
    group_start = np.repeat(starts, np.diff(np.append(starts, len(codes))))
    rank = np.empty(len(codes), dtype=np.int64)
    rank[order] = np.arange(len(codes)) - group_start
    return rank


def sequential_arrays(
    codes: np.ndarray,
    is_rated: np.ndarray,
    start: np.ndarray,
    opp: np.ndarray,
    score_h: np.ndarray,
    k_side: np.ndarray,
    diff: np.ndarray,
    pd_units: np.ndarray,
    dev_units: np.ndarray,
    rules: RuleSet,
    method: str,
    cap: bool | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``sequential_sides`` on arrays: (rating_used, diff, pd_units, dev_units, counted_why),
    the difference, PD and S - PD starting from the engine's values (0 where not rated) and
    recomputed on the rated sides; ``counted_why`` the engine's reason for each recomputed
    difference (``rules.counted_words``' codes, as-played where not rated).

    ``codes`` numbers the players (0..n-1), ``start`` is each side's start rating (0 = unrated),
    ``k_side`` the K of the side's player. A side the engine no longer rates at the running
    rating (e.g. the rapid gap rule) gets 0, as the frame path's blank does.
    """
    scale = SCALES[method]
    codes = np.asarray(codes, dtype=np.int64)
    step = np.full(len(codes), -1, dtype=np.int64)
    step[is_rated] = rank_within(codes[is_rated])
    delta = np.zeros(int(codes.max()) + 1 if len(codes) else 0, dtype=np.int64)  # running change
    rating_used = start.copy()
    diff, pd_units, dev_units = diff.copy(), pd_units.copy(), dev_units.copy()
    counted_why = np.zeros(len(codes), dtype=np.int8)
    for j in range(int(step.max()) + 1 if len(step) else 0):
        pos = np.flatnonzero(step == j)
        who = codes[pos]
        current = start[pos] + round_half_away(delta[who], scale)
        r = rate_arrays(
            current, opp[pos], np.ones(len(pos), dtype=bool), score_h[pos], rules, method, cap
        )
        game_dev = np.where(r.rated, r.dev_units, 0).astype(np.int64)
        rating_used[pos] = current
        diff[pos] = np.where(r.rated, r.diff, 0)
        pd_units[pos] = np.where(r.rated, r.pd_units, 0)
        dev_units[pos] = game_dev
        counted_why[pos] = np.where(r.rated, r.counted_why, 0)
        delta[who] += k_side[pos] * game_dev  # one side per player per step: no collisions
    return rating_used, diff, pd_units, dev_units, counted_why
