"""Choose the rule set in force in a rating period, and say why.

``--rules standard`` (the default), ``rapid`` or ``blitz`` names a family: the era whose dates
contain the first day of the period is used. An era's own name (``standard-2024``) is used as
given, whatever the period. Both come back with the sentence the reports print.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.rules.sets import ERAS, RuleSet, get_rules


@dataclass(frozen=True)
class RulesChoice:
    rules: RuleSet
    reason: str


def in_force(rules: RuleSet, day: str) -> bool:
    """Whether ``rules`` was in force on ``day`` (YYYY-MM-DD; ISO dates compare as text)."""
    after_start = rules.effective_from is None or rules.effective_from <= day
    before_end = rules.effective_to is None or day <= rules.effective_to
    return after_start and before_end


def _span(rules: RuleSet) -> str:
    start = f"from {rules.effective_from}" if rules.effective_from else "before"
    if rules.effective_to is None:
        return start
    if rules.effective_from is None:
        return f"until {rules.effective_to}"
    return f"{start} to {rules.effective_to}"


def rules_in_force(name: str, period: str) -> RuleSet:
    """The rule set ``--rules name`` gives for ``period`` (without the reason)."""
    return select_rules(name, period).rules


def select_rules(name: str, period: str) -> RulesChoice:
    """The rule set for ``period`` (YYYY-MM) given ``--rules name``."""
    eras = ERAS.get(name)
    if eras is None:
        rules = get_rules(name)
        return RulesChoice(rules, f"--rules {name} ({_span(rules)}), as given")
    day = f"{period}-01"
    for rules in eras:
        if in_force(rules, day):
            return RulesChoice(rules, f"in force on {day} ({name} rules {_span(rules)})")
    earliest = eras[-1]
    return RulesChoice(
        earliest,
        f"no FIDE {name} rules before {earliest.effective_from}: the earliest, "
        f"{earliest.name} ({_span(earliest)})",
    )
