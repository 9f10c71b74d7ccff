"""The players of a period run: rows for new players, the list in force for each event, and the
ratings an event brings when ``--trust-event-ratings`` is set."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from pipeline.errors import Code, InputError, Problem
from pipeline.history import store as history
from pipeline.jobs.period.events import embedded_players, player_names
from pipeline.keys.frame_lookup import member
from pipeline.model import EventUnit, GamesInput, PlayerList
from pipeline.rules.months import add_months
from pipeline.rules.rating_kinds import DEFAULT_KIND


def new_player_rows(ids: pd.Series, details: pd.DataFrame) -> pd.DataFrame:
    """Rows for players no list knows: unrated, with what the events say about them (a name,
    and from TRF/crosstables federation, sex, title and birth year)."""
    n = len(ids)
    known = details.reindex(ids.astype(str).to_numpy())

    def text(column: str, default: pd.Series | str = "") -> np.ndarray:
        values = known[column] if column in known.columns else pd.Series([pd.NA] * n)
        values = pd.Series(values.to_numpy(), dtype=object)
        values = values.where(values.notna() & values.astype(str).ne(""), None)
        fallback = default.to_numpy() if isinstance(default, pd.Series) else default
        return np.where(values.isna(), fallback, values.astype(str)).astype(str)

    birth = known["birth_year"] if "birth_year" in known.columns else pd.Series([pd.NA] * n)
    return pd.DataFrame(
        {
            "id": ids.astype(str).to_numpy(),
            "name": text("name", ids.astype(str)),
            "rating": pd.array([pd.NA] * n, dtype="Int64"),
            "k": pd.array([pd.NA] * n, dtype="Int64"),
            "birth_year": pd.array(pd.Series(birth.to_numpy()).astype("Int64").to_numpy()),
            "games": pd.array([pd.NA] * n, dtype="Int64"),
            "ever_2400": False,
            "federation": text("federation"),
            "title": text("title"),
            "sex": text("sex"),
            "flags": "",
            "last_played": "",
        }
    )


def with_new_players(
    frame: pd.DataFrame, ids: pd.Series, details: pd.DataFrame, absent: np.ndarray | None = None
) -> pd.DataFrame:
    """``frame`` plus a new player's row for each of ``ids`` not on it (``absent``: that test
    when the caller has it)."""
    missing = ids[~member(ids, frame["id"]) if absent is None else absent]
    if missing.empty:
        return frame
    return pd.concat([frame, new_player_rows(missing, details)], ignore_index=True)


def trusted_list(players: PlayerList, unit: EventUnit) -> PlayerList:
    """--trust-event-ratings with an event that brings its own players (TRF, crosstables): their
    ratings replace the list's for this event (a blank rating on the event leaves the list's)."""
    own = unit.data.players if isinstance(unit.data, GamesInput) else None
    if own is None:
        return players
    given = own.players[own.players["rating"].notna()].drop_duplicates("id")
    frame = players.players.copy()
    pos = pd.Index(given["id"]).get_indexer(frame["id"])
    ratings = given["rating"].astype("Int64").array.take(pos, allow_fill=True)
    frame["rating"] = (
        frame["rating"].astype("Int64").where(pos < 0, pd.Series(ratings, index=frame.index))
    )
    return PlayerList(f"{players.source} + ratings of {unit.data.source}", frame)


def player_details(units: Sequence[EventUnit]) -> pd.DataFrame:
    """id -> name, federation, sex, title, birth_year from the events (for new players)."""
    details = embedded_players(units).set_index("id")
    names = player_names(units)
    extra = names[~member(names.index, details.index)]
    if len(extra):
        details = pd.concat([details, pd.DataFrame({"name": extra.to_numpy()}, index=extra.index)])
    return details


def lists_for_units(
    units: Sequence[EventUnit],
    period: str,
    base: PlayerList,
    con: sqlite3.Connection | None,
    ids: pd.Series,
    details: pd.DataFrame,
    given: Mapping[str, PlayerList] | None = None,
    rating_kind: str = DEFAULT_KIND,
) -> list[PlayerList]:
    """The list in force when each event started (plus unrated rows for new players): the
    period's own list, a list ``given`` for the month (--earlier-list), or the history's list of
    the run's kind."""
    problems = []
    # The period's own list is ``base`` itself: its id look-up, once built, serves every event.
    by_month: dict[str, PlayerList] = {period: base}
    for month, players in (given or {}).items():
        rows = players.players.drop(columns=["line"], errors="ignore")
        by_month[month] = PlayerList(
            f"{players.source} (list of {month})", with_new_players(rows, ids, details)
        )
    result = []
    for unit in units:
        month = unit.start_month
        if month > period:
            problems.append(
                Problem(
                    Code.EVENT_AFTER_PERIOD,
                    f"event {unit.name!r} starts on {unit.start_date}, after period {period}",
                    file=str(unit.file.path),
                    value=unit.start_date,
                    fix="rate it in the period it starts in",
                )
            )
            continue
        if month not in by_month:
            found = history.list_in_force(con, month, rating_kind) if con is not None else None
            if found is None:
                problems.append(
                    Problem(
                        Code.NO_LIST_IN_FORCE,
                        f"event {unit.name!r} started on {unit.start_date}; it must be rated "
                        f"with the list in force in {month}, which the history does not hold",
                        file=str(unit.file.path),
                        value=unit.start_date,
                        fix=f"give the list with --earlier-list {month}=PATH, or rate period "
                        f"{add_months(month, -1)} first (it publishes the {month} list), or "
                        "correct the event's dates",
                    )
                )
                continue
            source, rows = found
            by_month[month] = PlayerList(
                f"{source} (list of {month})", with_new_players(rows, ids, details)
            )
        result.append(by_month[month])
    if problems:
        raise InputError(problems)
    return result
