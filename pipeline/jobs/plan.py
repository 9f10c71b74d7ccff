"""What every engine shares around the rating itself: the options checked once (:class:`RunPlan`),
the executor an engine plugs in (:class:`Executor`), the refusal of options an executor cannot
honour, and the one finish (K, the 700 rule, the change) of :func:`finish_period`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import pandas as pd

from pipeline.engine import SCALES
from pipeline.errors import RunError, UsageError
from pipeline.grouper.roster import event_players_only, listed_event_players
from pipeline.grouper.totals import finish_totals
from pipeline.jobs.event_period import choose_period
from pipeline.keys.id_lookup import same_ids
from pipeline.model import (
    GamesInput,
    PlayerList,
    RatedPeriod,
    RateOptions,
    ReadOptions,
    SidesInput,
)
from pipeline.rules.modes import MODES
from pipeline.rules.select import select_rules
from pipeline.rules.sets import RuleSet, get_rules
from schemas import RatingList, validate


@dataclass(frozen=True)
class RunPlan:
    """What every engine needs of the options, checked once before any file is read."""

    rules: RuleSet
    period: str
    scale: int  # pd_units / scale is the expected score
    period_reason: str = "given with --period"
    rules_reason: str = ""
    warnings: tuple[str, ...] = ()  # inputs dated outside the period; the era's (select)

    @property
    def year(self) -> int:
        return int(self.period[:4])


def plan_run(
    options: RateOptions, inputs: Sequence[GamesInput | SidesInput] | None = None
) -> RunPlan:
    """The rule set, period and scale of ``options``; a bad option is a :class:`RunError`.

    The period is ``--period``, else the month the ``inputs`` end in (their own dates), else the
    current month; the rule set is the one of ``--rules`` in force in that period."""
    if options.method not in SCALES:
        raise RunError(f"--method must be one of {', '.join(SCALES)} (got {options.method!r})")
    if options.mode not in MODES:
        raise RunError(f"--mode must be one of {', '.join(MODES)} (got {options.mode!r})")
    get_rules(options.rules)  # an unknown name fails here, before any reading
    chosen = choose_period(inputs or [], options.period)
    rules = select_rules(options.rules, chosen.period)
    return RunPlan(
        rules.rules,
        chosen.period,
        SCALES[options.method],
        chosen.reason,
        rules.reason,
        (*chosen.warnings, *rules.warnings),
    )


class Executor(Protocol):
    """Rates files somewhere else (a cluster) and hands back per-player partial sums
    (``pipeline.grouper.totals.PARTIAL_COLUMNS``) of every side of the period."""

    @property
    def name(self) -> str: ...

    def refusals(self, options: RateOptions, reading: ReadOptions) -> list[str]:
        """The options (as ``--flag value: why``) this executor cannot honour."""
        ...

    def partials(
        self,
        files: list[str],
        players: PlayerList | None,
        options: RateOptions,
        plan: RunPlan,
        reading: ReadOptions,
    ) -> pd.DataFrame: ...


def refuse(engine: str, refusals: Sequence[str]) -> None:
    """Stop before anything is read when ``engine`` cannot honour an option (all listed)."""
    if refusals:
        listed = "\n".join(f"  {r}" for r in refusals)
        raise UsageError(
            f"--engine {engine} cannot honour these options:\n{listed}\n"
            f"Run with --engine pandas, or leave the options out."
        )


def finish_period(
    sides: pd.DataFrame,
    partials: pd.DataFrame,
    players: PlayerList | None,
    options: RateOptions,
    plan: RunPlan,
    sources: list[str],
) -> RatedPeriod:
    """K, the 700 rule, the rounded change and the new list from the partials of every side:
    the one finish of both engines."""
    if not options.all_players and players is not None:
        players = listed_event_players(players, partials["player"])
    totals = finish_totals(
        partials,
        players,
        plan.rules,
        plan.scale,
        plan.year,
        forced_k=options.k,
        k_cap=options.k_cap,
    )
    if not options.all_players:  # ``rate``: only the events' players (--all-players: all)
        totals = event_players_only(totals, partials["player"])
    # The list's id look-up serves the totals too when both list the same ids in the same order
    # (a period's totals are its list in force, row for row): one look-up, not two.
    shared = players is not None and same_ids(players.players["id"], totals["id"])
    result = RatedPeriod(
        sides=sides,
        totals=validate(totals, RatingList, internal=True),
        options=options,
        scale=plan.scale,
        period=plan.period,
        sources=sources,
        period_reason=plan.period_reason,
        rule_set=plan.rules.name,
        rules_reason=plan.rules_reason,
        warnings=list(plan.warnings),
        totals_ids=players.lookup() if shared and players is not None else None,
    )
    return result
