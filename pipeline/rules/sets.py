"""Rule sets as data: which 400-point cap applies, who is exempt, which games are skipped, the
K precedence, for every era of the FIDE regulations.

Each rule set carries the dates it was in force (``effective_from`` .. ``effective_to``,
inclusive: the rating periods it rated, a quarterly list's period being its 3 months) and its
family (standard, rapid, blitz). ``--rules standard|rapid|blitz`` names a family: the set in
force for the FIDE list the period was rated for is chosen by ``pipeline.rules.select``; an
era's own name (``standard-2022``) forces that era. The engine reads the fields; it never tests
a name.
Values and sources: docs/rules-by-era.md; ../shared/fide/RULES.md decides the era in force.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pipeline.errors import RunError

# How an event's expected score is formed (``RuleSet.expected_score``): game by game (PD of each
# game's own difference: FIDE's list of July 2008, whose games were played from 2008-04, and
# after), or from one difference per player and event,
# the player's rating minus the average of the rated opponents (We = n x PD(D), before;
# pipeline.engine.average_opponent_method).
EACH_GAME = "each game"
AVERAGE_OPPONENT = "average opponent"


@dataclass(frozen=True)
class KPrecedence:
    """K-factor precedence of RULES.md section 4, applied top to bottom. A K of None is a rule
    not in force in the era (before 2014-07 there was no junior K, for example)."""

    k_ever_2400: int | None = 10
    k_junior: int | None = 40
    junior_max_age: int = 18  # until the end of the calendar year of the 18th birthday
    junior_rating_below: int = 2300
    k_new_player: int | None = 40
    new_player_games_below: int = 30
    k_default: int = 20
    ever_threshold: int = 2400
    period_cap: int | None = 700  # the 700 rule: K x n <= 700 (None: no such rule)


@dataclass(frozen=True)
class FirstRatingRules:
    """How an unrated player's first rating is computed in an era (docs/rules-by-era.md).

    ``method`` "2024": Ra over the rated opponents plus ``imaginary_games`` opponents rated
    ``imaginary_rating``, all drawn; Ru = Ra + dp(p) for every p. "older" (before 2024-03): Ra
    over the rated opponents only; Ru = Ra at 50%, Ra + ``half_point_step_h`` / 100 per half
    point above 50%, Ra + dp(p) below 50%. ``floor`` is bound from the rule set
    (``RuleSet.first_rating_rules``): the era's lowest published rating."""

    method: str = "2024"
    min_games: int = 5  # games against rated opponents
    imaginary_games: int = 2  # two imaginary opponents ...
    imaginary_rating: int = 1800  # ... rated 1800 ...
    imaginary_points_h: int = 100  # ... both drawn: 2 x 0.5 = 1 point (hundredths)
    half_point_step_h: int = 0  # older: hundredths of a point per half point above 50%
    first_event_min_points_h: int = 50  # a first event scoring less is disregarded
    # ... and so is one with fewer games against rated opponents (3 before 2014-07: "plays
    # against at least three rated opponents, scores at least 1 point", FIDE news 13 Jul 2009)
    first_event_min_games: int = 0
    cap: int | None = 2200  # highest first rating (None: no cap)
    floor: int = 1400  # ratings below this are not published (first or not)
    pool_months: int = 26  # results pooled over consecutive periods of at most 26 months


def _older(step_h: int, min_games: int, min_points_h: int, first_games: int) -> FirstRatingRules:
    return FirstRatingRules(
        method="older",
        min_games=min_games,
        imaginary_games=0,
        imaginary_points_h=0,
        half_point_step_h=step_h,
        first_event_min_points_h=min_points_h,
        first_event_min_games=first_games,
        cap=None,
    )


# The eras' first-rating methods (docs/rules-by-era.md, each number with its source).
FIRST_2024 = FirstRatingRules()
# 2014-07 .. 2024-02 (K 40): 20 per half point, 5 games, a zero first event disregarded.
FIRST_2014 = _older(2000, 5, 50, 0)
# 2011-07 .. 2014-06 (K 30): 15 per half point; 9 games until 2014-06-30, and a first event
# needs 3 rated opponents and 1 point (both ended 2014-07-01).
FIRST_2011 = _older(1500, 9, 100, 3)
# before 2011-07 (K 25): 12.5 per half point ("half of the highest K value", FIDE 2009).
FIRST_2009 = _older(1250, 9, 100, 3)

# The eras' K precedences (docs/rules-by-era.md).
K_2014 = KPrecedence()
K_2011 = KPrecedence(k_junior=None, k_new_player=30, k_default=15, period_cap=None)
K_2009 = replace(K_2011, k_new_player=25)
# Rapid and blitz until 2022-09-30: K 20 for everybody, with the 700 rule.
K_FLAT_20 = KPrecedence(k_ever_2400=None, k_junior=None, k_new_player=None, k_default=20)


@dataclass(frozen=True)
class RuleSet:
    name: str
    description: str
    cap: int | None = 400  # |D| counted as at most this much; None = no cap
    cap_exempt_from: int | None = None  # players rated at or above this use the real D
    # 2022-01 .. 2024-02: a player benefits from the cap in one game per event only, the one
    # with the largest difference (pipeline.engine.four_hundred_point_rule).
    cap_once_per_event: bool = False
    # Rapid/blitz: a game is not rated for either side when |D| >= skip_gap and a player
    # is rated above skip_above.
    skip_gap: int | None = None
    skip_above: int | None = None
    k: KPrecedence = KPrecedence()
    expected_score: str = EACH_GAME  # or AVERAGE_OPPONENT (lists before July 2008)
    list_column: str = "standard"  # which rating on a FIDE list this rule set uses
    family: str = "standard"
    effective_from: str | None = None  # YYYY-MM-DD, first day in force; None: since ever
    effective_to: str | None = None  # YYYY-MM-DD, last day in force; None: still in force
    floor: int = 1400  # lowest rating published on a list
    first_rating: FirstRatingRules = FIRST_2024  # the era's initial-rating method
    list_every_months: int = 1  # monthly lists; 2 = bimonthly, 3 = quarterly
    # The first day a source gives these rules for, when the era has no start of its own (the
    # earliest era): a period before it is rated with rules nobody has checked, and says so.
    sourced_from: str | None = None
    # What docs/rules-by-era.md marks unsure about the era's rating rules ("" = nothing): every
    # run in the era says so.
    uncertain: str = ""

    @property
    def first_rating_rules(self) -> FirstRatingRules:
        """The era's first-rating method with the era's floor."""
        return replace(self.first_rating, floor=self.floor)


_STANDARD_ERAS = (
    RuleSet(
        "standard-2025",
        "FIDE standard from 2025-10-01: 400-point cap except for players rated 2650+",
        cap_exempt_from=2650,
        effective_from="2025-10-01",
    ),
    RuleSet(
        "standard-2024",
        "FIDE standard 2024-03-01 to 2025-09-30: 400-point cap for everybody",
        effective_from="2024-03-01",
        effective_to="2025-09-30",
    ),
    RuleSet(
        "standard-2022",
        "FIDE standard 2022-01-01 to 2024-02-29: 400-point cap once per event (largest gap), "
        "floor 1000",
        cap_once_per_event=True,
        effective_from="2022-01-01",
        effective_to="2024-02-29",
        floor=1000,
        first_rating=FIRST_2014,
    ),
    RuleSet(
        "standard-2014",
        "FIDE standard 2014-07-01 to 2021-12-31: K 40/20/10, 400-point cap, floor 1000",
        effective_from="2014-07-01",
        effective_to="2021-12-31",
        uncertain="whether the 700 rule applied from 2014-07 (it is applied)",
        floor=1000,
        first_rating=FIRST_2014,
    ),
    RuleSet(
        "standard-2012",
        "FIDE standard 2012-07-01 to 2014-06-30: K 30/15/10, monthly lists, floor 1000",
        k=K_2011,
        effective_from="2012-07-01",
        effective_to="2014-06-30",
        floor=1000,
        first_rating=FIRST_2011,
    ),
    RuleSet(
        "standard-2011",
        "FIDE standard 2011-07-01 to 2012-06-30: K 30/15/10, bimonthly lists, floor 1000",
        k=K_2011,
        effective_from="2011-07-01",
        effective_to="2012-06-30",
        uncertain="the date the floor became 1000 (announced June 2011, taken as 2011-07-01)",
        floor=1000,
        first_rating=FIRST_2011,
        list_every_months=2,
    ),
    RuleSet(
        "standard-2009",
        "FIDE standard 2009-07-01 to 2011-06-30: K 25/15/10, 400-point cap, bimonthly lists",
        k=K_2009,
        effective_from="2009-07-01",
        effective_to="2011-06-30",
        floor=1200,
        first_rating=FIRST_2009,
        list_every_months=2,
    ),
    # From FIDE's list of July 2008: its games, played 2008-04 .. 2008-06, were rated game by
    # game with the 350 cap (FIDE's own individual calculations for that list, issue 34).
    RuleSet(
        "standard-2008",
        "FIDE standard, lists of July 2008 to July 2009 (games of 2008-04-01 to 2009-06-30): "
        "game by game, K 25/15/10, 350-point cap, quarterly lists",
        cap=350,
        k=K_2009,
        effective_from="2008-04-01",
        effective_to="2009-06-30",
        uncertain="the floor (1801, the 2003 text: a later lowering before 2009-07 was not "
        "found) and the first list FIDE rated game by game (taken as July 2008, whose games "
        "it rated so; the April 2008 list was not checked)",
        floor=1801,
        first_rating=FIRST_2009,
        list_every_months=3,
    ),
    RuleSet(
        "standard-2006",
        "FIDE standard, lists until April 2008 (games until 2008-03-31): one difference per "
        "player and event (the average opponent), K 25/15/10, 350-point cap, quarterly lists",
        cap=350,
        k=K_2009,
        expected_score=AVERAGE_OPPONENT,
        effective_to="2008-03-31",
        sourced_from="2006-04-01",
        uncertain="the floor (1801, the 2003 text: a later lowering before 2009-07 was not "
        "found), the first list FIDE rated game by game (taken as July 2008; the April 2008 "
        "list was not checked) and the rounding of the opponents' average (whole number, .5 up)",
        floor=1801,
        first_rating=FIRST_2009,
        list_every_months=3,
    ),
)


def _fast_eras(family: str) -> tuple[RuleSet, ...]:
    """Rapid or blitz: rated by FIDE from 2012-01-01 (lists from 2012-07)."""
    title = family.capitalize()
    return (
        RuleSet(
            f"{family}-2024",
            f"FIDE {family} from 2024-12-01: cap for everybody; |D| >= 600 with a player above "
            "2600 is not rated",
            skip_gap=600,
            skip_above=2600,
            list_column=family,
            family=family,
            effective_from="2024-12-01",
        ),
        RuleSet(
            f"{family}-2022",
            f"FIDE {family} 2022-10-01 to 2024-11-30: K as in standard, cap for everybody",
            list_column=family,
            family=family,
            effective_from="2022-10-01",
            effective_to="2024-11-30",
            floor=1000,
            first_rating=FIRST_2014,
        ),
        RuleSet(
            f"{family}-2012",
            f"{title} 2012-01-01 to 2022-09-30: K 20 for everybody (700 rule), cap for everybody",
            k=K_FLAT_20,
            list_column=family,
            family=family,
            effective_from="2012-01-01",
            uncertain="the cap (400 is used; one reading of the regulations gives 735)",
            effective_to="2022-09-30",
            floor=1000,
            first_rating=FIRST_2014,
        ),
    )


ERAS: dict[str, tuple[RuleSet, ...]] = {
    "standard": _STANDARD_ERAS,
    "rapid": _fast_eras("rapid"),
    "blitz": _fast_eras("blitz"),
}
FAMILIES = tuple(ERAS)

# Every era by its own name; a family's name is its latest era (what ``get_rules`` returns).
RULE_SETS: dict[str, RuleSet] = {
    **{family: eras[0] for family, eras in ERAS.items()},
    **{r.name: r for eras in ERAS.values() for r in eras},
}

DEFAULT_RULES = "standard"


def get_rules(name: str) -> RuleSet:
    """The rule set of that name; a family's name (standard, rapid, blitz) gives its latest era
    (``pipeline.rules.select.select_rules`` chooses by date)."""
    try:
        return RULE_SETS[name]
    except KeyError:
        known = ", ".join(RULE_SETS)
        raise RunError(f"unknown rule set {name!r}; choose one of: {known}") from None
