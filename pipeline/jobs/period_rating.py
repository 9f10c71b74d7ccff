"""The rating stage of a period: each event rated with the list in force when it started.

``fiderate rate`` rates every event with one list (:func:`engine.rate_events.rate_events`); a
period takes each event's ratings from its own list (RULES.md section 6) and adds the changes to
the list in force at the start of the period. Both then share the same engine and totals steps
(:func:`engine.rate_events.rate_assembled`, :func:`grouper.period_result.total_rated`): one
implementation of each rule, no flag choosing a job.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.engine.assemble import assemble_each, list_ratings
from pipeline.engine.late_first_rating import late_first_ratings
from pipeline.engine.rate_events import rate_assembled
from pipeline.engine.side_codes import side_codes_and_texts
from pipeline.grouper.period_result import total_rated
from pipeline.jobs.plan import plan_run
from pipeline.model import GamesInput, PlayerList, RatedPeriod, RateOptions, SidesInput


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
    codes, texts = side_codes_and_texts(inputs)
    sides = assemble_each(inputs, event_players)
    # 8.2.4: first ratings published since an event started. None when every event is a games
    # file assembled with ``players`` itself: a side's rating is then its printed one or that
    # list's, so no side is unrated where that list rates its player.
    if players is not None and not all(
        p is players and isinstance(i, GamesInput)
        for i, p in zip(inputs, event_players, strict=True)
    ):
        sides = late_first_ratings(sides, list_ratings(sides["player"], players))
    # The sides' texts built with them (coded=False): the period's report and history read them.
    games = rate_assembled(inputs, sides, options, plan, codes, texts)
    return total_rated(games, players, options, plan)
