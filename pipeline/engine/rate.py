"""The engine: for every side of every game, decide whether it is rated, the difference used
after the 400-point rule, the expected score and the deviation S - PD. Fully vectorized.

``rate_arrays`` is the engine proper, on plain int64 arrays (what the benchmark times and what
every path, pandas or Dask partition, runs); ``rate_sides`` wraps it for a sides frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from pipeline.engine.expected import SCALES, expected_units
from pipeline.rules import RuleSet

# Why a side is not rated, in order of precedence (the first that applies is shown).
NOTE_UNPLAYED = "not played (forfeit or bye)"
NOTE_PLAYER_UNRATED = "player unrated"
NOTE_OPPONENT_UNRATED = "opponent unrated"
NOTE_GAP = "rating gap of 600+ with a player above 2600 (rapid/blitz rule)"
# note_code -> text; code 0 = rated (no note).
NOTES = ("", NOTE_UNPLAYED, NOTE_PLAYER_UNRATED, NOTE_OPPONENT_UNRATED, NOTE_GAP)


@dataclass(frozen=True)
class RatedArrays:
    """The engine's answer for each side (int64 units of 1/scale; meaningless where not rated)."""

    rated: np.ndarray  # bool
    note_code: np.ndarray  # int8 index into NOTES
    diff: np.ndarray  # difference used, after the 400-point rule
    pd_units: np.ndarray
    dev_units: np.ndarray


def rate_arrays(
    own: np.ndarray,
    opp: np.ndarray,
    played: np.ndarray,
    score_h: np.ndarray,
    rules: RuleSet,
    method: str = "fide",
    cap: bool | None = None,
) -> RatedArrays:
    """The engine on arrays: ``own``/``opp`` ratings (0 = unrated), ``score_h`` in hundredths."""
    scale = SCALES[method]
    own = np.asarray(own, dtype=np.int64)
    opp = np.asarray(opp, dtype=np.int64)
    played = np.asarray(played, dtype=bool)
    raw = own - opp

    gap_skip = None
    if rules.skip_gap is not None and rules.skip_above is not None:
        gap_skip = (np.abs(raw) >= rules.skip_gap) & (
            (own > rules.skip_above) | (opp > rules.skip_above)
        )
    own_unrated = own <= 0
    opp_unrated = opp <= 0
    rated = played & ~own_unrated & ~opp_unrated
    if gap_skip is not None:
        rated &= ~gap_skip

    use_cap = (method == "fide") if cap is None else cap
    diff = raw
    if use_cap and rules.cap is not None:
        capped = np.clip(raw, -rules.cap, rules.cap)
        if rules.cap_exempt_from is not None:
            # Decided by the side being rated: a player rated 2650+ uses the real difference.
            diff = np.where(own < rules.cap_exempt_from, capped, raw)
        else:
            diff = capped

    pd_units = expected_units(diff, method)
    dev_units = np.asarray(score_h, dtype=np.int64) * (scale // 100) - pd_units

    # The first reason that applies, as a small code: later reasons written first, earlier ones
    # overwrite them (same precedence as the order of NOTES).
    note_code = np.zeros(len(own), dtype=np.int8)
    if gap_skip is not None:
        note_code[gap_skip] = 4
    note_code[opp_unrated] = 3
    note_code[own_unrated] = 2
    note_code[~played] = 1
    return RatedArrays(rated, note_code, diff, pd_units, dev_units)


def note_text(note_code: np.ndarray) -> pd.Series:
    """The note column (str) from note codes."""
    return pd.Series(pd.array(list(NOTES), dtype=str).take(np.asarray(note_code, dtype=np.int64)))


def rate_sides(
    sides: pd.DataFrame, rules: RuleSet, method: str = "fide", cap: bool | None = None
) -> pd.DataFrame:
    """Add ``rated, note, diff, pd_units, dev_units`` to a sides frame (returns a new frame).

    ``cap`` None applies the rule set's 400-point rule with the FIDE table and no cap with the
    formula, as calculators do; True/False forces it either way.
    """
    result = rate_arrays(
        sides["player_rating"].fillna(0).to_numpy(dtype=np.int64),
        sides["opponent_rating"].fillna(0).to_numpy(dtype=np.int64),
        sides["played"].to_numpy(dtype=bool),
        sides["score_h"].to_numpy(dtype=np.int64),
        rules,
        method,
        cap,
    )
    unrated = ~result.rated
    # Unrated sides carry no difference, PD or deviation: <NA>, shown blank in games.csv.
    return sides.assign(
        rated=result.rated,
        note=note_text(result.note_code).set_axis(sides.index),
        diff=pd.arrays.IntegerArray(result.diff, unrated),
        pd_units=pd.arrays.IntegerArray(result.pd_units, unrated.copy()),
        dev_units=pd.arrays.IntegerArray(result.dev_units, unrated.copy()),
    )
