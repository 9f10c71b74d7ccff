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
    warnings: tuple[str, ...] = ()  # a period before the era's sources, an era marked unsure


def era_warnings(rules: RuleSet, day: str) -> tuple[str, ...]:
    """What a run rated with ``rules`` on ``day`` must say (summary, reports, --json): a day
    before the earliest date the rules are known for, and what the era is unsure about."""
    known = rules.effective_from or rules.sourced_from
    warnings = []
    if known is not None and day < known:
        warnings.append(
            f"the period starts {day}, before the earliest FIDE rules known here "
            f"({rules.name}, from {known}): rated with them, the real rules may differ "
            "(docs/rules-by-era.md)"
        )
    if rules.uncertain:
        warnings.append(
            f"rules {rules.name} are unsure about {rules.uncertain} (docs/rules-by-era.md)"
        )
    return tuple(warnings)


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
    day = f"{period}-01"
    if eras is None:
        rules = get_rules(name)
        reason = f"--rules {name} ({_span(rules)}), as given"
        return RulesChoice(rules, reason, era_warnings(rules, day))
    for rules in eras:
        if in_force(rules, day):
            reason = f"in force on {day} ({name} rules {_span(rules)})"
            return RulesChoice(rules, reason, era_warnings(rules, day))
    earliest = eras[-1]
    return RulesChoice(
        earliest,
        f"no FIDE {name} rules before {earliest.effective_from}: the earliest, "
        f"{earliest.name} ({_span(earliest)})",
        era_warnings(earliest, day),
    )


def next_fide_list(rules: RuleSet, period: str) -> str:
    """The month (YYYY-MM) of the first list FIDE published after ``period`` in the era's
    cadence: monthly; every 2 months (January, March, ...) 2009-07 .. 2012-06; every 3 months
    (January, April, July, October) before 2009-07."""
    index = int(period[:4]) * 12 + int(period[5:7]) - 1 + 1
    index += -index % rules.list_every_months  # up to the next list month (aligned to January)
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def cadence_note(rules: RuleSet, period: str) -> str | None:
    """What a monthly period run says in an era whose lists were not monthly (None if they
    were): ``fiderate period`` publishes a list every month in every era."""
    if rules.list_every_months == 1:
        return None
    return (
        f"rules {rules.name}: FIDE published a list every {rules.list_every_months} months "
        f"then (the next after {period} was {next_fide_list(rules, period)}-01); this run "
        "publishes monthly lists (longer periods are not modelled: docs/rules-by-era.md)"
    )
