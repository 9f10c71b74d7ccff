"""How each rated difference was counted, and why, in the words every face shows (the web's
player page and calculator, report.html): the one place that names the era's rule.

Game by game (from the July 2008 list): the difference D = own rating - opponent's is counted as
played, or cut to the cap (the 400-point rule; the 350-point rule until 2009-06-30,
docs/rules-by-era.md), or kept whole because the player is rated at or above the exemption (2650
from 2025-10), or kept whole because the 2022-2024 rule lets the cap help in one game per event
only.

By the average opponent (until the April 2008 list): one D per player and event, Ra - Rc, Rc
the rounded average rating of the rated opponents, with the 350-point rule; every game of the
event counts that D (``engine.average_opponent_method``, which also gives each side its Rc).

The engine decides which of these applied, where it applies the rule, and says so with a code
per side (``counted_why``: ``engine.rate_sides``, ``engine.sequential``); :func:`counted_words`
turns the codes into the era's words by columns, for the report model, the calculator and every
page. Words about the rule sets, so they live beside them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from pipeline.rules.sets import AVERAGE_OPPONENT, RuleSet

if TYPE_CHECKING:  # Arrow's string kernels are loaded by the words, not by the engine's codes
    import pyarrow as pa

# Why a difference counted as it did: the engine's codes (int8, column ``counted_why``).
COUNTED_AS_PLAYED = 0  # the difference as played (within the cap, or no cap)
COUNTED_CUT = 1  # cut to the cap (the 400-point rule; 350 until 2009-06)
COUNTED_EXEMPT = 2  # above the cap, kept whole: the side is rated at or above the exemption
COUNTED_ONCE = 3  # above the cap, kept whole: the cap helps once per event (2022-2024)
COUNTED_AVERAGE = 4  # the average-opponent method's D = Ra - Rc (lists until April 2008)


def rules_as_used(rules: RuleSet, method: str, cap: bool | None) -> RuleSet:
    """``rules`` with no cap where the run did not apply it (``--no-cap``, or the formula, whose
    default is no cap: ``engine.rate_sides``'s own choice)."""
    use_cap = (method == "fide") if cap is None else cap
    return rules if use_cap else replace(rules, cap=None, cap_exempt_from=None)


def cap_rule_name(rules: RuleSet | None) -> str:
    """'400-point rule', '350-point rule', or 'no cap' (the formula, or custom rules)."""
    return "no cap" if rules is None or rules.cap is None else f"{rules.cap}-point rule"


def is_average_method(rules: RuleSet | None) -> bool:
    return rules is not None and rules.expected_score == AVERAGE_OPPONENT


def counted_heading(rules: RuleSet | None) -> str:
    """The heading of the column that holds the difference the expectation was read for."""
    if is_average_method(rules):
        return f"D = Ra - Rc ({cap_rule_name(rules)})"
    return f"counted ({cap_rule_name(rules)})"


def method_words(rules: RuleSet | None, method: str = "fide") -> str:
    """One sentence: how this era read each game's expected score (footers, the pages);
    ``method`` "formula" names the Elo formula instead of FIDE's table."""
    source = (
        "PD from FIDE table 8.1.2" if method == "fide" else "E from the Elo formula (not FIDE's)"
    )
    if is_average_method(rules):
        return (
            "Each player's event is rated from one difference, D = Ra - Rc (Rc the average "
            f"rating of the rated opponents, whole, .5 up), with the {cap_rule_name(rules)}; "
            f"each game expects {source} for D (the average-opponent method, FIDE lists until "
            "April 2008)."
        )
    if rules is None or rules.cap is None:
        return f"Each game: {source} for the difference as played, no cap."
    text = f"Each game: {source} with the {cap_rule_name(rules)}"
    if rules.cap_exempt_from is not None:
        text += f" (not for players rated {rules.cap_exempt_from} or more)"
    if rules.cap_once_per_event:
        text += " (once per event: the largest difference)"
    return text + "."


def _signed(values: np.ndarray) -> pa.Array:
    """Whole numbers as text with their sign (``+0`` too, as ``f"{v:+d}"``)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    text = pc.cast(pa.array(values, pa.int64()), pa.string())
    return pc.if_else(pa.array(values >= 0), pc.binary_join_element_wise("+", text, ""), text)


def _joined(*parts: str | pa.Array) -> pa.Array:
    """The parts (texts, or arrays of one length) joined element-wise."""
    import pyarrow.compute as pc

    return pc.binary_join_element_wise(*parts, "")


def counted_words(
    code: np.ndarray,
    gap: np.ndarray,
    used: np.ndarray,
    own: np.ndarray,
    rc: np.ndarray,
    rules: RuleSet | None,
) -> np.ndarray:
    """Why each rated side counted ``used`` for the real ``gap`` (own - opponent's), from the
    engine's ``code`` (``COUNTED_*``), in words ('' where it counted as played), by columns:
    one template per code, filled in with Arrow's string kernels. ``own`` the rating the side
    was rated from; ``rc`` the average-opponent method's Rc per side (read where ``code`` is
    ``COUNTED_AVERAGE`` only). Integer arrays (0 where blank). Returns an object array of str."""
    code = np.asarray(code, dtype=np.int8)
    words = np.full(len(code), "", dtype=object)
    if not (code != COUNTED_AS_PLAYED).any():
        return words
    import pyarrow as pa
    import pyarrow.compute as pc

    gap, used = np.asarray(gap, dtype=np.int64), np.asarray(used, dtype=np.int64)
    own, rc = np.asarray(own, dtype=np.int64), np.asarray(rc, dtype=np.int64)
    rule = cap_rule_name(rules)
    exempt = "" if rules is None else str(rules.cap_exempt_from)

    def whole(values: np.ndarray) -> pa.Array:
        return pc.cast(pa.array(values, pa.int64()), pa.string())

    if len(i := np.flatnonzero(code == COUNTED_CUT)):
        said = _joined(f"{rule}: ", _signed(gap[i]), " counts as ", _signed(used[i]))
        words[i] = said.to_numpy(zero_copy_only=False)
    if len(i := np.flatnonzero(code == COUNTED_EXEMPT)):
        said = _joined(
            "exemption: rated ", whole(own[i]), f", at least {exempt}: the full ",
            _signed(gap[i]), " counts",
        )  # fmt: skip
        words[i] = said.to_numpy(zero_copy_only=False)
    if len(i := np.flatnonzero(code == COUNTED_ONCE)):
        said = _joined("the full ", _signed(gap[i]), f" counts: the {rule} helps once per event")
        words[i] = said.to_numpy(zero_copy_only=False)
    if len(i := np.flatnonzero(code == COUNTED_AVERAGE)):
        raw = own[i] - rc[i]
        said = _joined("average method: D = ", whole(own[i]), " - Rc ", whole(rc[i]), " = ",
                       _signed(raw))  # fmt: skip
        cut = _joined(", counted as ", _signed(used[i]), f" ({rule})")
        said = pc.if_else(pa.array(used[i] != raw), _joined(said, cut), said)
        words[i] = said.to_numpy(zero_copy_only=False)
    return words


__all__ = [
    "cap_rule_name",
    "counted_heading",
    "counted_words",
    "COUNTED_AS_PLAYED",
    "COUNTED_AVERAGE",
    "COUNTED_CUT",
    "COUNTED_EXEMPT",
    "COUNTED_ONCE",
    "is_average_method",
    "method_words",
    "rules_as_used",
]
