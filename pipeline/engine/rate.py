"""The engine: for every side of every game, decide whether it is rated, the difference used
after the 400-point rule, the expected score and the deviation S - PD. Fully vectorized.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.engine.expected import SCALES, expected_units
from pipeline.rules import RuleSet

# Why a side is not rated, in order of precedence (the first that applies is shown).
NOTE_UNPLAYED = "not played (forfeit or bye)"
NOTE_PLAYER_UNRATED = "player unrated"
NOTE_OPPONENT_UNRATED = "opponent unrated"
NOTE_GAP = "rating gap of 600+ with a player above 2600 (rapid/blitz rule)"


def rate_sides(
    sides: pd.DataFrame, rules: RuleSet, method: str = "fide", cap: bool | None = None
) -> pd.DataFrame:
    """Add ``rated, note, diff, pd_units, dev_units`` to a sides frame (returns a new frame).

    ``cap`` None applies the rule set's 400-point rule with the FIDE table and no cap with the
    formula, as calculators do; True/False forces it either way.
    """
    scale = SCALES[method]
    own = sides["player_rating"].fillna(0).to_numpy(dtype=np.int64)
    opp = sides["opponent_rating"].fillna(0).to_numpy(dtype=np.int64)
    played = sides["played"].to_numpy(dtype=bool)
    raw = own - opp

    gap_skip = np.zeros(len(own), dtype=bool)
    if rules.skip_gap is not None and rules.skip_above is not None:
        gap_skip = (np.abs(raw) >= rules.skip_gap) & (
            (own > rules.skip_above) | (opp > rules.skip_above)
        )
    rated = played & (own > 0) & (opp > 0) & ~gap_skip

    use_cap = (method == "fide") if cap is None else cap
    diff = raw
    if use_cap and rules.cap is not None:
        capped = np.ones(len(own), dtype=bool)
        if rules.cap_exempt_from is not None:
            capped = own < rules.cap_exempt_from  # decided by the side being rated
        diff = np.where(capped, np.clip(raw, -rules.cap, rules.cap), raw)

    pd_units = expected_units(diff, method)
    dev_units = sides["score_h"].to_numpy(dtype=np.int64) * (scale // 100) - pd_units

    note = np.select(
        [~played, own <= 0, opp <= 0, gap_skip],
        [NOTE_UNPLAYED, NOTE_PLAYER_UNRATED, NOTE_OPPONENT_UNRATED, NOTE_GAP],
        "",
    )
    out = sides.copy()
    out["rated"] = rated
    out["note"] = note
    # Unrated sides carry no difference, PD or deviation: <NA>, shown blank in games.csv.
    out["diff"] = pd.arrays.IntegerArray(diff.astype(np.int64), ~rated)
    out["pd_units"] = pd.arrays.IntegerArray(pd_units.astype(np.int64), ~rated)
    out["dev_units"] = pd.arrays.IntegerArray(dev_units.astype(np.int64), ~rated)
    return out
