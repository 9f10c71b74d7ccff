"""Step 1 of a period run once the events are rated (:mod:`pipeline.jobs.period`): the first
ratings, the next list and the change report, under the rules of the period's era."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import pandas as pd

from pipeline.engine.matches import MATCH_NOTES
from pipeline.history import store as history
from pipeline.keys.frame_lookup import member
from pipeline.lists.change_report import PeriodReport, build_report
from pipeline.lists.first_rating import (
    FirstRatings,
    empty_pool,
    event_results,
    first_ratings,
    pool_games,
)
from pipeline.lists.next_list import next_list
from pipeline.model import RatedPeriod, UnitFacts
from pipeline.rules.rating_kinds import kind_of_rules
from pipeline.rules.select import select_rules
from pipeline.rules.sets import FirstRatingRules, RuleSet


def publish_results(
    result: RatedPeriod,
    units: Sequence[UnitFacts],
    base: pd.DataFrame,
    new_ids: pd.Index,
    con: sqlite3.Connection | None,
    period: str,
    replaced: int | None,
    rules: str,
) -> tuple[FirstRatings, pd.DataFrame, PeriodReport, RuleSet]:
    """(the first ratings, the next list, the report, the era's rules) of a rated period;
    ``base`` is the list in force plus the new players (``new_ids``) the period was rated with."""
    chosen = select_rules(rules, period)  # the era, and why (said in the report)
    era = chosen.rules
    first_rules = era.first_rating_rules  # the era's method and floor
    kind = kind_of_rules(rules)  # each kind of list has its own pool of pending results
    first = _first_ratings(result, units, base, con, period, replaced, first_rules, kind)
    new, status = next_list(base, result.totals, first, period, era, new_ids, first_rules)
    report = build_report(
        base,
        new,
        status,
        result.totals,
        result.sides,
        first,
        result.scale,
        period,
        new_ids,
        first_rules,
        f"{era.name}: {chosen.reason}",
        result.totals_ids,
    )
    return first, new, report, era


def _first_ratings(
    result: RatedPeriod,
    units: Sequence[UnitFacts],
    base: pd.DataFrame,
    con: sqlite3.Connection | None,
    period: str,
    replaced: int | None,
    rules: FirstRatingRules,
    rating_kind: str,
) -> FirstRatings:
    """The first ratings of this period: the unrated players' results pooled with the history's
    (of the same kind of list)."""
    keys = pd.DataFrame(
        {
            "source": [u.source for u in units],
            "event": [u.name for u in units],
            "event_sha256": [u.file.sha256 for u in units],
            "start_date": [u.start_date for u in units],
        },
        dtype=str,  # no events (a month without any): text columns still, as the sides'
    ).drop_duplicates(["source", "event"])
    # Only the columns the first ratings need: a merge copies every column it is given.
    needed = ["player", "event", "source", "played", "player_rating", "opponent_rating", "score_h"]
    # A match's unrated games (6.1, 6.2) count towards no first rating either.
    counted = pool_games(result.sides)
    counted[counted] = ~member(result.sides["note"][counted], MATCH_NOTES)
    # Only the sides that can count (event_results' own test, done first): a merge of every
    # side of a FIDE month with the events' keys took seconds.
    sides = result.sides.loc[counted, needed].merge(
        keys, on=["source", "event"], how="left", validate="many_to_one"
    )
    candidates = pd.Index(base.loc[base["rating"].isna(), "id"])
    earlier = (
        history.pending_results(con, replaced, rating_kind=rating_kind)
        if con is not None
        else empty_pool()
    )
    return first_ratings(event_results(sides, candidates, period), earlier, period, rules)
