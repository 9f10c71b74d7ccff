"""The end of a period run in the history: steps 3 to 5 of :mod:`pipeline.jobs.period`.

:func:`commit_run` records the run in one transaction (the run, its inputs, the published list,
the events, the first ratings, the earlier lists given and the rename journal) and commits it:
the single commit point of a run. :func:`finish_run` then renames the temporary files into
place and clears the journal; a run killed between the two is completed by the next run
(:func:`pipeline.history.journal.recover`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from pipeline.history import database
from pipeline.history import store as history
from pipeline.history.journal import move_into_place
from pipeline.history.record import ListFile, RunRecord, record_run
from pipeline.model import EarlierList
from pipeline.resources.durability import fsync_dir
from pipeline.resources.pause_points import pause_point


def commit_run(
    con: sqlite3.Connection | None, db_path: Path, record: RunRecord, files: ListFile
) -> tuple[sqlite3.Connection, int]:
    """Record the run and commit (a first run creates the history here). Returns the open
    history and the run's id; on any failure nothing of the run is in the history."""
    if con is None:
        con = database.create_history(db_path)
    con.execute("BEGIN IMMEDIATE")
    try:
        run_id = record_run(con, record, files)
        record_earlier_lists(con, run_id, record.earlier_lists, record.rating_kind)
        pause_point("db-written")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return con, run_id


def finish_run(
    con: sqlite3.Connection, run_id: int, planned: Sequence[tuple[Path, Path]], out_dir: Path
) -> list[Path]:
    """Rename the committed run's files into place, make the renames durable, clear the
    journal and close the history. Returns the final paths."""
    written = move_into_place(planned, run_id)
    fsync_dir(out_dir)
    history.clear_file_moves(con, run_id)
    con.close()
    return written


def record_earlier_lists(
    con: sqlite3.Connection, run_id: int, lists: Mapping[str, EarlierList], rating_kind: str
) -> None:
    """Store each list the history does not hold yet as the input list of the run's kind in
    force in its month."""
    for month, given in sorted(lists.items()):
        if history.has_list_in_force(con, month, rating_kind):
            continue
        rows = given.players.players.drop(columns=["line"], errors="ignore").copy()
        rows["period_games"] = pd.array([pd.NA] * len(rows), dtype="Int64")
        history.insert_list(
            con,
            run_id,
            "input",
            month,
            None,
            given.players.source,
            given.sha256,
            rows,
            rating_kind=rating_kind,
        )
