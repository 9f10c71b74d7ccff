"""The engine: for every side of every game, decide whether it is rated, the difference used
after the 400-point rule, the expected score and the deviation S - PD. Fully vectorized.

``rate_arrays`` is the engine proper, on plain integer arrays (what the benchmark times and what
every path, pandas or Dask partition, runs); ``rate_sides`` wraps it for a sides frame.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from pipeline.engine.average_opponent_method import event_expectations, player_event_groups
from pipeline.engine.expected import SCALES
from pipeline.engine.four_hundred_point_rule import (
    exempt_sides,
    lookup_table,
    table_index,
    uncapped_sides,
)
from pipeline.engine.matches import NOTE_MATCH_DECIDED, NOTE_MATCH_UNRATED, SideKeys, match_codes
from pipeline.rules.counted_words import (
    COUNTED_AS_PLAYED,
    COUNTED_AVERAGE,
    COUNTED_CUT,
    COUNTED_EXEMPT,
    COUNTED_ONCE,
)
from pipeline.rules.sets import AVERAGE_OPPONENT, RuleSet

if TYPE_CHECKING:  # pandas is imported where a frame is built: rate_arrays needs numpy only
    import pandas as pd

# Why a side is not rated, in order of precedence (the first that applies is shown).
NOTE_UNPLAYED = "not played (forfeit or bye)"
NOTE_PLAYER_UNRATED = "player unrated"
NOTE_OPPONENT_UNRATED = "opponent unrated"


def gap_note(rules: RuleSet) -> str:
    """Why the rapid/blitz gap rule left a game unrated, in the rule set's numbers."""
    return (
        f"rating gap of {rules.skip_gap}+ with a player above {rules.skip_above} (rapid/blitz rule)"
    )


def notes(rules: RuleSet) -> tuple[str, ...]:
    """note_code -> text; code 0 = rated (no note). Codes 5 and 6: the match rules
    (``pipeline.engine.matches``)."""
    return (
        "",
        NOTE_UNPLAYED,
        NOTE_PLAYER_UNRATED,
        NOTE_OPPONENT_UNRATED,
        gap_note(rules),
        NOTE_MATCH_UNRATED,
        NOTE_MATCH_DECIDED,
    )


class RatedArrays:
    """The engine's answer for each side (units of 1/scale; meaningless where not rated).

    ``rated``, ``pd_units`` and ``dev_units`` (int32) are what a rating needs and are computed
    at once; ``diff`` (after the 400-point rule), ``counted_why`` (why it is that difference) and
    ``note_code`` are for the games table and the reports and are only worked out when asked
    for.
    """

    def __init__(
        self,
        own: np.ndarray,
        opp: np.ndarray,
        played: np.ndarray,
        rules: RuleSet,
        use_cap: bool,
        rated: np.ndarray,
        pd_units: np.ndarray,
        dev_units: np.ndarray,
        lifted: np.ndarray | None = None,
    ) -> None:
        self._own, self._opp, self._played, self._lifted = own, opp, played, lifted
        self._rules, self._use_cap = rules, use_cap
        self.rated: np.ndarray = rated
        self.pd_units: np.ndarray = pd_units
        self.dev_units: np.ndarray = dev_units

    @cached_property
    def diff(self) -> np.ndarray:
        """The difference used (int64): own - opponent after the 400-point rule."""
        # One int64 array, capped in place: each fresh 2 M-side array costs its pages' faults.
        diff = np.subtract(self._own, self._opp, dtype=np.int64)
        cap = self._rules.cap
        if not self._use_cap or cap is None:
            return diff
        exempt = exempt_sides(self._own, self._rules.cap_exempt_from, self._lifted)
        if exempt is None:
            return np.clip(diff, -cap, cap, out=diff)
        capped = np.clip(diff, -cap, cap)
        np.copyto(capped, diff, where=exempt)  # an exempt side keeps the real difference
        return capped

    @cached_property
    def counted_why(self) -> np.ndarray:
        """Why each side's difference counted as it did (int8, ``rules.counted_words``' codes),
        decided here with the rule itself: cut to the cap; kept whole above the cap because
        the side is rated at or above the exemption, or because the cap helped the player in
        another game of the event (once per event); else as played. Meaningless where not
        rated (the caller masks it)."""
        cap = self._rules.cap
        if not self._use_cap or cap is None:
            return np.full(len(self._own), COUNTED_AS_PLAYED, dtype=np.int8)
        # int32 differences (ratings 0..3500) and int8 codes: a fraction of int64's traffic;
        # copyto with ``where`` instead of boolean indexing (no index arrays built).
        raw = np.subtract(self._own, self._opp, dtype=np.int32)
        over = raw > cap
        over |= raw < -cap
        code = np.multiply(over, COUNTED_CUT, dtype=np.int8)  # every side over the cap is cut ...
        # ... unless kept whole: the exemption named before the once-per-event lift when both
        # apply (exempt_sides).
        if self._lifted is not None:
            np.copyto(code, COUNTED_ONCE, where=over & self._lifted)
        exempt_from = self._rules.cap_exempt_from
        if exempt_from is not None:
            np.copyto(code, COUNTED_EXEMPT, where=over & (self._own >= exempt_from))
        return code

    @cached_property
    def note_code(self) -> np.ndarray:
        """Index into ``notes(rules)`` of the first reason a side is not rated (0 = rated)."""
        note_code = np.zeros(len(self._own), dtype=np.int8)
        # Later reasons written first, earlier ones overwrite them (the order of ``notes``).
        gap_skip = _gap_skip(self._own, self._opp, self._rules)
        if gap_skip is not None:
            note_code[gap_skip] = 4
        note_code[self._opp <= 0] = 3
        note_code[self._own <= 0] = 2
        note_code[~self._played] = 1
        return note_code


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
    ``lifted`` marks sides whose cap is lifted by the once-per-event rule
    (``four_hundred_point_rule.uncapped_sides``).

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
    exempt_from = rules.cap_exempt_from if cap_points is not None else None
    lifted_sides = lifted if cap_points is not None else None
    exempt = exempt_from is not None or lifted_sides is not None
    table = lookup_table(method, cap_points, exempt)
    index = table_index(own, opp, exempt_from, lifted_sides)
    # np.take, not table[index]: a plain gather, about twice as fast as fancy indexing. Ratings
    # are checked to 0..3500 before the engine; mode="clip" only keeps the gather in bounds.
    pd_units = np.take(table, index, mode="clip")
    # S - PD in units of 1/scale, reusing the index buffer.
    dev_units = np.multiply(score_h, scale // 100, out=index, casting="unsafe")
    dev_units -= pd_units
    return RatedArrays(own, opp, played, rules, use_cap, rated, pd_units, dev_units, lifted)


def note_text(note_code: np.ndarray, rules: RuleSet) -> pd.Series:
    """The note column (str) from note codes."""
    import pandas as pd

    texts = pd.array(list(notes(rules)), dtype=str)
    return pd.Series(texts.take(np.asarray(note_code, dtype=np.int64)))


def rate_sides(
    sides: pd.DataFrame,
    rules: RuleSet,
    method: str = "fide",
    cap: bool | None = None,
    *,
    keys: SideKeys | None = None,
) -> pd.DataFrame:
    """Add ``rated, note, diff, pd_units, dev_units, counted_why`` to a sides frame (returns a
    new frame).

    ``cap`` None applies the rule set's 400-point rule with the FIDE table and no cap with the
    formula, as calculators do; True/False forces it either way. ``keys``: the sides' events and
    players as integers (``SideKeys``) when the caller has them; else the match rules hash the
    text.
    """
    return rate_sides_coded(sides, rules, method, cap, keys=keys)[0]


def rate_sides_coded(
    sides: pd.DataFrame,
    rules: RuleSet,
    method: str = "fide",
    cap: bool | None = None,
    *,
    keys: SideKeys | None = None,
) -> tuple[pd.DataFrame, tuple[np.ndarray, pd.Series]]:
    """``rate_sides`` with the note column as codes too: (the frame, (each side's note code,
    the notes' texts)), for games.csv to take the notes' text by code (``RatedPeriod.side_texts``).
    """
    import pandas as pd

    own = sides["player_rating"].to_numpy(dtype=np.int64, na_value=0)
    opp = sides["opponent_rating"].to_numpy(dtype=np.int64, na_value=0)
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
    # Assembled sides (their keys given, or a source column): matches (6.1, 6.2) are known by
    # their event.
    if keys is not None or "source" in sides:
        match = match_codes(sides, keys)
        if match.any():
            # A played game in a match, whatever else applies, is not rated for the match rule.
            skip = (match > 0) & played
            rated_sides = rated_sides & ~skip
            note_code = np.where(skip, match + 4, note_code).astype(np.int8)
    diff, pd_units, dev_units = result.diff, result.pd_units, result.dev_units
    counted_why = result.counted_why
    if rules.expected_score == AVERAGE_OPPONENT:
        # Lists before July 2008: one difference per player and event, Ro - Rc over the sides
        # rated now (the match rules applied), its PD on each of those sides.
        score_h = sides["score_h"].to_numpy(dtype=np.int64)
        group = player_event_groups(sides, keys)
        averaged = event_expectations(own, opp, rated_sides, score_h, group, rules, method, cap)
        if averaged is not None:
            diff, pd_units, dev_units = averaged
            counted_why = np.full(len(diff), COUNTED_AVERAGE, dtype=np.int8)
    unrated = ~rated_sides
    np.copyto(counted_why, COUNTED_AS_PLAYED, where=unrated)  # an unrated side counted nothing
    # Unrated sides carry no difference, PD or deviation: <NA>, shown blank in games.csv.
    columns = {name: sides[name] for name in sides.columns}  # as ``assign``: new ones last
    columns.update(
        rated=rated_sides,
        note=note_text(note_code, rules).set_axis(sides.index),
        diff=pd.arrays.IntegerArray(diff, unrated),
        pd_units=pd.arrays.IntegerArray(pd_units.astype(np.int64), unrated.copy()),
        dev_units=pd.arrays.IntegerArray(dev_units.astype(np.int64), unrated.copy()),
        counted_why=counted_why,
    )
    # Every new column is a new array of its own: the frame takes them without the copy
    # ``assign`` makes (60 MB of fresh memory for 2 M sides); the sides' columns are shared.
    rated = pd.DataFrame(columns, index=sides.index, copy=False)
    return rated, (note_code, pd.Series(list(notes(rules)), dtype=str))
