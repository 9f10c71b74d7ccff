"""What the history says each published month was made from: its event files (by content hash),
the list it started from, and the months published so far. A scheduled run
(:mod:`pipeline.jobs.period.schedule`) compares these with the files it is given.

No table of its own: each published run already records its inputs (``runs.inputs``: role,
path, sha256 of the list and of every event file) and each live event file (``events``: sha256,
path, period), so these are queries of those. A database of any schema version answers them.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from pipeline.history import store
from pipeline.rules.rating_kinds import DEFAULT_KIND


@dataclass(frozen=True)
class PublishedMonth:
    """A published period and the event files (sha256 -> path) it was rated from."""

    period: str
    run_id: int
    events: dict[str, str]


def published_month(
    con: sqlite3.Connection, period: str, rating_kind: str = DEFAULT_KIND
) -> PublishedMonth | None:
    """The live published run of ``period``'s list of that kind and its event files, if the
    month is published."""
    run = store.published_run(con, period, rating_kind)
    if run is None:
        return None
    rows = con.execute(
        "SELECT sha256, path FROM events WHERE run_id = ? AND superseded = 0 ORDER BY id",
        (run.run_id,),
    )
    return PublishedMonth(period, run.run_id, {sha: path for sha, path in rows})


def published_periods(con: sqlite3.Connection, rating_kind: str = DEFAULT_KIND) -> list[str]:
    """Every period with a live published list of that kind, in order."""
    rows = con.execute(
        "SELECT DISTINCT period FROM runs WHERE outcome = 'published' AND superseded_by IS NULL "
        "AND rating_kind = ? ORDER BY period",
        (rating_kind,),
    )
    return [r[0] for r in rows]


def list_file_in_force(
    con: sqlite3.Connection, month: str, rating_kind: str = DEFAULT_KIND
) -> tuple[str, str] | None:
    """(file, sha256) of the list of that kind in force in ``month`` as the history knows it:
    the list it published for that month, else the list a run started from (an ``input``
    list)."""
    row = con.execute(
        "SELECT source, sha256 FROM lists WHERE effective = ? AND rating_kind = ? "
        "AND superseded = 0 ORDER BY kind = 'published' DESC, id DESC LIMIT 1",
        (month, rating_kind),
    ).fetchone()
    return (row[0], row[1]) if row else None


def nothing_to_do_note(period: str, files: int) -> str:
    """What a run is told when its month was published from the same inputs already (an
    explicit run and a scheduled one say it alike)."""
    inputs = "this file" if files == 1 else f"these {files} files"
    return f"{period} already published from {inputs}; nothing to do"


def log_nothing_to_do(
    con: sqlite3.Connection,
    *,
    started: str,
    finished: str,
    user: str,
    command: str,
    period: str,
    rating_kind: str,
) -> int:
    """The audit log's row of a run that found its month published from the same inputs (the
    one row such a run adds: it changes nothing else)."""
    return store.insert_run(
        con,
        started_at=started,
        finished_at=finished,
        user=user,
        command=command,
        period=period,
        rating_kind=rating_kind,
        outcome="nothing-to-do",
        message=f"{period} already published from the same inputs",
        inputs=[],
    )
