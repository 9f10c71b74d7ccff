"""The engine: for every side of every game, decide whether it is rated, the difference used
after the 400-point rule, the expected score and the deviation S - PD. Fully vectorized.

``rate_arrays`` is the engine proper, on plain int64 arrays (what the benchmark times and what
every path, pandas or Dask partition, runs); ``rate_sides`` wraps it for a sides frame.
"""

from __future__ import annotations

from functools import cache, cached_property

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


# Ratings are whole numbers in 0..3500 (schemas), so own - opponent lies in -3500..3500.
MAX_DIFF = 3500


@cache
def pd_table(method: str, cap: int | None, exempt: bool) -> np.ndarray:
    """PD in units of 1/scale for every raw difference own - opponent in -MAX_DIFF..MAX_DIFF
    (index diff + MAX_DIFF), the 400-point cap applied unless ``exempt``: one gather per side
    replaces clip, abs and the band look-up. Built from ``expected_units``, so each entry is the
    value the per-side computation gives."""
    raw = np.arange(-MAX_DIFF, MAX_DIFF + 1, dtype=np.int64)
    diff = raw if (cap is None or exempt) else np.clip(raw, -cap, cap)
    table = expected_units(diff, method).astype(np.int64)
    table.setflags(write=False)
    return table


class RatedArrays:
    """The engine's answer for each side (int64 units of 1/scale; meaningless where not rated).

    ``rated``, ``pd_units`` and ``dev_units`` are what a rating needs and are computed at once;
    ``diff`` (after the 400-point rule) and ``note_code`` are for the games table and are only
    worked out when asked for.
    """

    def __init__(
        self,
        own,
        opp,
        played,
        raw,
        capped_side,
        gap_skip,
        use_cap,
        rules,
        rated,
        pd_units,
        dev_units,
    ):  # type: ignore[no-untyped-def]
        self._own, self._opp, self._played, self._raw = own, opp, played, raw
        self._capped_side, self._gap_skip, self._use_cap, self._rules = (
            capped_side,
            gap_skip,
            use_cap,
            rules,
        )
        self.rated: np.ndarray = rated
        self.pd_units: np.ndarray = pd_units
        self.dev_units: np.ndarray = dev_units

    @cached_property
    def diff(self) -> np.ndarray:
        """The difference used: own - opponent after the 400-point rule."""
        if not self._use_cap or self._rules.cap is None:
            return self._raw
        capped = np.clip(self._raw, -self._rules.cap, self._rules.cap)
        if self._capped_side is None:
            return capped
        return np.where(self._capped_side, capped, self._raw)

    @cached_property
    def note_code(self) -> np.ndarray:
        """Index into NOTES of the first reason a side is not rated (0 = rated)."""
        note_code = np.zeros(len(self._own), dtype=np.int8)
        # Later reasons written first, earlier ones overwrite them (the order of NOTES).
        if self._gap_skip is not None:
            note_code[self._gap_skip] = 4
        note_code[self._opp <= 0] = 3
        note_code[self._own <= 0] = 2
        note_code[~self._played] = 1
        return note_code


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
    # int32: ratings and differences are small, and half the bytes is half the memory traffic.
    own = np.asarray(own, dtype=np.int32)
    opp = np.asarray(opp, dtype=np.int32)
    played = np.asarray(played, dtype=bool)
    raw = own - opp

    gap_skip = None
    if rules.skip_gap is not None and rules.skip_above is not None:
        gap_skip = (np.abs(raw) >= rules.skip_gap) & (
            (own > rules.skip_above) | (opp > rules.skip_above)
        )
    rated = played & (own > 0) & (opp > 0)
    if gap_skip is not None:
        rated &= ~gap_skip

    use_cap = (method == "fide") if cap is None else cap
    cap_points = rules.cap if use_cap else None
    # Which sides the cap applies to is decided by the side being rated: a player rated 2650+
    # uses the real difference. Two tables (capped, exempt) side by side, one gather.
    capped_side = None
    index = raw + MAX_DIFF
    # Ratings are checked to 0..3500 before the engine; the clip only keeps the gather in bounds.
    np.clip(index, 0, 2 * MAX_DIFF, out=index)
    if cap_points is not None and rules.cap_exempt_from is not None:
        capped_side = own < rules.cap_exempt_from
        table = np.concatenate(
            [pd_table(method, cap_points, False), pd_table(method, cap_points, True)]
        )
        index[~capped_side] += 2 * MAX_DIFF + 1
    else:
        table = pd_table(method, cap_points, False)
    pd_units = table[index]
    score = np.asarray(score_h, dtype=np.int64)
    dev_units = score * (scale // 100) - pd_units if scale != 100 else score - pd_units
    return RatedArrays(
        own,
        opp,
        played,
        raw.astype(np.int64),
        capped_side,
        gap_skip,
        use_cap,
        rules,
        rated,
        pd_units,
        dev_units,
    )


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
