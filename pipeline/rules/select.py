"""Choose the rule set in force in a rating period, and say why.

``--rules standard`` (the default), ``rapid`` or ``blitz`` names a family: the era is chosen by
the FIDE list the period's games were rated for, as FIDE chose it: every game of one list was
rated with one method (FIDE's own calculations for the list of July 2008 are game by game, for
games played from April 2008). Lists came every 3 months until 2009-06, every 2 months until
2012-06, then monthly; the era whose dates contain the first day of that list's rating period
is used (for monthly lists, the period itself). An era's own name (``standard-2024``) is used as
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
            f"the rating period starts {day}, before the earliest FIDE rules known here "
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
    """The rule set for ``period`` (YYYY-MM) given ``--rules name``: a family's era is the one in
    force when the rating period of the FIDE list the month's games were rated for began."""
    eras = ERAS.get(name)
    if eras is None:
        rules = get_rules(name)
        reason = f"--rules {name} ({_span(rules)}), as given"
        return RulesChoice(rules, reason, era_warnings(rules, f"{period}-01"))
    fide_list, first = rated_for_list(eras, period)
    day = f"{first}-01"
    for rules in eras:
        if in_force(rules, day):
            span = f"{name} rules {_span(rules)}"
            monthly = first == period and fide_list == _month_text(_next_list_index(period, 1))
            if monthly:  # the rating period is the month itself
                reason = f"in force on {day} ({span})"
            else:
                reason = (
                    f"in force on {day}, the start of the rating period of FIDE's list of "
                    f"{fide_list}-01, which rated the games of {period} ({span})"
                )
            return RulesChoice(rules, reason, era_warnings(rules, day))
    earliest = eras[-1]
    return RulesChoice(
        earliest,
        f"no FIDE {name} rules before {earliest.effective_from}: the earliest, "
        f"{earliest.name} ({_span(earliest)})",
        era_warnings(earliest, day),
    )


def _next_list_index(period: str, every_months: int) -> int:
    """The month number (year x 12 + month - 1) of the first list after ``period`` when lists
    come every ``every_months`` months, aligned to January (3: January, April, July, October)."""
    index = int(period[:4]) * 12 + int(period[5:7])  # the month after ``period``
    return index + -index % every_months  # up to the next list month


def _month_text(index: int) -> str:
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def next_fide_list(rules: RuleSet, period: str) -> str:
    """The month (YYYY-MM) of the first list FIDE published after ``period`` in the era's
    cadence: monthly; every 2 months (January, March, ...) 2009-07 .. 2012-06; every 3 months
    (January, April, July, October) before 2009-07."""
    return _month_text(_next_list_index(period, rules.list_every_months))


def rated_for_list(eras: tuple[RuleSet, ...], period: str) -> tuple[str, str]:
    """(the FIDE list, YYYY-MM, that rated the games of ``period``; the first month of that
    list's rating period). The cadence is the one of the lists when the month was played (B.02
    9.1 of the 2000s: "four times a year"; FIDE news, 13 Jul 2009: every 2 months; monthly from
    2012-07); the family's eras carry it. A quarterly list's period is the 3 months before it:
    the games of April, May and June 2008 were rated for the list of July 2008."""
    played = next((r for r in eras if in_force(r, f"{period}-01")), eras[-1])
    every = played.list_every_months
    index = _next_list_index(period, every)
    return _month_text(index), _month_text(index - every)


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
