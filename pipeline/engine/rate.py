"""The engine: for every side of every game, decide whether it is rated, the difference used
after the 400-point rule, the expected score and the deviation S - PD. Fully vectorized.

``rate_arrays`` is the engine proper, on plain integer arrays (what the benchmark times and what
every path, pandas or Dask partition, runs); ``rate_sides`` wraps it for a sides frame.
"""

from __future__ import annotations

from functools import cache, cached_property

import numpy as np
import pandas as pd

from pipeline.engine.cap_once import uncapped_sides
from pipeline.engine.expected import SCALES, expected_units
from pipeline.engine.matches import NOTE_MATCH_DECIDED, NOTE_MATCH_UNRATED, match_codes
from pipeline.rules.sets import RuleSet

# Why a side is not rated, in order of precedence (the first that applies is shown).
NOTE_UNPLAYED = "not played (forfeit or bye)"
NOTE_PLAYER_UNRATED = "player unrated"
NOTE_OPPONENT_UNRATED = "opponent unrated"
NOTE_GAP = "rating gap of 600+ with a player above 2600 (rapid/blitz rule)"
# note_code -> text; code 0 = rated (no note). Codes 5 and 6: the match rules (engine.matches).
NOTES = (
    "",
    NOTE_UNPLAYED,
    NOTE_PLAYER_UNRATED,
    NOTE_OPPONENT_UNRATED,
    NOTE_GAP,
    NOTE_MATCH_UNRATED,
    NOTE_MATCH_DECIDED,
)


# Ratings are whole numbers in 0..3500 (schemas), so own - opponent lies in -3500..3500.
MAX_DIFF = 3500


@cache
def pd_table(method: str, cap: int | None, exempt: bool) -> np.ndarray:
    """PD in units of 1/scale for every raw difference own - opponent in -MAX_DIFF..MAX_DIFF
    (index diff + MAX_DIFF), the 400-point cap applied unless ``exempt``: one gather per side
    replaces clip, abs and the band look-up. Built from ``expected_units``, so each entry is the
    value the per-side computation gives. int32: the largest entry is the formula's 10**6, and
    half the bytes of int64 is half the memory traffic of the gather."""
    raw = np.arange(-MAX_DIFF, MAX_DIFF + 1, dtype=np.int64)
    diff = raw if (cap is None or exempt) else np.clip(raw, -cap, cap)
    table = expected_units(diff, method).astype(np.int32)
    table.setflags(write=False)
    return table


@cache
def _lookup_table(method: str, cap: int | None, exempt: bool) -> np.ndarray:
    """The capped table followed, when some sides are exempt from the cap (players rated 2650+,
    or the cap used once per event), by the exempt one: an exempt side's index is moved
    EXEMPT_SHIFT further on."""
    capped = pd_table(method, cap, False)
    if cap is None or not exempt:
        return capped
    table = np.concatenate([capped, pd_table(method, cap, True)])
    table.setflags(write=False)
    return table


EXEMPT_SHIFT = 2 * MAX_DIFF + 1


class RatedArrays:
    """The engine's answer for each side (units of 1/scale; meaningless where not rated).

    ``rated``, ``pd_units`` and ``dev_units`` (int32) are what a rating needs and are computed
    at once; ``diff`` (after the 400-point rule) and ``note_code`` are for the games table and
    are only worked out when asked for.
    """

    def __init__(self, own, opp, played, rules, use_cap, rated, pd_units, dev_units, lifted=None):  # type: ignore[no-untyped-def]
        self._own, self._opp, self._played, self._lifted = own, opp, played, lifted
        self._rules, self._use_cap = rules, use_cap
        self.rated: np.ndarray = rated
        self.pd_units: np.ndarray = pd_units
        self.dev_units: np.ndarray = dev_units

    @cached_property
    def diff(self) -> np.ndarray:
        """The difference used (int64): own - opponent after the 400-point rule."""
        raw = self._own.astype(np.int64) - self._opp
        cap = self._rules.cap
        if not self._use_cap or cap is None:
            return raw
        capped = np.clip(raw, -cap, cap)
        exempt = _exempt(self._own, self._rules.cap_exempt_from, self._lifted)
        return capped if exempt is None else np.where(exempt, raw, capped)

    @cached_property
    def note_code(self) -> np.ndarray:
        """Index into NOTES of the first reason a side is not rated (0 = rated)."""
        note_code = np.zeros(len(self._own), dtype=np.int8)
        # Later reasons written first, earlier ones overwrite them (the order of NOTES).
        gap_skip = _gap_skip(self._own, self._opp, self._rules)
        if gap_skip is not None:
            note_code[gap_skip] = 4
        note_code[self._opp <= 0] = 3
        note_code[self._own <= 0] = 2
        note_code[~self._played] = 1
        return note_code


def _exempt(
    own: np.ndarray, exempt_from: int | None, lifted: np.ndarray | None
) -> np.ndarray | None:
    """Sides that use the real difference: rated at or above ``exempt_from``, or ``lifted``
    (the cap used once per event elsewhere); None when no side can be."""
    exempt = None if exempt_from is None else own >= exempt_from
    if lifted is not None:
        exempt = lifted if exempt is None else exempt | lifted
    return exempt


def _gap_skip(own: np.ndarray, opp: np.ndarray, rules: RuleSet) -> np.ndarray | None:
    """Sides of games not rated under the rapid/blitz gap rule (None when the rules have none)."""
    if rules.skip_gap is None or rules.skip_above is None:
        return None
    raw = own.astype(np.int64) - opp
    return (np.abs(raw) >= rules.skip_gap) & ((own > rules.skip_above) | (opp > rules.skip_above))


def rate_arrays(
    own: np.ndarray,
    opp: np.ndarray,
    played: np.ndarray,
    score_h: np.ndarray,
    rules: RuleSet,
    method: str = "fide",
    cap: bool | None = None,
    lifted: np.ndarray | None = None,
) -> RatedArrays:
    """The engine on arrays: ``own``/``opp`` ratings (0 = unrated), ``score_h`` in hundredths.
    ``lifted`` marks sides whose cap is lifted by the once-per-event rule (``cap_once``).

    Each step is one pass over int32 arrays (ratings, differences and PD are small; half the
    bytes is half the memory traffic), with the results written in place where possible.
    """
    scale = SCALES[method]
    own = np.asarray(own)
    opp = np.asarray(opp)
    played = np.asarray(played, dtype=bool)

    rated = own > 0
    rated &= opp > 0
    rated &= played
    gap_skip = _gap_skip(own, opp, rules)
    if gap_skip is not None:
        rated &= ~gap_skip

    use_cap = (method == "fide") if cap is None else cap
    cap_points = rules.cap if use_cap else None
    exempt = None
    if cap_points is not None:
        exempt = _exempt(own, rules.cap_exempt_from, lifted)
    table = _lookup_table(method, cap_points, exempt is not None)
    # index = own - opponent + MAX_DIFF into the capped table; a side rated at or above the
    # exemption (the cap is decided by the side being rated) looks up the exempt table.
    index = np.subtract(own, opp, dtype=np.int32)
    index += MAX_DIFF
    if exempt is not None:
        np.add(index, EXEMPT_SHIFT, out=index, where=exempt)
    # np.take, not table[index]: a plain gather, about twice as fast as fancy indexing. Ratings
    # are checked to 0..3500 before the engine; mode="clip" only keeps the gather in bounds.
    pd_units = np.take(table, index, mode="clip")
    # S - PD in units of 1/scale, reusing the index buffer.
    dev_units = np.multiply(score_h, scale // 100, out=index, casting="unsafe")
    dev_units -= pd_units
    return RatedArrays(own, opp, played, rules, use_cap, rated, pd_units, dev_units, lifted)


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
    own = sides["player_rating"].fillna(0).to_numpy(dtype=np.int64)
    opp = sides["opponent_rating"].fillna(0).to_numpy(dtype=np.int64)
    played = sides["played"].to_numpy(dtype=bool)
    lifted = None
    if rules.cap_once_per_event and rules.cap is not None:
        event = (
            sides["event"] if "source" not in sides else sides["source"] + "\x1f" + sides["event"]
        )
        eligible = played & (own > 0) & (opp > 0)
        lifted = uncapped_sides(sides["player"], event, own - opp, eligible, rules.cap)
    result = rate_arrays(
        own,
        opp,
        played,
        sides["score_h"].to_numpy(dtype=np.int64),
        rules,
        method,
        cap,
        lifted,
    )
    rated_sides, note_code = result.rated, result.note_code
    if "source" in sides:  # assembled sides: matches (6.1, 6.2) are known by their event
        match = match_codes(sides)
        if match.any():
            # A played game in a match, whatever else applies, is not rated for the match rule.
            skip = (match > 0) & played
            rated_sides = rated_sides & ~skip
            note_code = np.where(skip, match + 4, note_code).astype(np.int8)
    unrated = ~rated_sides
    # Unrated sides carry no difference, PD or deviation: <NA>, shown blank in games.csv.
    return sides.assign(
        rated=rated_sides,
        note=note_text(note_code).set_axis(sides.index),
        diff=pd.arrays.IntegerArray(result.diff, unrated),
        pd_units=pd.arrays.IntegerArray(result.pd_units.astype(np.int64), unrated.copy()),
        dev_units=pd.arrays.IntegerArray(result.dev_units.astype(np.int64), unrated.copy()),
    )
