"""What every engine shares around the rating itself: the options checked once (:class:`RunPlan`),
the executor an engine plugs in (:class:`Executor`), the refusal of options an executor cannot
honour, and the one finish (K, the 700 rule, the change) of :func:`finish_period`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import pandas as pd

from pipeline.engine import SCALES
from pipeline.errors import RunError, UsageError
from pipeline.jobs.event_period import choose_period
from pipeline.model import (
    GamesInput,
    PlayerList,
    RateOptions,
    ReadOptions,
    RunPlan,
    SidesInput,
)
from pipeline.rules.modes import MODES
from pipeline.rules.select import select_rules
from pipeline.rules.sets import get_rules


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
