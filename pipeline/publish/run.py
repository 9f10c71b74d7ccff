"""``fiderate period``: rate one rating period from the list in force and the period's events,
publish the next list, and record everything in the history store.

Order of the steps, and why a run killed at any point loses nothing
-------------------------------------------------------------------
1. Read and hash the inputs; check against the history (an event already rated, a period already
   published); rate in memory.                         Killed here: nothing has changed.
2. Write every output to a hidden temporary file in the output folder (``.NAME.*.tmp``) and
   fsync it.                                          Killed here: the folder's files and the
   database are as they were; the next run deletes the leftover temporary files.
3. ``BEGIN IMMEDIATE``; insert the run, the published list, the events, the pending results, the
   first ratings and the *rename journal* (``file_moves``: temporary -> final names).
                                                      Killed here: SQLite rolls the open
   transaction back when the database is next opened: the database is as it was.
4. ``COMMIT``. This is the single commit point of a run.
5. Rename the temporary files into place (``os.replace``, atomic per file), then clear the
   journal.                                           Killed here: the run *has* happened; the next
   ``fiderate period`` on this database first completes the journal's renames (roll forward), and a
   re-run with the same inputs then reports the period as complete (exit 0).
File names carry the month (``rating_list_2026-12.csv``), so the list in force is never
overwritten; ``--replace`` overwrites only the replaced period's own files, after its commit, and
the replaced list stays in the database marked superseded.
"""

from __future__ import annotations

import datetime as dt
import getpass
import os
import resource
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from pipeline.columnar.lookup import member
from pipeline.engine.matches import MATCH_NOTES
from pipeline.errors import FiderateError, InputError, Problem
from pipeline.model import PlayerList, RateOptions
from pipeline.publish import store as history
from pipeline.publish.events import (
    EventFile,
    find_event_files,
    player_ids,
    read_events,
    sha256_of,
    untrusted,
)
from pipeline.publish.first_rating import event_results, first_ratings
from pipeline.publish.journal import (
    clean_stale_temporaries,
    fsync_dir,
    pause_point,
    recover,
)
from pipeline.publish.list_file import read_list
from pipeline.publish.months import add_months
from pipeline.publish.next_list import next_list
from pipeline.publish.outputs import write_period_outputs
from pipeline.publish.players import (
    lists_for_units,
    player_details,
    trusted_list,
    with_new_players,
)
from pipeline.publish.report import PeriodReport, build_report
from pipeline.rules.select import select_rules
from pipeline.run.rate import rate_inputs, resolve_period


@dataclass(frozen=True)
class PeriodRequest:
    list_path: Path
    events: tuple[Path, ...]
    period: str
    out_dir: Path
    db_path: Path | None = None
    replace: bool = False
    trust_event_ratings: bool = False
    rules: str = "standard"
    xlsx: bool | None = None
    command: str = "fiderate period"

    @property
    def database(self) -> Path:
        return self.db_path or self.out_dir / "ratings.db"


@dataclass
class PeriodOutcome:
    period: str
    run_id: int
    written: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    report: PeriodReport | None = None
    recovered: bool = False
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage (benchmarks)
    peaks: dict[str, float] = field(default_factory=dict)  # peak RSS (MiB) after each stage


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _inputs(list_hash: str, list_path: Path, files: Sequence[EventFile]) -> list[dict[str, str]]:
    return [{"role": "list", "path": str(list_path), "sha256": list_hash}] + [
        {"role": "event", "path": str(f.path), "sha256": f.sha256} for f in files
    ]


def _same_inputs(a: list[dict[str, str]], b: list[dict[str, str]]) -> bool:
    return sorted((i["role"], i["sha256"]) for i in a) == sorted(
        (i["role"], i["sha256"]) for i in b
    )


def check_history(
    con: sqlite3.Connection | None,
    period: str,
    files: Sequence[EventFile],
    replace: bool,
    database: Path | str = "",
) -> int | None:
    """Refuse an event already rated and a period already published (unless --replace).
    Returns the run being replaced, if any."""
    if con is None:
        return None
    problems = []
    published = history.published_run(con, period)
    latest = history.latest_published_period(con)
    replaced = None
    if published is not None:
        if not replace:
            problems.append(
                Problem(
                    "period-published",
                    f"period {period} was already published by run #{published.run_id}; "
                    "nothing was changed",
                    file=str(database),
                    fix="use --replace to rate it again (the old list is kept, marked superseded)",
                )
            )
        else:
            replaced = published.run_id
    if latest is not None and latest > period:
        problems.append(
            Problem(
                "period-published",
                f"a later period ({latest}) is already published; period {period} can no longer "
                "be rated or replaced",
                fix="rate the next period instead",
            )
        )
    live = history.rated_events(con, [f.sha256 for f in files])
    for f in files:
        if f.sha256 in live:
            path, rated_in = live[f.sha256]
            if rated_in == period and published is not None:
                continue  # it belongs to the published period: replaced, or refused above
            problems.append(
                Problem(
                    "already-rated",
                    f"this event was already rated in period {rated_in} (from {path!r}); "
                    "an event cannot be rated twice",
                    file=str(f.path),
                    fix="remove it from --events",
                )
            )
    if problems:
        raise InputError(problems)
    return replaced


def run_period(request: PeriodRequest) -> PeriodOutcome:
    period = resolve_period(request.period)
    started = _now()
    db_path = request.database
    con = history.connect(db_path) if db_path.exists() else None
    inputs_record: list[dict[str, str]] = []
    try:
        recovered = recover(con) if con is not None else []
        clean_stale_temporaries(request.out_dir)
        list_hash = sha256_of(Path(request.list_path)) if Path(request.list_path).is_file() else ""
        files = find_event_files(request.events)
        inputs_record = _inputs(list_hash, request.list_path, files)
        for run_id in recovered:
            row = con.execute("SELECT period FROM runs WHERE id = ?", (run_id,)).fetchone()  # type: ignore[union-attr]
            if (
                row
                and row[0] == period
                and _same_inputs(history.run_inputs(con, run_id), inputs_record)
            ):  # type: ignore[arg-type]
                return PeriodOutcome(
                    period,
                    run_id,
                    recovered=True,
                    notes=[
                        f"run #{run_id} of period {period} had been interrupted after it was "
                        "committed; "
                        "its output files are now complete"
                    ],
                )
        replaced = check_history(con, period, files, request.replace, db_path)
        pause_point("checked")
        return _rate_and_publish(request, period, started, con, files, inputs_record, replaced)
    except FiderateError as exc:
        if con is not None:
            outcome = (
                "refused"
                if isinstance(exc, InputError)
                and any(p.code in ("period-published", "already-rated") for p in exc.problems)
                else "failed"
            )
            history.insert_run(
                con,
                started_at=started,
                finished_at=_now(),
                user=_user(),
                command=request.command,
                period=period,
                outcome=outcome,
                message=str(exc)[:4000],
                inputs=inputs_record,
            )
        raise
    finally:
        if con is not None:
            con.close()


def _list_notes(con: sqlite3.Connection | None, period: str, list_sha: str) -> list[str]:
    """A warning when --list is not the list this database published for the period."""
    published = history.published_list_file(con, period) if con is not None else None
    if published is None or published[1] == list_sha:
        return []
    return [
        f"the list given is not the {period} list this database published ({published[0]}); "
        "ratings are taken from the list given"
    ]


class _Clock:
    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self.peaks: dict[str, float] = {}  # MiB
        self._last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = now - self._last
        self._last = now
        # Peak memory so far (KiB on Linux): shows which stage sets the peak.
        self.peaks[name] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _rate_and_publish(
    request: PeriodRequest,
    period: str,
    started: str,
    con: sqlite3.Connection | None,
    files: Sequence[EventFile],
    inputs_record: list[dict[str, str]],
    replaced: int | None,
) -> PeriodOutcome:
    clock = _Clock()
    rules = select_rules(request.rules, period).rules  # the era in force in the period
    problems: list[Problem] = []
    try:
        listed = read_list(request.list_path)
    except InputError as exc:
        problems.extend(exc.problems)
    try:
        units = read_events(files, period)
    except InputError as exc:
        problems.extend(exc.problems)
    if problems:
        raise InputError(problems)

    clock.lap("read")
    base = listed.players.drop(columns=["line"], errors="ignore")
    if con is not None:
        # A list without last_played (an outside list): the history knows when players last played.
        known = history.last_played(con)
        blank = base["last_played"].eq("")
        base.loc[blank, "last_played"] = base.loc[blank, "id"].map(known).fillna("").astype(str)
    ids = player_ids(units)
    details = player_details(units)
    new_ids = pd.Index(ids[~member(ids, base["id"])])
    base = with_new_players(base, ids, details)
    base_list = PlayerList(listed.source, base)
    unit_lists = lists_for_units(units, period, base_list, con, ids, details)
    if request.trust_event_ratings:
        unit_lists = [
            trusted_list(players, unit) for players, unit in zip(unit_lists, units, strict=True)
        ]

    inputs = []
    for unit, players in zip(units, unit_lists, strict=True):
        if request.trust_event_ratings:
            inputs.append(unit.data)
        else:
            inputs.append(untrusted(unit.data, players.players.set_index("id")["rating"]))
    options = RateOptions(rules=request.rules, method="fide", period=period)
    result = rate_inputs(inputs, base_list, options, event_players=unit_lists)
    clock.lap("rate")
    pause_point("rated")

    keys = pd.DataFrame(
        {
            "source": [str(u.data.source) for u in units],
            "event": [u.name for u in units],
            "event_sha256": [u.file.sha256 for u in units],
            "start_date": [u.start_date for u in units],
        }
    ).drop_duplicates(["source", "event"])
    # Only the columns the first ratings need: a merge copies every column it is given.
    needed = ["player", "event", "source", "played", "player_rating", "opponent_rating", "score_h"]
    # A match's unrated games (6.1, 6.2) count towards no first rating either.
    counted = ~member(result.sides["note"], MATCH_NOTES)
    sides = result.sides.loc[counted, needed].merge(
        keys, on=["source", "event"], how="left", validate="many_to_one"
    )
    candidates = pd.Index(base.loc[base["rating"].isna(), "id"])
    earlier = history.pending_results(con) if con is not None else _no_pending()
    first = first_ratings(event_results(sides, candidates, period), earlier, period)

    new, status = next_list(base, result.totals, first, period, rules, new_ids)
    report = build_report(
        base, new, status, result.totals, result.sides, first, result.scale, period
    )
    clock.lap("first ratings, next list, report")
    notes = _list_notes(con, period, inputs_record[0]["sha256"]) + [
        f"event {u.name!r} ({u.file.path}) has no dates: taken to start in {period}"
        for u in units
        if not u.dated
    ]

    with write_period_outputs(request.out_dir, period, new, report, result, request.xlsx) as batch:
        notes += batch.notes
        clock.lap("write files")
        pause_point("temp-files")
        if con is None:
            con = history.connect(request.database)
        planned = batch.planned()
        con.execute("BEGIN IMMEDIATE")
        try:
            run_id = _record(
                con,
                request,
                period,
                started,
                files,
                units,
                inputs_record,
                replaced,
                listed,
                new,
                first,
                batch,
            )
            pause_point("db-written")
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        clock.lap("store in database")
        # Committed: the temporary files now belong to the rename journal; never delete them.
        batch.forget()
    pause_point("committed")
    written = []
    for i, (tmp, final) in enumerate(planned):
        os.replace(tmp, final)
        written.append(final)
        if i == 0:
            pause_point("mid-rename")
    fsync_dir(request.out_dir)
    con.execute("DELETE FROM file_moves WHERE run_id = ?", (run_id,))
    con.close()
    clock.lap("rename")
    return PeriodOutcome(
        period,
        run_id,
        written=written,
        notes=notes,
        report=report,
        timings=clock.laps,
        peaks=clock.peaks,
    )


def _no_pending() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=str) for c in history.PENDING_COLUMNS}).astype(
        {"games": "int64", "points_h": "int64", "opp_sum": "int64", "disregarded": bool}
    )


def _record(
    con, request, period, started, files, units, inputs_record, replaced, listed, new, first, batch
) -> int:  # type: ignore[no-untyped-def]
    """Everything a run writes to the database, inside the caller's transaction."""
    pending = first.current
    published_first = first.ratings[first.ratings["published"]]
    message = (
        f"published the {add_months(period, 1)} list: {int(new['rating'].notna().sum())} "
        f"rated players, {len(published_first)} first ratings, {len(files)} event files"
    )
    run_id = history.insert_run(
        con,
        started_at=started,
        finished_at=_now(),
        user=_user(),
        command=request.command,
        period=period,
        outcome="published",
        message=message,
        inputs=inputs_record,
    )
    if replaced is not None:
        history.supersede(con, replaced, run_id)
    if history.list_in_force(con, period) is None:
        rows = listed.players.copy()
        rows["period_games"] = pd.array([pd.NA] * len(rows), dtype="Int64")
        history.insert_list(
            con, run_id, "input", period, None, listed.source, inputs_record[0]["sha256"], rows
        )
    history.insert_list(
        con,
        run_id,
        "published",
        add_months(period, 1),
        period,
        str(batch.list_csv_final),
        batch.list_csv_sha256,
        new,
    )
    for f in files:
        mine = [u for u in units if u.file is f]
        con.execute(
            "INSERT INTO events (run_id, sha256, path, names, start_date, period, games) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                run_id,
                f.sha256,
                str(f.path),
                "; ".join(u.name for u in mine),
                min((u.start_date for u in mine), default=None),
                period,
                sum(u.games for u in mine),
            ),
        )
    history.insert_rows(con, "pending", pending[history.PENDING_COLUMNS], run_id)
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
    con.executemany(
        "INSERT INTO file_moves (run_id, tmp, final) VALUES (?, ?, ?)",
        [(run_id, str(tmp), str(final)) for tmp, final in batch.planned()],
    )
    return run_id
