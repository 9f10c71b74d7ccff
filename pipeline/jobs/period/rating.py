"""The rating stage of a period: each event rated with the list in force when it started.

``fiderate rate`` rates every event with one list (:func:`engine.rate_events.rate_events`); a
period takes each event's ratings from its own list (RULES.md section 6,
:func:`engine.rate_events.rate_with_event_lists`) and adds the changes to the list in force at
the start of the period. Both then share the same engine and totals steps
(:func:`engine.rate_events.rate_assembled`, :func:`grouper.period_result.total_rated`): one
implementation of each rule, no flag choosing a job.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.engine import rate_events
from pipeline.grouper.period_result import total_rated
from pipeline.model import GamesInput, PlayerList, RatedPeriod, RateOptions, SidesInput
from pipeline.planning.run_plan import plan_run


def rate_with_event_lists(
    inputs: list[GamesInput | SidesInput],
    players: PlayerList | None,
    event_players: Sequence[PlayerList | None],
    options: RateOptions,
) -> RatedPeriod:
    """Rate ``inputs`` as one period, the sides of ``inputs[i]`` with the ratings of
    ``event_players[i]`` (the list in force when that event started); ``players`` is the list
    in force at the start of the period (the ratings the changes are added to)."""
    plan = plan_run(options, inputs)
    games = rate_events.rate_with_event_lists(inputs, players, event_players, options, plan)
    return total_rated(games, players, options, plan)
