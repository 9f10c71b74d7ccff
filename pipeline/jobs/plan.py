"""What every engine of the rate job shares around the rating itself: the executor an engine
plugs in (:class:`Executor`) and the refusal of options an executor cannot honour. The run's
plan (rules, period, scale) is :func:`pipeline.planning.run_plan.plan_run`, re-exported here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import pandas as pd

from pipeline.errors import UsageError
from pipeline.model import (
    PlayerList,
    RateOptions,
    ReadOptions,
    RunPlan,
)
from pipeline.planning.run_plan import plan_run


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


__all__ = ["Executor", "plan_run", "refuse"]
