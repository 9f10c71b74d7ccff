"""The rated period finished from the per-player partial sums of every side: K, the 700 rule,
the change rounded once and the new list checked against its schema. The one finish of both
engines (one process, or the Dask workers' partials combined) and of both jobs (rate, period).
"""

from __future__ import annotations

import pandas as pd

from pipeline.engine.rate_events import rate_in_order
from pipeline.grouper.kfactor import assumed_k_warning
from pipeline.grouper.roster import event_players_only, listed_event_players
from pipeline.grouper.totals import finish_totals, partial_totals
from pipeline.keys.id_lookup import same_ids
from pipeline.model import PlayerList, RatedGames, RatedPeriod, RateOptions, RunPlan
from schemas import RatingList, validate


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
    assumed = assumed_k_warning(totals)
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
        warnings=[*plan.warnings, *([assumed] if assumed else [])],
        totals_ids=players.lookup() if shared and players is not None else None,
    )
    return result


def total_games(
    games: RatedGames, players: PlayerList | None, options: RateOptions, plan: RunPlan
) -> RatedPeriod:
    """The engine's rated ``games`` totalled per player and the period finished
    (:func:`finish_period`), the games' codes passed on for the outputs."""
    partials = partial_totals(games.sides, 0, games.side_players)
    result = finish_period(games.sides, partials, players, options, plan, games.sources)
    result.side_players, result.side_texts = games.side_players, games.side_texts
    return result


def total_rated(
    games: RatedGames, players: PlayerList | None, options: RateOptions, plan: RunPlan
) -> RatedPeriod:
    """The grouper's stage: the engine's rated ``games`` totalled, for every job that rates. The
    sequential mode (not the FIDE method) needs each player's K first: it totals, has the engine
    re-rate the games in order with that K, then totals again."""
    if options.mode == "sequential":
        fide = total_games(games, players, options, plan)
        games = rate_in_order(games, fide.totals.set_index("id")["k"], options, plan)
    return total_games(games, players, options, plan)
