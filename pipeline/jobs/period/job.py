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
The whole run holds the history's lock (:mod:`pipeline.history.lock`: a second run at once is
refused); a first run creates the database in step 3, built beside its name and renamed into
place.
File names carry the month (``rating_list_2026-12.csv``), so the list in force is never
overwritten; ``--replace`` overwrites only the replaced period's own files, after its commit, and
the replaced list stays in the database marked superseded.

One concept: the steps of one period run in their crash-safe order (a scheduled run's choice of
the list, the months and the files is :mod:`pipeline.jobs.period.schedule`'s).
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline.errors import FiderateError, InputError, Problem
from pipeline.history import database
from pipeline.history import store as history
from pipeline.history.lock import holding_history
from pipeline.history.period_calculations import period_calculation
from pipeline.history.published_inputs import nothing_to_do_note
from pipeline.history.record import ListFile, RunRecord
from pipeline.history.run_commit import commit_run, finish_run
from pipeline.history.run_start import (
    RunAsked,
    RunStart,
    record_failure,
    record_failure_before_start,
    start_run,
)
from pipeline.jobs.period.earlier_lists import read_earlier_lists
from pipeline.jobs.period.events import (
    find_event_files,
    player_ids,
    read_events,
    untrusted,
)
from pipeline.jobs.period.players import (
    lists_for_units,
    player_details,
    trusted_list,
    with_new_players,
)
from pipeline.jobs.period.rating import rate_with_event_lists
from pipeline.jobs.period.results import publish_results
from pipeline.jobs.period.schedule import (
    is_scheduled,
    month_requests,
    plan_notes,
    scheduled_plan,
    write_run_file,
)
from pipeline.keys.id_lookup import IdLookup
from pipeline.lists.change_report import PeriodReport
from pipeline.model import (
    EarlierList,
    EventFile,
    EventUnit,
    GamesInput,
    PlayerList,
    RatedPeriod,
    RateOptions,
    SidesInput,
    UnitFacts,
)
from pipeline.readers.lists.player_details import fill_blank_details
from pipeline.readers.lists.published_list import read_list
from pipeline.resources.atomic_files import OutputBatch
from pipeline.resources.memory import prefer_jemalloc
from pipeline.resources.pause_points import pause_point
from pipeline.resources.stage_board import StageBoard
from pipeline.resources.stage_clock import Clock
from pipeline.resources.threads import side_by_side
from pipeline.rules.periods import resolve_period
from pipeline.rules.rating_kinds import kind_of_rules
from pipeline.rules.select import cadence_note
from pipeline.writers import check_outputs_spare_inputs, write_period_outputs
from schemas import Games, Players, prepare_for_threads


@dataclass(frozen=True)
class PeriodRequest:
    list_path: Path | None  # None: the history's list in force (a scheduled run)
    events: tuple[Path, ...]
    period: str | None  # None: the month due by the history and ``today`` (a scheduled run)
    out_dir: Path
    db_path: Path | None = None
    replace: bool = False
    trust_event_ratings: bool = False
    rules: str = "standard"
    xlsx: bool | None = None
    command: str = "fiderate period"
    earlier_lists: tuple[tuple[str, Path], ...] = ()  # (YYYY-MM, path): --earlier-list
    until: str | None = None  # --until YYYY-MM: every month due up to it (period_schedule)
    today: dt.date | None = None  # the date a scheduled run takes as today (None: the clock's)
    # Where the run posts the label of each stage as it starts (a progress display reads it).
    progress: StageBoard | None = field(default=None, compare=False, repr=False)

    @property
    def database(self) -> Path:
        return self.db_path or self.out_dir / "ratings.db"

    @property
    def rating_kind(self) -> str:
        """The kind of list the run publishes (standard, rapid or blitz): ``rules``' family."""
        return kind_of_rules(self.rules)


@dataclass(frozen=True)
class PeriodOutcome:
    period: str
    run_id: int
    written: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    report: PeriodReport | None = None
    recovered: bool = False
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage (benchmarks)
    peaks: dict[str, float] = field(default_factory=dict)  # peak RSS (MiB) after each stage
    # A scheduled run (pipeline.jobs.period.schedule): the month was published from the same
    # inputs already; each month it published (--until), in order; the files left waiting.
    nothing_to_do: bool = False
    months: tuple[PeriodOutcome, ...] = ()
    waiting: tuple[tuple[str, str], ...] = ()  # (path, the month it waits for)
    database: Path | None = None  # the history the run used (set by run_period)
    rating_kind: str | None = None  # standard, rapid or blitz: the list it publishes (run_period)


def run_period(request: PeriodRequest) -> PeriodOutcome:
    # Before the first big Arrow buffer: a FIDE month allocates and frees gigabytes of them
    # (the list's text, the sides, the next list's lines); under the default pool much of it
    # comes back as fresh pages zeroed by the kernel (see prefer_jemalloc). Here, not in the
    # command: the library's own entry point runs the whole period, for every caller.
    prefer_jemalloc()
    db_path = request.database
    try:
        # The whole run holds the history: a second run at once is refused before it starts.
        with holding_history(db_path):
            if is_scheduled(request):
                outcome = _run_scheduled(request)
            else:
                outcome = _run_period(request)
    except sqlite3.Error as exc:
        raise database.translate(db_path, exc) from None
    return replace(outcome, database=db_path, rating_kind=request.rating_kind)


def _run_scheduled(request: PeriodRequest) -> PeriodOutcome:
    """A scheduled run (:mod:`pipeline.jobs.period.schedule`): each month due published as an
    explicit run would publish it, with its ``run-YYYY-MM.json``; or nothing to do."""
    plan = scheduled_plan(request)
    if not plan.months:
        assert plan.checked is not None  # nothing due: the month last published was checked
        return PeriodOutcome(
            period=plan.checked.period,
            run_id=plan.checked.run_id,
            notes=[
                nothing_to_do_note(plan.checked.period, len(plan.checked.events)),
                *plan_notes(plan),
            ],
            nothing_to_do=True,
            waiting=plan.waiting,
        )
    done: list[PeriodOutcome] = []
    for month_request in month_requests(request, plan):
        result = _run_period(month_request)
        run_file = write_run_file(request.out_dir, result, month_request, plan.waiting)
        done.append(replace(result, written=[*result.written, run_file]))
    return replace(
        done[-1],
        notes=[*(n for d in done for n in d.notes), *plan_notes(plan)],
        months=tuple(done),
        waiting=plan.waiting,
    )


def _run_period(request: PeriodRequest) -> PeriodOutcome:
    """Step 1 up to the rating: ask the history, then rate and publish (the steps are those of
    the module docstring; each floor is called once, in order)."""
    assert request.list_path is not None  # a scheduled run fills in the list and the period
    period = resolve_period(request.period)
    try:
        files = find_event_files(request.events)
    except InputError as exc:
        record_failure_before_start(
            request.database, period, request.command, exc, request.rating_kind
        )
        raise
    inputs = _input_paths(request, files)
    asked = RunAsked(
        database=request.database,
        out_dir=request.out_dir,
        period=period,
        list_path=Path(request.list_path),
        files=files,
        earlier_lists=request.earlier_lists,
        replace=request.replace,
        command=request.command,
        rating_kind=request.rating_kind,
    )
    start = start_run(asked)
    try:
        if start.done is not None:
            return PeriodOutcome(
                period,
                start.done,
                notes=[start.done_note],
                recovered=start.recovered,
                nothing_to_do=not start.recovered,
            )
        check_outputs_spare_inputs(request.out_dir, period, inputs)
        pause_point("checked")
        return _rate_and_publish(request, asked, start, inputs)
    except FiderateError as exc:
        record_failure(start, period, request.command, exc)
        raise
    finally:
        if start.con is not None:
            start.con.close()


def _input_paths(request: PeriodRequest, files: Sequence[EventFile]) -> list[Path]:
    """Every file the run reads: the list in force, the event files, the earlier lists."""
    return [Path(request.list_path or ""), *(f.path for f in files)] + [
        Path(path) for _, path in request.earlier_lists
    ]


def _read_inputs(
    request: PeriodRequest,
    files: Sequence[EventFile],
    period: str,
    con: sqlite3.Connection | None,
    replaced: int | None,
) -> tuple[PlayerList, list[EventUnit], dict[str, EarlierList]]:
    """The list in force, the period's events and the earlier lists given, every problem of all
    of them reported at once."""
    # The list and the event files are read at once, on two threads (each has problems or a
    # result); their problems are reported in the same order as when read one after the other.
    prepare_for_threads(Players, Games)  # the schemas the two threads validate with
    jobs: list[Callable[[], tuple[Any, list[Problem]]]] = [
        partial(_problems_of, read_list, request.list_path, request.rules),
        partial(_problems_of, read_events, files, period),
    ]
    (listed, problems), (units, more) = side_by_side(jobs)
    problems += more
    try:
        earlier = read_earlier_lists(request.earlier_lists, period, con, replaced, request.rules)
    except InputError as exc:
        problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    assert listed is not None and units is not None  # read without problems
    return listed, units, earlier


def _problems_of(read: Callable[..., Any], *args: Any) -> tuple[Any, list[Problem]]:
    """``read(*args)`` and no problems, or no result and the problems of its InputError."""
    try:
        return read(*args), []
    except InputError as exc:
        return None, list(exc.problems)


def _lists(
    request: PeriodRequest,
    con: sqlite3.Connection | None,
    listed: PlayerList,
    units: list[EventUnit],
    period: str,
    replaced: int | None,
    earlier: dict[str, EarlierList],
) -> tuple[PlayerList, list[PlayerList], pd.Index]:
    """The base list (the list in force plus the events' new players, blank details filled from
    the events), the list each event is rated with, and the ids of the new players. The history
    is read as if the run being ``replaced`` were already superseded."""
    base = listed.players.drop(columns=["line"], errors="ignore")
    if con is not None:
        # A list without last_played (an outside list): the history knows when players last played.
        known = history.last_played(con, replaced, request.rating_kind)
        blank = base["last_played"].eq("")
        base.loc[blank, "last_played"] = (
            base.loc[blank, "id"].map(known).astype("string").fillna("").astype(str)
        )
    ids = player_ids(units)
    details = player_details(units)
    # One id look-up of the list serves the new players' test and, when the events add no row
    # and fill no detail (the frame is the same), every event's ratings and the rate stage.
    in_force = PlayerList(listed.source, base)
    new_ids = pd.Index(ids[(absent := in_force.positions(ids) < 0)])
    base = fill_blank_details(with_new_players(base, ids, details, absent), details)
    if base is not in_force.players:
        in_force = PlayerList(listed.source, base)
    given = {month: e.players for month, e in earlier.items()}
    unit_lists = lists_for_units(
        units, period, in_force, con, ids, details, given, request.rating_kind
    )
    if request.trust_event_ratings:
        unit_lists = [
            trusted_list(players, unit) for players, unit in zip(unit_lists, units, strict=True)
        ]
    return in_force, unit_lists, new_ids


def _event_inputs(
    request: PeriodRequest, units: list[EventUnit], unit_lists: list[PlayerList]
) -> list[GamesInput | SidesInput]:
    """Each event as rated: its own ratings only with --trust-event-ratings."""
    if request.trust_event_ratings:
        return [unit.data for unit in units]
    return [untrusted(unit.data, players) for unit, players in zip(units, unit_lists, strict=True)]


def _rate_and_publish(
    request: PeriodRequest, asked: RunAsked, start: RunStart, inputs: list[Path]
) -> PeriodOutcome:
    """Steps 1 to 5 of the module docstring, once the history allows the run."""
    period, con, replaced = asked.period, start.con, start.replaced
    clock = Clock(request.progress)
    listed, units, earlier = _read_inputs(request, asked.files, period, con, replaced)
    clock.lap("read", "rating")
    in_force, unit_lists, new_ids = _lists(request, con, listed, units, period, replaced, earlier)
    # A period run publishes the whole list: every listed player, played or not.
    options = RateOptions(rules=request.rules, method="fide", period=period, all_players=True)
    event_inputs = _event_inputs(request, units, unit_lists)
    # Each event's list and games (of the units only their facts are kept): freed before the
    # next stage (release_memory in lap).
    facts = [UnitFacts.of(u) for u in units]
    result = rate_with_event_lists(event_inputs, in_force, unit_lists, options)
    if result.totals_ids is None:  # the report and games.csv share one look-up of the totals
        result = replace(result, totals_ids=IdLookup(result.totals["id"]))
    base = in_force.players
    del in_force, unit_lists, units, event_inputs
    clock.lap("rate", "first ratings, next list, report")
    pause_point("rated")

    first, new, report, era = publish_results(
        result, facts, base, new_ids, con, period, replaced, request.rules
    )
    # Of the rated period only games.csv is left to write, and of the totals it needs only the
    # ids (its order): the rest of them and the base list are freed before the files are
    # written (release_memory in lap), the sides once games.csv is (``rated`` is emptied then).
    rated = [result.with_totals_ids_only()]
    calculation = period_calculation(result, new)  # for the history, before the totals go
    del base, result
    notes = start.notes + [
        f"event {u.name!r} ({u.file.path}) has no dates: taken to start in {period}"
        for u in facts
        if not u.dated
    ]
    notes += [n for n in [cadence_note(era, period)] if n]
    # One label for the rest: writing, storing and renaming follow each other quickly.
    clock.lap("first ratings, next list, report", "writing the files and the history")
    record = RunRecord(
        command=request.command,
        period=period,
        started=start.started,
        files=asked.files,
        units=facts,
        inputs=start.inputs,
        replaced=replaced,
        listed=listed,
        new=new,
        first=first,
        earlier_lists=earlier,
        calculation=calculation,
        rating_kind=request.rating_kind,
        rules=era.name,
    )
    run_id, written, more_notes = _publish(
        request, asked, start, record, report, rated, clock, inputs
    )
    return PeriodOutcome(
        period,
        run_id,
        written=written,
        notes=notes + more_notes,
        report=report,
        timings=clock.laps,
        peaks=clock.peaks,
    )


def _publish(
    request: PeriodRequest,
    asked: RunAsked,
    start: RunStart,
    record: RunRecord,
    report: PeriodReport,
    rated: list[RatedPeriod],
    clock: Clock,
    inputs: list[Path],
) -> tuple[int, list[Path], list[str]]:
    """Steps 2 to 5: temporary files (deleted by the batch if the run fails before its
    commit), one transaction, then the renames of the journal."""
    with OutputBatch(asked.out_dir, protect=inputs) as batch:
        files = write_period_outputs(batch, asked.period, record.new, report, rated, request.xlsx)
        clock.lap("write files")
        pause_point("temp-files")
        planned = batch.planned()
        con, run_id = commit_run(
            start.con,
            asked.database,
            record,
            ListFile(files.list_csv_final, files.list_csv_sha256, planned),
        )
        start.con = con
        clock.lap("store in database")
        # Committed: the temporary files now belong to the rename journal; never delete them.
        batch.forget()
    pause_point("committed")
    written = finish_run(con, run_id, planned, asked.out_dir)
    clock.lap("rename")
    return run_id, written, files.notes
