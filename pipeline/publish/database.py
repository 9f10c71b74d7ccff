"""Opening the history database safely: what can go wrong with ``ratings.db`` becomes a clear
problem (code ``bad-database``), never an internal error.

- A zero-byte file is refused: SQLite would take it as a new, empty history, and events already
  rated would be rated again (a disk fault or a failed copy leaves exactly such a file).
- A damaged file ("file is not a database", a malformed page) is refused with the fix.
- Two ``fiderate period`` runs on one database: the second waits for the first's transaction
  (SQLite's busy timeout); if the first has meanwhile published the same period or rated the
  same events, the second is refused with a message saying so, and writes nothing.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pipeline.errors import Code, InputError, Problem
from pipeline.publish import store

BUSY_TIMEOUT_SECONDS = 30.0


def database_problem(path: Path, message: str, fix: str) -> InputError:
    return InputError([Problem(Code.BAD_DATABASE, message, file=str(path), fix=fix)])


def open_history(path: Path) -> sqlite3.Connection | None:
    """The history at ``path``; None when there is none yet (a first run creates it)."""
    if not path.exists():
        return None
    if path.is_file() and path.stat().st_size == 0:
        raise database_problem(
            path,
            "the history database is an empty (zero-byte) file: taking it as a new history "
            "would rate events a second time",
            "restore ratings.db from a backup, or delete the empty file if this really is the "
            "first period",
        )
    return connect(path)


def connect(path: Path) -> sqlite3.Connection:
    try:
        con = store.connect(path)
        con.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        return con
    except sqlite3.Error as exc:
        raise translate(path, exc) from None


def translate(path: Path, exc: sqlite3.Error) -> InputError:
    """A SQLite error met during a run, as a problem a person can act on."""
    if isinstance(exc, sqlite3.IntegrityError):
        return database_problem(
            path,
            "another fiderate run recorded the same period or events in this database at the "
            f"same time ({exc}); this run wrote nothing",
            "run `fiderate period` once at a time per database; check the other run's result",
        )
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
        return database_problem(
            path,
            f"the history database stayed locked by another run for {BUSY_TIMEOUT_SECONDS:.0f} s",
            "wait for the other `fiderate period` run to finish, then run again",
        )
    return database_problem(
        path,
        f"the history database cannot be read: {exc}",
        "restore ratings.db from a backup (it is damaged or not a fiderate database)",
    )
