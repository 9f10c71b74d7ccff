"""The report model: what a rated event shows, built once per run by :func:`build_report` and
rendered by every face (the report text frames, report.xlsx, report.html, the player files, the
web's event and player pages), none of which computes a number of its own.

Built from the rate job's own result (:class:`pipeline.model.RatedPeriod`: the engine's sides,
with its ``counted_why`` per side, and the grouper's totals), the standings stage's order,
ranks, points and performance (``grouper.standings``) and the title norms, by columns: no loop
over players or games. Plain frozen data out, its two frames checked once against
``schemas.report``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.arrays.number_text import pd_decimals
from pipeline.engine.average_opponent_method import average_opponents
from pipeline.file_names import event_title, shown_names
from pipeline.lists.next_list import STATUS_POOL
from pipeline.model import InputFile, NormReport, RatedPeriod, Standings
from pipeline.rules.counted_words import (
    COUNTED_AVERAGE,
    counted_heading,
    counted_words,
    method_words,
    rules_as_used,
)
from pipeline.rules.k_facts import ASSUMED_FIX, ASSUMED_NOTE, missing_facts
from pipeline.rules.modes import mode_label
from pipeline.rules.sets import RuleSet, get_rules

MODE_WORDS = {
    "fide": "fide: every game against the rating at the start of the period",
    "sequential": "sequential: the rating updated after every game (not the FIDE method)",
}
ORDER_BY_FILE = "in the event file's own final ranks (its tie-break order)"
ORDER_BY_POINTS = "by points (all games), then rating, then id"


@dataclass(frozen=True)
class AssumedK:
    """The players whose K the input could not say: who (id, name, k, k_rule), what it lacked
    and how to give it."""

    players: pd.DataFrame
    missing: tuple[str, ...]
    note: str = ASSUMED_NOTE
    fix: str = ASSUMED_FIX


@dataclass(frozen=True)
class EventReport:
    """What a rated event shows, every number exact (units of 1/``scale``, hundredths of a
    point), every reason in words beside its number."""

    title: str  # the event's own name (a lone TRF's 012), else its files' names
    sources: tuple[str, ...]  # the event files' names (never their folders)
    input_files: tuple[str, ...]  # the run's input files' names (the list in force too)
    dates: tuple[str, str]  # the first and last game's date ("" when the games give none)
    period: str
    period_reason: str
    rule_set: str
    rules_reason: str
    method: str  # fide (table 8.1.2) or formula
    mode: str  # fide or sequential
    sequential: bool  # the mode is sequential: each game read from the running rating
    mode_words: str  # the mode, said in full
    mode_note: str  # '' for the FIDE method, else the label every report carries
    order_words: str  # how the standings are ordered
    warnings: tuple[str, ...]
    scale: int  # expected scores are units of 1/scale
    decimals: int  # the expected scores' decimals
    counted_heading: str  # the heading of the counted difference, named by the era
    method_words: str  # how the era read each expected score
    standings: pd.DataFrame  # schemas.report.ReportStandings, standings order
    games: pd.DataFrame  # schemas.report.ReportGames, player order
    rated_sides: int
    norms: NormReport | None
    assumed: AssumedK

    @property
    def dates_words(self) -> str:
        """The event's dates as every face says them: "first to last", one date alone, or ""
        when the games give none."""
        first, last = self.dates
        return first if first == last else f"{first} to {last}"

    def player(self, player_id: str) -> tuple[pd.Series, pd.DataFrame] | None:
        """A player's standings row and games (their rows of :attr:`games`), or None when the
        id is not a player of the event."""
        row = self.standings[self.standings["id"] == player_id]
        if not len(row):
            return None
        return row.iloc[0], self.games[self.games["player"] == player_id]


def build_report(
    rated: RatedPeriod, computed: Standings, inputs: Sequence[Path | str | InputFile] = ()
) -> EventReport:
    """The report model of ``rated`` (its sides with their texts: ``engine.sides``), in the
    order and with the points of ``computed`` (``grouper.standings``), the norms it holds.
    ``inputs``: the run's input files (the model names them by file name only)."""
    from schemas import validate
    from schemas.report import ReportGames, ReportStandings

    o = rated.options
    rule_set = rated.rule_set or o.rules
    rules = rules_as_used(get_rules(rule_set), o.method, o.cap)
    standings = validate(standings_frame(rated, computed), ReportStandings, internal=True)
    games = validate(games_frame(rated, computed, rules), ReportGames, internal=True)
    t = rated.totals
    assumed = t.loc[t["k_assumed"].to_numpy(dtype=bool), ["id", "name", "k", "k_reason"]]
    return EventReport(
        title=event_title(rated.event_name, rated.sources),
        sources=tuple(shown_names(rated.sources).values()),
        input_files=tuple(shown_names([str(p) for p in inputs] or rated.sources).values()),
        dates=_dates(rated.sides),
        period=rated.period,
        period_reason=rated.period_reason,
        rule_set=rule_set,
        rules_reason=rated.rules_reason,
        method=o.method,
        mode=o.mode,
        sequential=o.mode == "sequential",
        mode_words=MODE_WORDS.get(o.mode, o.mode),
        mode_note=mode_label(o.mode),
        order_words=ORDER_BY_POINTS if rated.event_ranks is None else ORDER_BY_FILE,
        warnings=tuple(rated.warnings),
        scale=rated.scale,
        decimals=pd_decimals(rated.scale),
        counted_heading=counted_heading(rules),
        method_words=method_words(rules, o.method),
        standings=standings,
        games=games,
        rated_sides=rated.side_counts()[0],
        norms=rated.norms,
        assumed=AssumedK(
            assumed.reset_index(drop=True), tuple(missing_facts(assumed["k_reason"].unique()))
        ),
    )


def _dates(sides: pd.DataFrame) -> tuple[str, str]:
    """The first and last game date the sides give (ISO text sorts as dates)."""
    if "date" not in sides:
        return "", ""
    dates = sides["date"].astype("string").replace("", pd.NA).dropna()
    return (str(dates.min()), str(dates.max())) if len(dates) else ("", "")


def _int64(values: pd.Series) -> pd.Series:
    return values.astype("Int64")


def k_explanations(rated: RatedPeriod) -> pd.Series:
    """Why each player has the K used: the rule, and the 700 rule's arithmetic when it applied
    (K base x games > cap, so K = floor(cap / games))."""
    t = rated.totals
    cap = get_rules(rated.options.rules).k.period_cap
    k = _int64(t["k"]).astype("string").fillna("")
    base = _int64(t["k_base"]).astype("string").fillna("")
    games = t["games"].astype(str)
    product = (t["k_base"].fillna(0).astype(np.int64) * t["games"]).astype(str)
    plain = "K " + k + ": " + t["k_reason"]
    seven = (
        plain
        + "; 700 rule: K "
        + base
        + " x "
        + games
        + " games = "
        + product
        + f" > {cap}, so K = floor({cap} / "
        + games
        + ") = "
        + k
    )
    text = plain.where(~t["k_700"], seven).where(t["k"].notna(), t["k_reason"])
    return text.astype(str)


def standings_frame(rated: RatedPeriod, computed: Standings) -> pd.DataFrame:
    """Every player in ``computed``'s order, typed (``schemas.report.ReportStandings``)."""
    t = rated.totals
    unrated = t["rating"].isna().to_numpy()
    frame = pd.DataFrame(
        {
            "rank": 0,
            "id": t["id"].astype(str),
            "name": t["name"].astype(str),
            "title": t["title"].astype("string").fillna("").astype(str),
            "federation": t["federation"].astype("string").fillna("").astype(str),
            "rating": _int64(t["rating"]),
            "k": _int64(t["k"]),
            "k_base": _int64(t["k_base"]),
            "k_700": t["k_700"].astype(bool),
            "k_rule": k_explanations(rated),
            "k_assumed": t["k_assumed"].astype(bool),
            "games": t["games"].astype(np.int64),
            "points_h": np.asarray(computed.points_h, dtype=np.int64),
            "score_h": t["score_h"].astype(np.int64),
            "expected_units": t["expected_units"].astype(np.int64),
            "performance": computed.performance.astype("Int64").array,
            "dev_units": t["dev_units"].astype(np.int64),
            "change_units": t["change_units"].astype(np.int64),
            "change": t["change"].astype(np.int64),
            "new_rating": _int64(t["new_rating"]),
            "unrated_words": np.where(unrated, STATUS_POOL, ""),
        }
    ).iloc[computed.order]
    frame["rank"] = np.asarray(computed.ranks, dtype=np.int64)
    return frame.reset_index(drop=True)


# The sides' columns the games frame reads (the rest of a side is not shown).
_SIDE_COLUMNS = [
    "player", "event", "round", "opponent", "opponent_rating", "result", "score_h", "rated",
    "diff", "counted_why", "pd_units", "dev_units", "note",
]  # fmt: skip


def _text(column: pd.Series) -> pd.Series:
    """A text column as ``str`` (kept as it is when it already is: no copy of its cells)."""
    return column if column.dtype == "str" else column.astype("string").fillna("").astype(str)


def games_frame(rated: RatedPeriod, computed: Standings, rules: RuleSet | None) -> pd.DataFrame:
    """Every side of every game in player order (``computed.side_order``), with the per-game
    arithmetic and why each difference counted so (``schemas.report.ReportGames``)."""
    sides = rated.sides
    own_column = "rating_used" if "rating_used" in sides else "player_rating"
    side_order = shown_order(sides, computed.side_order, rated.options.mode == "sequential")
    s = sides[[*_SIDE_COLUMNS, own_column]].take(side_order).reset_index(drop=True)
    totals = rated.totals
    # Each side's player and opponent as rows of the totals: one look-up of the ids.
    at = pd.Index(totals["id"]).get_indexer
    player_row, opponent_row = at(s["player"]), at(s["opponent"])
    is_rated = s["rated"].to_numpy(dtype=bool)
    k = _int64(totals["k"]).array.take(player_row, allow_fill=True)
    names = totals["name"].astype(str).array.take(opponent_row, allow_fill=True)
    own = _int64(s[own_column])
    opp = _int64(s["opponent_rating"])
    gap = (own - opp).where(is_rated)
    used = _int64(s["diff"])
    why = s["counted_why"].to_numpy(dtype=np.int8)
    rc = np.zeros(len(s), dtype=np.int64)
    if (why == COUNTED_AVERAGE).any():  # Rc names the difference under the average method only
        rc = average_opponents(sides).take(side_order).fillna(0).to_numpy(np.int64)
    words = counted_words(
        why,
        gap.fillna(0).to_numpy(np.int64),
        used.fillna(0).to_numpy(np.int64),
        own.fillna(0).to_numpy(np.int64),
        rc,
        rules,
    )
    dev = _int64(s["dev_units"])
    pd_units = s["pd_units"].to_numpy(dtype=np.int64, na_value=0) * is_rated
    score_h = s["score_h"].to_numpy(dtype=np.int64)
    player = _text(s["player"])
    # Running sums over each player's rated games (the sides are grouped by player already).
    ids = player.to_numpy()
    first = np.r_[True, ids[1:] != ids[:-1]] if len(s) else np.zeros(0, dtype=bool)
    return pd.DataFrame(
        {
            "player": player,
            "event": _text(s["event"]),
            "round": _text(s["round"]),
            "opponent": _text(s["opponent"]),
            "opponent_name": pd.Series(names).fillna(""),
            "opponent_rating": opp,
            "result": _text(s["result"]),
            "score_h": score_h,
            "rated": is_rated,
            "rating_used": own,
            "gap": gap,
            "gap_used": used,
            "counted_why": why,
            "counted": pd.Series(words, dtype=str),
            "pd_units": _int64(s["pd_units"]),
            "dev_units": dev,
            "k_dev_units": (pd.Series(k).fillna(0) * dev).where(is_rated),
            "note": _text(s["note"]),
            "cum_expected_units": running_sums(pd_units, first),
            "cum_score_h": running_sums(score_h * is_rated, first),
        }
    )


def shown_order(sides: pd.DataFrame, side_order: np.ndarray, sequential: bool) -> np.ndarray:
    """``side_order`` (the sides grouped by player) with each player's sides of an event in
    round order, as a crosstable reads: the readers add byes after the games, and a games file
    may list its rows in any order. Kept as it is in sequential mode (the order the games were
    rated in, each from the rating before) and when a round is not a whole number (a name such
    as "1.10": no order to read from it)."""
    rounds = sides["round"].astype("string").fillna("").take(side_order)
    whole = rounds.str.fullmatch(r"\d{1,9}").fillna(False).to_numpy(dtype=bool)
    if sequential or not len(side_order) or not whole.all():
        return side_order
    players = sides["player"].astype("string").fillna("").take(side_order).to_numpy()
    group = np.cumsum(np.r_[True, players[1:] != players[:-1]])
    event = pd.factorize(sides["event"].astype("string").fillna("").take(side_order))[0]
    # lexsort is stable: a round's sides keep their order (a double round's two games).
    return side_order[np.lexsort((rounds.astype(np.int64).to_numpy(), event, group))]


def running_sums(values: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Each group's running sum, the groups contiguous runs that start where ``first`` is True:
    the running sum of all minus that sum just before the run began (exact: integers)."""
    total = np.cumsum(values, dtype=np.int64)
    starts = np.flatnonzero(first)
    before = np.r_[0, total[starts[1:] - 1]] if len(starts) else np.zeros(0, np.int64)
    return total - np.repeat(before, np.diff(np.r_[starts, len(values)]))


__all__ = ["AssumedK", "EventReport", "build_report", "k_explanations"]
