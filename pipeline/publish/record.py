"""What a ``fiderate period`` run writes to the history store, inside its one transaction, and
the small facts every run record carries (when, who, how long each stage took)."""

from __future__ import annotations

import datetime as dt
import getpass
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from pipeline.columnar.memory import peak_memory_mib, release_memory
from pipeline.model import PlayerList
from pipeline.publish import store as history
from pipeline.publish.earlier_lists import EarlierList
from pipeline.publish.events import EventFile, EventUnit
from pipeline.publish.first_rating import FirstRatings
from pipeline.publish.list_contents import StoredRows, content_sha
from pipeline.publish.months import add_months
from pipeline.publish.outputs import PeriodFiles


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError, ImportError):  # no user name in the environment, no pwd module
        return "unknown"


RELEASE_ABOVE_MIB = 400  # a small run skips release_memory (a full gc pass costs ~50 ms)


class Clock:
    """Seconds and peak memory after each stage of a run (for the benchmarks); tells
    ``progress`` (the command's progress display) the label of each stage as it starts."""

    def __init__(self, progress: Callable[[str], None] | None = None) -> None:
        self.laps: dict[str, float] = {}
        self.peaks: dict[str, float] = {}  # MiB
        self._last = time.perf_counter()
        self._progress = progress
        self.starts("reading the list and the events")

    def starts(self, label: str) -> None:
        if self._progress is not None:
            self._progress(label)

    def lap(self, name: str, next_label: str | None = None) -> None:
        if next_label is not None:
            self.starts(next_label)
        # Peak memory so far: shows which stage sets the peak.
        self.peaks[name] = peak_memory_mib()
        if self.peaks[name] > RELEASE_ABOVE_MIB:
            # The stage's full-size tables are dropped by now: give their memory back to the
            # operating system before the next stage allocates its own (the peak is then the
            # largest stage, not their sum). Counted in the stage that freed it.
            release_memory()
        now = time.perf_counter()
        self.laps[name] = now - self._last
        self._last = now


@dataclass(frozen=True)
class UnitFacts:
    """What a run keeps of an event unit once the period is rated (the units' games, a full
    copy of every event file, 1 M games in a FIDE month, are dropped then): what the first
    ratings, the notes and the history need."""

    file: EventFile
    name: str
    source: str
    start_date: str
    dated: bool
    games: int

    @classmethod
    def of(cls, unit: EventUnit) -> UnitFacts:
        source = str(unit.data.source)
        return cls(unit.file, unit.name, source, unit.start_date, unit.dated, unit.games)


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


def record_run(con: sqlite3.Connection, record: RunRecord, batch: PeriodFiles) -> int:
    """Everything a run writes to the database, inside the caller's transaction."""
    period = record.period
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
        outcome="published",
        message=message,
        inputs=record.inputs,
    )
    if record.replaced is not None:
        history.supersede(con, record.replaced, run_id)
    # The list in force as the history stores it (period_games blank): the published list goes
    # in as its changed rows over the list stored with these rows (see list_contents).
    # Converted to the stored form once: hashed, stored, and compared with the published list.
    listed = record.listed.players
    blank = pd.arrays.IntegerArray(np.zeros(len(listed), np.int64), np.ones(len(listed), bool))
    rows = StoredRows.of(listed.assign(period_games=blank))
    rows_sha = content_sha(rows)
    if not history.has_list_in_force(con, period):
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
        )
    history.insert_list(
        con,
        run_id,
        "published",
        add_months(period, 1),
        period,
        str(batch.list_csv_final),
        batch.list_csv_sha256,
        record.new,
        over=rows,
        over_sha=rows_sha,
    )
    del rows
    history.insert_events(con, run_id, _event_rows(record))
    history.insert_rows(con, "pending", record.first.current[history.PENDING_COLUMNS], run_id)
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
    )
    history.insert_file_moves(con, run_id, batch.planned())
    return run_id


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
