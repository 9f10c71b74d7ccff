"""Rule sets as data: which 400-point cap applies, who is exempt, which games are skipped.

A rule set is chosen by name (``--rules``). The engine reads its fields; it never tests the name.
See ../shared/fide/RULES.md sections 2 and 4.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.errors import RunError


@dataclass(frozen=True)
class KPrecedence:
    """K-factor precedence of RULES.md section 4, applied top to bottom."""

    k_ever_2400: int = 10
    k_junior: int = 40
    junior_max_age: int = 18  # until the end of the calendar year of the 18th birthday
    junior_rating_below: int = 2300
    k_new_player: int = 40
    new_player_games_below: int = 30
    k_default: int = 20
    ever_threshold: int = 2400
    period_cap: int = 700  # the 700 rule: K x n <= 700


@dataclass(frozen=True)
class RuleSet:
    name: str
    description: str
    cap: int | None = 400  # |D| counted as at most this much; None = no cap
    cap_exempt_from: int | None = None  # players rated at or above this use the real D
    # Rapid/blitz: a game is not rated for either side when |D| >= skip_gap and a player
    # is rated above skip_above.
    skip_gap: int | None = None
    skip_above: int | None = None
    k: KPrecedence = KPrecedence()
    list_column: str = "standard"  # which rating on a FIDE list this rule set uses


RULE_SETS: dict[str, RuleSet] = {
    r.name: r
    for r in (
        RuleSet(
            "standard",
            "FIDE standard from 2025-10-01: 400-point cap except for players rated 2650+",
            cap=400,
            cap_exempt_from=2650,
        ),
        RuleSet(
            "standard-2024",
            "FIDE standard 2024-03-01 to 2025-09-30: 400-point cap for everybody",
            cap=400,
        ),
        RuleSet(
            "rapid",
            "FIDE rapid: cap for everybody; |D| >= 600 with a player above 2600 is not rated",
            cap=400,
            skip_gap=600,
            skip_above=2600,
            list_column="rapid",
        ),
        RuleSet(
            "blitz",
            "FIDE blitz: cap for everybody; |D| >= 600 with a player above 2600 is not rated",
            cap=400,
            skip_gap=600,
            skip_above=2600,
            list_column="blitz",
        ),
    )
}

DEFAULT_RULES = "standard"


def get_rules(name: str) -> RuleSet:
    try:
        return RULE_SETS[name]
    except KeyError:
        known = ", ".join(RULE_SETS)
        raise RunError(f"unknown rule set {name!r}; choose one of: {known}") from None
