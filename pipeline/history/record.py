"""What a ``fiderate period`` run writes to the history store, inside its one transaction, and
the small facts every run record carries (when, who)."""

from __future__ import annotations

import datetime as dt
import getpass
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.history import store as history
from pipeline.history.list_contents import StoredRows, content_sha
from pipeline.history.period_calculations import PeriodCalculation, record_calculation
from pipeline.lists.first_rating import FirstRatings
from pipeline.model import EarlierList, EventFile, PlayerList, UnitFacts
from pipeline.rules.months import add_months
from pipeline.rules.rating_kinds import DEFAULT_KIND


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError, ImportError):  # no user name in the environment, no pwd module
        return "unknown"


@dataclass(frozen=True)
class RunRecord:
    """Everything a published run stores."""

    command: str
    period: str
    started: str
    files: Sequence[EventFile]
    units: Sequence[UnitFacts]
    inputs: list[dict[str, str]]  # role, path, sha256 of the list and of each event file
    replaced: int | None  # the run --replace supersedes
    listed: PlayerList  # the list in force, as read
    new: pd.DataFrame  # the next list
    first: FirstRatings
    earlier_lists: Mapping[str, EarlierList] = field(default_factory=dict)  # --earlier-list
    # Each player's calculation of the period (history pages; None: not stored).
    calculation: PeriodCalculation | None = None
    rating_kind: str = DEFAULT_KIND  # standard, rapid or blitz: the list published
    rules: str | None = None  # the rule set (era) that rated the period, by its name


@dataclass(frozen=True)
class ListFile:
    """The published list's CSV as the history records it, and the run's rename journal."""

    final: Path  # where the list's CSV will be once renamed into place
    sha256: str
    moves: list[tuple[Path, Path]]  # (temporary, final) of every output file


def record_run(con: sqlite3.Connection, record: RunRecord, files: ListFile) -> int:
    """Everything a run writes to the database, inside the caller's transaction."""
    period, kind = record.period, record.rating_kind
    published_first = record.first.ratings[record.first.ratings["published"]]
    message = (
        f"published the {add_months(period, 1)} list: "
        f"{int(record.new['rating'].notna().sum())} rated players, {len(published_first)} first "
        f"ratings, {len(record.files)} event files"
    )
    run_id = history.insert_run(
        con,
        started_at=record.started,
        finished_at=now(),
        user=user(),
        command=record.command,
        period=period,
        rating_kind=kind,
        rules=record.rules,
        outcome="published",
        message=message,
        inputs=record.inputs,
    )
    if record.replaced is not None:
        history.supersede(con, record.replaced, run_id)
    _record_lists(con, run_id, record, files)
    history.insert_events(con, run_id, _event_rows(record), kind)
    history.insert_rows(con, "pending", record.first.current[history.PENDING_COLUMNS], run_id, kind)
    history.insert_rows(
        con,
        "first_ratings",
        pd.DataFrame(
            {
                "player_id": published_first.index.astype(str),
                "period": period,
                "rating": published_first["rating"].to_numpy(),
                "games": published_first["games"].to_numpy(),
                "points_h": published_first["points_h"].to_numpy(),
                "opp_sum": published_first["opp_sum"].to_numpy(),
            }
        ),
        run_id,
        kind,
    )
    if record.calculation is not None:
        record_calculation(con, run_id, record.calculation)
    history.insert_file_moves(con, run_id, files.moves)
    return run_id


def _record_lists(con: sqlite3.Connection, run_id: int, record: RunRecord, files: ListFile) -> None:
    """The list in force (unless the history holds the month's list of this kind) and the
    published list, of the run's kind."""
    period, kind = record.period, record.rating_kind
    # The list in force as the history stores it (period_games blank): the published list goes
    # in as its changed rows over the list stored with these rows (see list_contents).
    # Converted to the stored form once: hashed, stored, and compared with the published list.
    listed = record.listed.players
    blank = pd.arrays.IntegerArray(np.zeros(len(listed), np.int64), np.ones(len(listed), bool))
    rows = StoredRows.of(listed.assign(period_games=blank))
    rows_sha = content_sha(rows)
    if not history.has_list_in_force(con, period, kind):
        history.insert_list(
            con,
            run_id,
            "input",
            period,
            None,
            record.listed.source,
            record.inputs[0]["sha256"],
            rows,
            rows_sha=rows_sha,
            rating_kind=kind,
        )
    history.insert_list(
        con,
        run_id,
        "published",
        add_months(period, 1),
        period,
        str(files.final),
        files.sha256,
        record.new,
        over=rows,
        over_sha=rows_sha,
        rating_kind=kind,
    )


def _event_rows(record: RunRecord) -> list[tuple[object, ...]]:
    """One row per event file (``store.EVENT_COLUMNS``): its units' names, first start date
    and games."""
    rows: list[tuple[object, ...]] = []
    for f in record.files:
        mine = [u for u in record.units if u.file is f]
        rows.append(
            (
                f.sha256,
                str(f.path),
                "; ".join(u.name for u in mine),
                min((u.start_date for u in mine), default=None),
                record.period,
                sum(u.games for u in mine),
            )
        )
    return rows
