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

Words about the rule sets, so they live beside them: the engine, the event view and the writers
all say it the same way.
"""

from __future__ import annotations

from dataclasses import replace

from pipeline.rules.sets import AVERAGE_OPPONENT, RuleSet


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


def counted_note(
    gap: int | None, used: int | None, own: int | None, rules: RuleSet | None, rc: int | None = None
) -> str:
    """Why one rated game counted ``used`` for the real ``gap`` (own - opponent's): '' when it
    counted as played."""
    if gap is None or used is None:
        return ""
    if is_average_method(rules) and rc is not None and own is not None:
        raw = own - rc
        note = f"average method: D = {own} - Rc {rc} = {raw:+d}"
        return note + (f", counted as {used:+d} ({cap_rule_name(rules)})" if used != raw else "")
    if used != gap:
        return f"{cap_rule_name(rules)}: {gap:+d} counts as {used:+d}"
    if rules is None or rules.cap is None or abs(gap) <= rules.cap:
        return ""
    exempt = rules.cap_exempt_from
    if exempt is not None and own is not None and own >= exempt and gap > 0:
        return f"exemption: rated {own}, at least {exempt}: the full {gap:+d} counts"
    if rules.cap_once_per_event:
        return f"the full {gap:+d} counts: the {cap_rule_name(rules)} helps once per event"
    return f"the full {gap:+d} counts"


__all__ = [
    "cap_rule_name",
    "counted_heading",
    "counted_note",
    "is_average_method",
    "method_words",
    "rules_as_used",
]
