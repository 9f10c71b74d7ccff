"""The title-norm requirements as data: one frozen rule table per title (GM, IM, WGM, WIM).

Every field names the FIDE Handbook section it comes from (``SECTIONS``); docs/norms.md quotes
the texts and says where a source is unsure. Shares are kept as fractions and thresholds as
Decimals, so every check is an exact integer comparison (see :mod:`pipeline.norms.requirements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction

from pipeline.rules import sexes

# Title holders that count for the 50% rule: the titles of 0.3, without CM and WCM.
TITLED = frozenset({"GM", "IM", "FM", "WGM", "WIM", "WFM"})
# Titles that count as "holding a GM/IM/WGM/WIM title" for the 1.4.3 Swiss exception.
NORM_TITLES = frozenset({"GM", "IM", "WGM", "WIM"})
# Federation codes that are no federation for the mix of opponents (FIDE-flag players, blank).
NO_FEDERATION = frozenset({"", "FID"})
# Sex codes of a player known to be female (pipeline/rules/sexes.py): only they are checked for
# WGM and WIM norms. Blank is unknown.
FEMALE = sexes.FEMALE


@dataclass(frozen=True)
class NormRule:
    """What one title's norm needs. Fields common to all titles have the Handbook's defaults."""

    title: str
    performance_min: Decimal  # Rp before rounding (Rp = Ra + dp is a whole number)
    average_min: int  # Ra, the opponents' average after the floor adjustment, rounded .5 up
    floor: int  # the lowest-rated opponent is raised to this (one opponent at most)
    holders: frozenset[str]  # opponents' titles that count as the norm's title (or above)
    women_only: bool = False
    score_min: Fraction = Fraction(35, 100)
    unrated_as: int = 1400
    games_min: int = 9
    games_max: int = 13
    titled_share: Fraction = Fraction(1, 2)
    holders_share: Fraction = Fraction(1, 3)
    holders_min: int = 3
    foreign_federations_min: int = 2
    own_federation_max: Fraction = Fraction(3, 5)
    one_federation_max: Fraction = Fraction(2, 3)
    # 1.4.3 exception (Swiss): rated players not of the host federation, their federations, and
    # how many of them hold a GM/IM/WGM/WIM title.
    exception_foreign_rated: int = 20
    exception_federations: int = 3
    exception_titled: int = 10

    @property
    def held_by(self) -> frozenset[str]:
        """Titles whose holder gains nothing from this norm: the title itself and GM, and for
        WIM every title that counts as one (IM, WGM)."""
        return frozenset({self.title, "GM"} | (NORM_TITLES if self.title == "WIM" else set()))


# Handbook B.01 (Title Regulations) sections, as the 2024 text numbers them (the reading note
# of B.01 2024 by Sharly-Chess, article by article; docs/norms.md: "Sources").
SECTIONS: dict[str, str] = {
    "min_games": "B.01 1.4.1 (at least 9 games; 1.4.1c 8 + a forfeit win or pairing bye of 9)",
    "forfeits": "B.01 1.4.2 (forfeits and games not played over the board are not counted)",
    "all_rounds": "B.01 1.4.1e (predetermined pairings: all scheduled rounds)",
    "foreign_federations": "B.01 1.4.3 (two federations other than the player's)",
    "own_federation": "B.01 1.4.4 (at most 3/5 of the opponents from the player's federation)",
    "one_federation": "B.01 1.4.4 (at most 2/3 of the opponents from one federation)",
    "exception": "B.01 1.4.3d (Swiss: 20 foreign rated players, 3 federations, 10 GM/IM/WGM/WIM)",
    "titled": "B.01 1.4.5a (at least 50% title holders, not CM/WCM)",
    "holders": "B.01 1.4.5b-e (at least 1/3, and 3, holding the norm's title or a higher one)",
    "floor": "B.01 1.4.6b-c (the lowest opponent raised to the floor, one opponent at most)",
    "unrated": "B.01 1.4.6d (unrated opponents count as 1400; 1000 before 2022)",
    "min_average": "B.01 1.4.7-1.4.8a (Ra rounded .5 up; minimum average)",
    "min_performance": "B.01 1.4.8 (Rp = Ra + dp from table 1.4.9; minimum before rounding)",
    "min_score": "B.01 1.4.8b (at least 35%)",
}

GM = NormRule(
    "GM",
    performance_min=Decimal("2599.5"),
    average_min=2380,
    floor=2200,
    holders=frozenset({"GM"}),
)
IM = NormRule(
    "IM",
    performance_min=Decimal("2449.5"),
    average_min=2230,
    floor=2050,
    holders=frozenset({"GM", "IM"}),
)
WGM = NormRule(
    "WGM",
    performance_min=Decimal("2399.5"),
    average_min=2180,
    floor=2000,
    holders=frozenset({"GM", "IM", "WGM"}),
    women_only=True,
)
WIM = NormRule(
    "WIM",
    performance_min=Decimal("2249.5"),
    average_min=2030,
    floor=1850,
    holders=frozenset({"GM", "IM", "WGM", "WIM"}),
    women_only=True,
)

NORM_RULES: dict[str, NormRule] = {rule.title: rule for rule in (GM, IM, WGM, WIM)}


@dataclass(frozen=True)
class NormEra:
    """The norm rules in force for events starting from ``effective_from`` to ``effective_to``
    (inclusive; None: open): what differs from the 2024 text above, per title. Sources and their
    quality: docs/norms.md ("The rules by era")."""

    name: str
    effective_from: str | None
    effective_to: str | None
    unrated_as: int
    performance_min: Mapping[str, Decimal] = field(default_factory=dict)

    def rules(self) -> dict[str, NormRule]:
        return {
            title: replace(
                rule,
                unrated_as=self.unrated_as,
                performance_min=self.performance_min.get(title, rule.performance_min),
            )
            for title, rule in NORM_RULES.items()
        }


NORM_ERAS: tuple[NormEra, ...] = (
    # B.01 2024 1.4.6d: "Unrated opponents not covered by 1.4.6b shall be considered to be
    # rated 1400" (verbatim); from 2022-01-01 per the issue's sources (indirect for 2022-2023).
    NormEra("B.01 2022", "2022-01-01", None, 1400),
    # Before 2022 an unrated opponent counted 1000 (indirect: the 2017 text's 1.46d as adapted
    # by a draughts federation); thresholds 2600/2450/2400/2250 from 2009-07-01 (chesselo).
    NormEra("B.01 2009", "2009-07-01", "2021-12-31", 1000),
    # "Before 1 July 2009 ... For the GM Norm 2601 / For the IM Norm 2451" (chesselo,
    # secondary): a performance of at least 2601 is 2600.5 before rounding.
    NormEra(
        "B.01 before 2009-07",
        None,
        "2009-06-30",
        1000,
        {"GM": Decimal("2600.5"), "IM": Decimal("2450.5")},
    ),
)


def norm_era_on(day: str | None) -> NormEra:
    """The norm rules in force on ``day`` (YYYY-MM-DD, the event's start); None: today's."""
    if day:
        for era in NORM_ERAS:
            if (era.effective_from or "") <= day <= (era.effective_to or "9999"):
                return era
    return NORM_ERAS[0]


# What an event file cannot say: listed on every norm report "to confirm", never assumed.
TO_CONFIRM: tuple[str, ...] = (
    "the chief arbiter is licensed and the event was registered for norms (B.01 1.1)",
    "time control and at most two rounds a day (B.01 1.1)",
    "titles held at the start of the event, ratings of the list in force at its start (1.4.6)",
    "no game against a computer, a player of no FIDE federation, or decided other than over "
    "the board (1.4.2); the event file shows forfeits only",
    "the event types that waive the federation mix, 1.4.3 and 1.4.4 both (national "
    "championship finals, national team championships, zonals: 1.4.3a-c), are not in the file",
)
