"""The plan of a run, decided once before anything is rated: the rule set in force, the rating
period and the unit of the expected scores (:class:`pipeline.model.RunPlan`), from the options
and the events' own dates (:mod:`pipeline.planning.event_period`). A bad option is a
:class:`~pipeline.errors.RunError` here, before any reading."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.errors import RunError
from pipeline.model import GamesInput, RateOptions, RunPlan, SidesInput
from pipeline.planning.event_period import choose_period
from pipeline.rules.methods import SCALES
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
