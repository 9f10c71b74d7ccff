"""What a period run asks the history before it reads a line: step 1 of
:mod:`pipeline.jobs.period` up to the rating.

In one call, so the run goes down to the history once: open it (completing the renames of a run
killed after its commit), note the inputs by their hashes, answer at once when the month is
already published from the same inputs (a re-run: exit 0, one audit row), and refuse an event
already rated or a period already published. A refusal is recorded in the audit log before it is
raised; so is any later failure of the run (:func:`record_failure`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import FiderateError, HistoryRefusal
from pipeline.history import database
from pipeline.history import store as history
from pipeline.history.checks import check_history, check_out_folder, list_notes, same_inputs
from pipeline.history.journal import UnfinishedRun, clean_stale_temporaries, recover
from pipeline.history.published_inputs import log_nothing_to_do, nothing_to_do_note
from pipeline.history.record import now, user
from pipeline.model import EventFile
from pipeline.resources.file_hash import sha256_of
from pipeline.rules.rating_kinds import DEFAULT_KIND


@dataclass
class RunStart:
    """The history as a run finds it. ``done``: the run's answer is already known (a committed
    run completed by recovery, or the month published from these inputs) and nothing is rated."""

    con: sqlite3.Connection | None  # None: no history yet (a first run creates it)
    started: str  # ISO time, UTC
    inputs: list[dict[str, str]]  # the audit record of every input: role, path, sha256
    rating_kind: str = DEFAULT_KIND  # the kind of list the run publishes
    replaced: int | None = None  # the run --replace supersedes
    notes: list[str] = field(default_factory=list)
    done: int | None = None  # the run id that already answers this run
    done_note: str = ""
    recovered: bool = False


@dataclass(frozen=True)
class RunAsked:
    """What the command asks of the history: the run's identity and its inputs."""

    database: Path
    out_dir: Path
    period: str
    list_path: Path
    files: Sequence[EventFile]
    earlier_lists: Sequence[tuple[str, Path]] = ()
    replace: bool = False
    command: str = "fiderate period"
    rating_kind: str = DEFAULT_KIND  # standard, rapid or blitz: the list the run publishes


def describe_inputs(asked: RunAsked, list_hash: str) -> list[dict[str, str]]:
    """The run's audit record of its inputs: the list, each event file, each earlier list."""
    return (
        [{"role": "list", "path": str(asked.list_path), "sha256": list_hash}]
        + [{"role": "event", "path": str(f.path), "sha256": f.sha256} for f in asked.files]
        + [
            {
                "role": f"earlier-list {month}",
                "path": str(path),
                "sha256": sha256_of(path) if path.is_file() else "",
            }
            for month, path in asked.earlier_lists
        ]
    )


def start_run(asked: RunAsked) -> RunStart:
    """Open the history for a run and check the run against it (see the module docstring)."""
    started = now()
    con = database.open_history(asked.database)
    start = RunStart(con, started, [], asked.rating_kind)
    try:
        recovered = recover(con) if con is not None else []
        clean_stale_temporaries(asked.out_dir)
        database.clean_stale_builds(asked.database)
        list_hash = sha256_of(asked.list_path) if asked.list_path.is_file() else ""
        start.inputs = describe_inputs(asked, list_hash)
        if con is None:  # a new history: nothing published, nothing to refuse
            return start
        for run_id in recovered:
            row = con.execute(
                "SELECT period, rating_kind FROM runs WHERE id = ?", (run_id,)
            ).fetchone()
            if (
                row
                and tuple(row) == (asked.period, asked.rating_kind)
                and same_inputs(history.run_inputs(con, run_id), start.inputs)
            ):
                start.done, start.recovered = run_id, True
                start.done_note = (
                    f"run #{run_id} of period {asked.period} had been interrupted after it was "
                    "committed; its output files are now complete"
                )
                return start
        if not asked.replace and (done := _unchanged_rerun(con, asked, start)) is not None:
            # The same command again after it worked: nothing to do (exit 0), nothing changes.
            start.done = done
            start.done_note = nothing_to_do_note(asked.period, len(asked.files))
            return start
        start.replaced = check_history(
            con, asked.period, asked.files, asked.replace, asked.database, asked.rating_kind
        )
        check_out_folder(con, asked.out_dir, asked.rating_kind, asked.database)
        start.notes = list_notes(con, asked.period, list_hash, asked.rating_kind)
        return start
    except FiderateError as exc:
        record_failure(start, asked.period, asked.command, exc)
        raise


def _unchanged_rerun(con: sqlite3.Connection, asked: RunAsked, start: RunStart) -> int | None:
    """An explicit run of a month published from the same inputs (the list's and the events'
    contents): the published run's id, after logging this one; None when the month is not
    published or its inputs differ."""
    run = history.published_run(con, asked.period, asked.rating_kind)
    if run is None or not same_inputs(history.run_inputs(con, run.run_id), start.inputs):
        return None
    log_nothing_to_do(
        con,
        started=start.started,
        finished=now(),
        user=user(),
        command=asked.command,
        period=asked.period,
        rating_kind=asked.rating_kind,
    )
    return run.run_id


def record_failure(start: RunStart, period: str, command: str, exc: FiderateError) -> None:
    """The audit row of a run that was refused or failed (a run recorded as unfinished already
    has its row), and the history closed."""
    con = start.con
    if con is None:
        return
    if not isinstance(exc, UnfinishedRun):
        history.insert_run(
            con,
            started_at=start.started,
            finished_at=now(),
            user=user(),
            command=command,
            period=period,
            rating_kind=start.rating_kind,
            outcome="refused" if isinstance(exc, HistoryRefusal) else "failed",
            message=str(exc)[:4000],
            inputs=start.inputs,
        )
    con.close()
    start.con = None


def record_failure_before_start(
    db_path: Path, period: str, command: str, exc: FiderateError, rating_kind: str = DEFAULT_KIND
) -> None:
    """The audit row of a run that failed before it asked the history anything (an event
    path that is missing or not a file), when the history exists."""
    start = RunStart(database.open_history(db_path), now(), [], rating_kind)
    record_failure(start, period, command, exc)
