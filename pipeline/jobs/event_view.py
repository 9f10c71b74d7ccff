"""What a page shows of a rated event: the standings and, for each player, the calculation laid
out as FIDE's individual calculations (each game: opponent, rating, difference and the one the
400-point rule counts, expected score, result, S - PD, K x (S - PD); then the totals, K and why,
and the one rounding).

Built from the ``rate`` job's own result value (:class:`pipeline.model.RatedPeriod`): its sides
and totals hold every number (the engine's and the grouper's), so a page shows exactly what
``fiderate rate`` wrote. The standings are those of the reports (``grouper.standings``). Plain
data out: a renderer only formats it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from pipeline.arrays.number_text import pd_decimals
from pipeline.engine.average_opponent_method import average_opponents
from pipeline.engine.sides import with_side_texts
from pipeline.file_names import event_title
from pipeline.grouper.standings import standings
from pipeline.lists.next_list import STATUS_POOL
from pipeline.model import RatedPeriod
from pipeline.rules.counted_words import (
    counted_heading,
    counted_note,
    is_average_method,
    method_words,
    rules_as_used,
)
from pipeline.rules.sets import RuleSet, get_rules


@dataclass(frozen=True)
class GameLine:
    """One game side of the player (units of 1/``scale`` where the name says so)."""

    round: str
    opponent_id: str
    opponent_name: str
    opponent_rating: int | None
    result: str
    score_h: int
    rated: bool
    note: str
    gap: int | None  # own rating - opponent's
    gap_used: int | None  # the difference the expectation was read for (400-point rule)
    pd_units: int | None
    dev_units: int | None
    k_dev_units: int | None
    cap_note: str = ""  # why the difference counted as it did (engine.counted), or ""


@dataclass(frozen=True)
class PlayerCalculation:
    """One player's period: the games, then the totals as the rating list has them."""

    id: str
    name: str
    title: str
    federation: str
    rating: int | None
    k: int | None
    k_base: int | None
    k_rule: str
    k_700: bool
    k_assumed: bool  # the input could not decide the K (k_rule says what it lacked)
    games: int
    score_h: int
    expected_units: int
    dev_units: int
    change_units: int
    change: int
    new_rating: int | None
    scale: int
    lines: tuple[GameLine, ...]
    counted_heading: str = "counted"  # the column of the counted difference, named by the era
    method_words: str = ""  # how the era read each expected score (engine.counted)
    unrated_words: str = ""  # as StandingRow's: an unrated player has no change to show


@dataclass(frozen=True)
class StandingRow:
    rank: int
    id: str
    name: str
    title: str
    federation: str
    rating: int | None
    points_h: int
    games: int
    performance: int | None
    change_units: int
    change: int
    new_rating: int | None
    k_assumed: bool = False  # the K used was assumed (the player's page says why)
    # K and the expected score (sum of PD, ``expected_decimals`` decimals), as report.html's
    # standings show them.
    k: int | None = None
    expected_units: int = 0
    expected_decimals: int = 2
    # An unrated player has no change to show: what the period's changes CSV says of them
    # (``lists.next_list.STATUS_POOL``), "" for a rated player.
    unrated_words: str = ""


@dataclass(frozen=True)
class EventView:
    """The standings (in the reports' order) and every player's calculation by id; ``title``
    is the event's name as report.html gives it (``file_names.event_title``)."""

    rows: tuple[StandingRow, ...]
    players: dict[str, PlayerCalculation]
    title: str = ""


def _int(value: object) -> int | None:
    return None if value is None or pd.isna(value) else int(value)  # type: ignore[call-overload]


def _text(value: object) -> str:
    return "" if value is None or pd.isna(value) else str(value)  # type: ignore[call-overload]


def event_view(rated: RatedPeriod) -> EventView:
    """The standings and every player's calculation of ``rated`` (the rate job's result)."""
    period = with_side_texts(rated)
    totals = period.totals.reset_index(drop=True)
    order = standings(period)
    names = dict(zip(totals["id"].astype(str), totals["name"].astype(str), strict=True))
    o = period.options
    rules = rules_as_used(get_rules(period.rule_set or o.rules), o.method, o.cap)
    sides = period.sides.assign(
        _row=np.arange(len(period.sides)),
        # Rc names the difference only under the average-opponent method (counted_note).
        average_opponent=average_opponents(period.sides) if is_average_method(rules) else None,
    )
    by_player = sides.groupby("player", sort=False)
    players: dict[str, PlayerCalculation] = {}
    rows = []
    for at, row_index in enumerate(order.order):
        t = totals.iloc[int(row_index)]
        pid = str(t["id"])
        mine = by_player.get_group(pid) if pid in by_player.groups else sides.iloc[:0]
        players[pid] = _calculation(t, mine, names, period.scale, rules, o.method)
        perf = order.performance.iloc[int(row_index)]
        rows.append(
            StandingRow(
                rank=int(order.ranks[at]),
                id=pid,
                name=str(t["name"]),
                title=_text(t.get("title")),
                federation=_text(t.get("federation")),
                rating=_int(t["rating"]),
                points_h=int(order.points_h[int(row_index)]),
                games=int(t["games"]),
                performance=_int(perf),
                change_units=int(t["change_units"]),
                change=int(t["change"]),
                new_rating=_int(t["new_rating"]),
                k_assumed=bool(t["k_assumed"]),
                k=_int(t["k"]),
                expected_units=int(t["expected_units"]),
                expected_decimals=pd_decimals(period.scale),
                unrated_words=STATUS_POOL if pd.isna(t["rating"]) else "",
            )
        )
    return EventView(tuple(rows), players, event_title(period.event_name, period.sources))


def _calculation(
    t: pd.Series,
    sides: pd.DataFrame,
    names: dict[str, str],
    scale: int,
    rules: RuleSet | None,
    method: str,
) -> PlayerCalculation:
    k = _int(t["k"])
    lines = []
    # A player's own games: a handful of rows per player, shown on one page.
    for s in sides.sort_values(["round", "_row"], kind="stable").itertuples(index=False):
        rated = bool(s.rated)
        # The rating the expectation was read from: the player's own, or in sequential mode
        # the rating after the games before (as report.html's breakdown shows it).
        own = _int(getattr(s, "rating_used", s.player_rating))
        opp = _int(s.opponent_rating)
        dev = _int(s.dev_units) if rated else None
        lines.append(
            GameLine(
                round=_text(s.round),
                opponent_id=_text(s.opponent),
                opponent_name=names.get(_text(s.opponent), ""),
                opponent_rating=opp,
                result=_text(s.result),
                score_h=int(s.score_h),
                rated=rated,
                note=_text(s.note),
                gap=None if own is None or opp is None else own - opp,
                gap_used=_int(s.diff) if rated else None,
                pd_units=_int(s.pd_units) if rated else None,
                dev_units=dev,
                k_dev_units=None if dev is None or k is None else k * dev,
                cap_note=counted_note(
                    None if own is None or opp is None else own - opp,
                    _int(s.diff) if rated else None,
                    own,
                    rules,
                    _int(s.average_opponent),
                ),
            )
        )
    return PlayerCalculation(
        id=str(t["id"]),
        name=str(t["name"]),
        title=_text(t.get("title")),
        federation=_text(t.get("federation")),
        rating=_int(t["rating"]),
        k=k,
        k_base=_int(t.get("k_base")),
        k_rule=_text(t.get("k_reason")) or _text(t.get("k_rule")),
        k_700=bool(t.get("k_700", False)),
        k_assumed=bool(t["k_assumed"]),
        games=int(t["games"]),
        score_h=int(t["score_h"]),
        expected_units=int(t["expected_units"]),
        dev_units=int(t["dev_units"]),
        change_units=int(t["change_units"]),
        change=int(t["change"]),
        new_rating=_int(t["new_rating"]),
        scale=scale,
        lines=tuple(lines),
        counted_heading=counted_heading(rules),
        method_words=method_words(rules, method),
        unrated_words=STATUS_POOL if pd.isna(t["rating"]) else "",
    )


__all__ = ["EventView", "GameLine", "PlayerCalculation", "StandingRow", "event_view"]
