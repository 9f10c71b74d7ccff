"""``fiderate history PLAYER_ID``: a player's ratings over the recorded periods, as jobs that
only read the database (never change or create it), each a request in and a plain value out
that the CLI and the web pages render alike:

- :func:`run_history`: every list the player is on (standard, rapid and blitz, or one kind),
  and per period rated the K that rated the games (beside the next list's K, which rates the
  next period), the score and the change;
- :func:`run_calculation`: one period's calculation of one kind of list, game by game
  (opponent, rating, difference, PD, S - PD, K x (S - PD)), summing exactly to the change, with
  the era's words for how the difference was counted;
- :func:`history_overview`: the lists and the pending first-rating results of the database.

Finding a player by name or id is the rating site's search (:mod:`pipeline.site.name_search`,
one rule for ``serve``'s pages and the static site), not a job of its own here.

Numbers are text made from the stored integers (never through a float), as the period's CSVs
write them.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.calculator.calc_text import fixed
from pipeline.errors import NotInHistory, RunError
from pipeline.history import store
from pipeline.history.database import reading
from pipeline.history.list_reading import names_on_list
from pipeline.history.period_calculations import (
    StoredPeriod,
    live_periods,
    player_changes,
    player_games,
    published_content,
)
from pipeline.rules.counted_words import counted_heading, counted_words, method_words
from pipeline.rules.rating_kinds import DEFAULT_KIND, KINDS, check_kind
from pipeline.rules.select import rules_in_force
from pipeline.rules.sets import RuleSet, get_rules

NOT_STORED = (
    "not stored: the period was rated by a fiderate older than history schema 4, which kept "
    "no calculation"
)


@dataclass(frozen=True)
class HistoryRequest:
    player_id: str
    database: Path  # the history database written by ``fiderate period``
    rating_kind: str | None = None  # standard, rapid or blitz; None: every kind


@dataclass(frozen=True)
class PlayerHistory:
    player_id: str
    database: Path
    # One row per list the player is on, kind by kind (standard, rapid, blitz: ``rating_kind``),
    # oldest first; a published list's row also carries its period's calculation: k_used,
    # next_k, score, change_exact, change, calculation.
    lists: list[dict[str, object]]
    pending: list[dict[str, object]]  # results still waiting for a first rating, by kind
    kinds: tuple[str, ...] = ()  # the kinds of list the player is on, in KINDS order


def run_history(request: HistoryRequest) -> PlayerHistory:
    if request.rating_kind is not None:
        check_kind(request.rating_kind)
    rows, pending = reading(
        request.database, lambda con: _history(con, request.player_id, request.rating_kind)
    )
    if not rows:
        on = "no list" if request.rating_kind is None else f"no {request.rating_kind} list"
        raise NotInHistory(f"player {request.player_id!r} is on {on} in {str(request.database)!r}")
    kinds = tuple(dict.fromkeys(str(r["rating_kind"]) for r in rows))
    return PlayerHistory(request.player_id, request.database, rows, pending, kinds)


def _history(
    con: sqlite3.Connection, player_id: str, rating_kind: str | None = None
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    rows = store.player_history(con, player_id, rating_kind)
    kinds = KINDS if rating_kind is None else (rating_kind,)
    periods = {kind: live_periods(con, kind) for kind in kinds}
    changes = player_changes(con, player_id) if rows else {}
    for row in rows:
        live = periods[str(row["rating_kind"])]
        stored = live.get(str(row["period"])) if row["kind"] == "published" else None
        if row["superseded"]:
            stored = None  # a replaced period's list: its live run is another one
        change = changes.get(stored.run_id) if stored is not None else None
        scale = stored.scale if stored is not None else None
        row.update(
            k_used=change.k if change else None,
            k_rule=change.k_rule if change else None,
            # The K this list gives: it rates the next period.
            next_k=row["k"] if row["kind"] == "published" else None,
            score=fixed(change.score_h, 100, 1) if change else None,
            change_exact=fixed(change.change_units, scale, 2) if change and scale else None,
            change=change.change if change else None,
            calculation=scale is not None,
        )
    return rows, store.player_pending(con, player_id, rating_kind)


@dataclass(frozen=True)
class CalculationRequest:
    player_id: str
    period: str  # YYYY-MM, a period the history published
    database: Path
    # The kind of list the period was published for; None: the first kind (standard, rapid,
    # blitz) that rated the player's games in the period.
    rating_kind: str | None = None


@dataclass(frozen=True)
class PlayerCalculation:
    """A player's calculation of one period: the change is K x sum(S - PD), rounded once."""

    player_id: str
    name: str
    period: str
    rating: int  # the rating the change is added to
    k: int  # the K that rated the games
    k_rule: str  # why that K
    next_k: int | None  # the next list's K (rates the next period)
    score: str
    expected: str  # sum of PD
    sum_dev: str  # sum of S - PD
    change_exact: str  # K x sum(S - PD)
    change: int
    new_rating: int | None
    # Per game: opponent (id), opponent_name, opponent_rating, gap (as played; None if not
    # stored), diff (as counted), counted (why, in rate's words), pd, score, s_minus_pd,
    # k_x_s_minus_pd, event, round, note.
    games: list[dict[str, object]]
    rating_kind: str = DEFAULT_KIND  # standard, rapid or blitz
    rules: str = ""  # the rule set (era) that rated the period
    rules_assumed: bool = False  # not stored (before schema 5): the era in force, assumed
    counted_heading: str = ""  # the era's words for the counted difference's column
    method_words: str = ""  # the era's sentence: how each game's expectation was read


def run_calculation(request: CalculationRequest) -> PlayerCalculation:
    if request.rating_kind is not None:
        check_kind(request.rating_kind)
    return reading(request.database, lambda con: _calculation(con, request))


def period_rules(stored: StoredPeriod) -> tuple[RuleSet, bool]:
    """(the rule set that rated ``stored``, whether it is assumed): the era the run stored, or
    for a period published before schema 5 the era its kind's rules give for the period."""
    if stored.rules is not None:
        try:
            return get_rules(stored.rules), False
        except RunError:  # an era this fiderate no longer knows: the one in force instead
            pass
    return rules_in_force(stored.rating_kind, stored.period), True


def _calculation(con: sqlite3.Connection, request: CalculationRequest) -> PlayerCalculation:
    who, period, kind = request.player_id, request.period, request.rating_kind
    if kind is None:
        changes = player_changes(con, who)
        published = [k for k in KINDS if period in live_periods(con, k)]
        played = [k for k in published if live_periods(con, k)[period].run_id in changes]
        kind = (played or published or [DEFAULT_KIND])[0]
    stored = live_periods(con, kind).get(period)
    if stored is None:
        what = "no period" if request.rating_kind is None else f"no {kind} list for period"
        raise NotInHistory(f"{what} {period!r} was published in {str(request.database)!r}")
    if stored.scale is None:
        raise NotInHistory(f"the calculation of {period}: {NOT_STORED}")
    change = player_changes(con, who).get(stored.run_id)
    if change is None:
        raise NotInHistory(f"player {who!r} has no rated game in {period} (or is not rated)")
    scale, k = stored.scale, change.k
    rules, assumed = period_rules(stored)
    places = 2 if scale == 100 else 4  # PD from the table: 2 decimals; from the formula: 4
    stored_games = player_games(con, stored.run_id, who)
    # The names on the list the period published (the players' own, once rated).
    content = published_content(con, stored.run_id)
    names = (
        names_on_list(con, content, [who, *(str(g["opponent"]) for g in stored_games)])
        if content is not None
        else {}
    )
    gaps, counted = _counted(stored_games, rules)
    games = [
        {
            "event": g["event"],
            "round": g["round"],
            "opponent": g["opponent"],
            "opponent_name": names.get(str(g["opponent"]), ""),
            "opponent_rating": g["opponent_rating"],
            "gap": gap,
            "diff": g["diff"],
            "counted": why,
            "pd": fixed(g["pd_units"], scale, places),
            "score": fixed(g["score_h"], 100, 1),
            "s_minus_pd": fixed(g["dev_units"], scale, places),
            "k_x_s_minus_pd": fixed(k * g["dev_units"], scale, places),
            "note": g["note"],
        }
        for g, gap, why in zip(stored_games, gaps, counted, strict=True)
    ]
    return PlayerCalculation(
        player_id=who,
        name=names.get(who, ""),
        period=period,
        rating=change.rating,
        k=k,
        k_rule=change.k_rule,
        next_k=change.next_k,
        score=fixed(change.score_h, 100, 1),
        expected=fixed(sum(g["pd_units"] for g in stored_games), scale, places),
        sum_dev=fixed(sum(g["dev_units"] for g in stored_games), scale, places),
        change_exact=fixed(change.change_units, scale, places),
        change=change.change,
        new_rating=change.new_rating,
        games=games,
        rating_kind=stored.rating_kind,
        rules=rules.name,
        rules_assumed=assumed,
        counted_heading=counted_heading(rules),
        method_words=method_words(rules),
    )


def _counted(games: list[dict], rules: RuleSet) -> tuple[list[int | None], list[str]]:
    """Each stored game's difference as played (own rating - opponent's) and why it counted as
    it did, in the words of rate's report (``rules.counted_words``); None and '' for a game
    stored before the history kept the rating used and the engine's reason."""
    gaps = [
        None if g.get("rating_used") is None or g["opponent_rating"] is None
        else g["rating_used"] - g["opponent_rating"]
        for g in games
    ]  # fmt: skip

    def column(values: list) -> np.ndarray:
        return np.array([0 if v is None else v for v in values], dtype=np.int64)

    words = counted_words(
        column([g.get("counted_why") for g in games]),
        column(gaps),
        column([g["diff"] for g in games]),
        column([g.get("rating_used") for g in games]),
        column([g.get("rc") for g in games]),
        rules,
    )
    return gaps, [str(w) for w in words]


@dataclass(frozen=True)
class OverviewRequest:
    database: Path  # the history database written by ``fiderate period``


@dataclass(frozen=True)
class HistoryOverview:
    database: Path
    lists: list[dict[str, object]]  # every list recorded, newest first
    pending: list[dict[str, object]]  # every result waiting for a first rating, oldest first


def history_overview(request: OverviewRequest) -> HistoryOverview:
    """The lists and the pending first-rating results of a history database (read-only)."""
    from pipeline.history.overview import read_overview

    lists, pending = read_overview(request.database)
    return HistoryOverview(request.database, lists, pending)
