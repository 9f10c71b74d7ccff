"""Durability of a run: the rename journal's roll-forward and stray temporary files (see
:mod:`pipeline.jobs.period` for the order of the steps; the fsyncs are
:mod:`pipeline.resources.durability`'s). The test hook that stops a run at a named stage is
:mod:`pipeline.resources.pause_points`."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from pipeline.errors import RunError
from pipeline.resources.pause_points import pause_point


class UnfinishedRun(RunError):
    """A committed run whose files could not all be renamed into place (the journal keeps
    them: the next run completes them)."""


def move_into_place(planned: Sequence[tuple[Path, Path]], run_id: int) -> list[Path]:
    """Rename a committed run's temporary files to their final names (step 5 of the run)."""
    written = []
    for i, (tmp, final) in enumerate(planned):
        _replace(tmp, final, run_id)
        written.append(final)
        if i == 0:
            pause_point("mid-rename")
    return written


def _replace(tmp: Path | str, final: Path | str, run_id: int) -> None:
    """``os.replace``, or a clear error when the final name cannot be replaced: on Windows a
    file open in another program (a list open in Excel) cannot be. The run is committed; the
    journal keeps the rename, and the next run on this history completes it."""
    try:
        os.replace(tmp, final)
    except OSError as exc:
        raise UnfinishedRun(
            f"run #{run_id} is recorded in the history, but {str(final)!r} could not be put in "
            f"place ({exc.strerror or exc}): is it open in another program? Close it, then run "
            "the same `fiderate period` command again: it completes the run's files (nothing is "
            "rated again)"
        ) from None


def recover(con: sqlite3.Connection) -> list[int]:
    """Complete the renames of a run that was committed but killed before it finished them."""
    rows = con.execute("SELECT run_id, tmp, final FROM file_moves ORDER BY rowid").fetchall()
    for run_id, tmp, final in rows:
        if Path(tmp).exists():
            _replace(tmp, final, run_id)
    if rows:
        con.execute("DELETE FROM file_moves")
    return sorted({r[0] for r in rows})


def clean_stale_temporaries(out_dir: Path) -> None:
    """Temporary files a killed run left behind (never committed, so never needed)."""
    if out_dir.is_dir():
        for path in out_dir.glob(".*.tmp"):
            path.unlink(missing_ok=True)
