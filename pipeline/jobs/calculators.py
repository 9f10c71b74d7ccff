"""The calculator jobs: ``calc`` (what one player's games are worth), ``table`` (the
win-expectancy table) and ``performance`` (a performance rating). Each takes a frozen request
and returns the value the renderers (:mod:`pipeline.calculator.calc_text`) print.

No pandas here (nor in what this imports): the small commands start in a blink (issue 13).
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.calculator.calc import CalcRequest, Calculation, KInput, calculate, every_result
from pipeline.calculator.expectancy import MAX_GAP, ExpectancyTable, expectancy_table
from pipeline.grouper.performance import Performance
from pipeline.grouper.performance import performance as fide_performance


def calc(request: CalcRequest) -> Calculation:
    """The change each game of ``request`` brings, and the period's total (every result
    given: ``request.scores_h`` has one per opponent)."""
    return calculate(request)


def every_outcome(request: CalcRequest) -> dict[str, Calculation]:
    """One game whose result is not given: what a win, a draw and a loss are each worth."""
    return every_result(request)


@dataclass(frozen=True)
class TableRequest:
    """``fiderate table``: gaps 0 to ``max_gap`` by ``step``, worth with ``k``, the rule set's
    400-point rule applied to both sides when ``cap``."""

    k: int = 20
    step: int = 50
    max_gap: int = 800
    rules: str = "standard"
    cap: bool = False


def table(request: TableRequest) -> ExpectancyTable:
    """The favourite's expected score for each gap, and what each result is worth."""
    return expectancy_table(request.k, request.step, request.max_gap, request.rules, request.cap)


@dataclass(frozen=True)
class PerformanceRequest:
    """``fiderate performance``: the opponents' ratings and the points scored, in hundredths."""

    opponents: tuple[int, ...]
    score_h: int

    def __post_init__(self) -> None:
        # A list given for ``opponents`` would leave the request mutable through it.
        object.__setattr__(self, "opponents", tuple(self.opponents))


def performance(request: PerformanceRequest) -> Performance:
    """The FIDE performance rating (and the linear approximation) of ``request``."""
    return fide_performance(list(request.opponents), request.score_h)


__all__ = [
    "MAX_GAP",
    "CalcRequest",
    "KInput",
    "PerformanceRequest",
    "TableRequest",
    "calc",
    "every_outcome",
    "performance",
    "table",
]
