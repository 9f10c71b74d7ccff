"""Opening the history database safely: what can go wrong with ``ratings.db`` becomes a clear
problem (code ``bad-database``), never an internal error.

- A zero-byte file is refused: SQLite would take it as a new, empty history, and events already
  rated would be rated again (a disk fault or a failed copy leaves exactly such a file).
- A damaged file ("file is not a database", a malformed page) is refused with the fix.
- Another program's SQLite file is refused (code ``not-a-history``), never given fiderate's
  tables: a database is fiderate's when it carries fiderate's ``application_id``, or (written
  before the id existed) a schema version and fiderate's own tables.
- A new history is built beside its final name and renamed into place (:func:`create_history`):
  a run killed while creating it leaves no half-made (zero-byte) database, and a re-run works.
- ``fiderate history`` reads the database read-only (:func:`open_read_only`): it never writes,
  never creates a file, and reads a database of an older schema through a migrated copy in
  memory.
- Two ``fiderate period`` runs on one database: the second is refused at once
  (:mod:`.lock`); SQLite's busy timeout stays for readers and as a last guard.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pipeline.errors import Code, HistoryRefusal, Problem
from pipeline.history import store
from pipeline.history.schema import APPLICATION_ID, SCHEMA_VERSION, migrate
from pipeline.resources.durability import fsync_dir, fsync_file, sqlite_sync
from pipeline.resources.pause_points import pause_point

BUSY_TIMEOUT_SECONDS = 30.0
T = TypeVar("T")


def database_problem(
    path: Path, message: str, fix: str, code: Code = Code.BAD_DATABASE
) -> HistoryRefusal:
    return HistoryRefusal([Problem(code, message, file=str(path), fix=fix)])


def open_history(path: Path) -> sqlite3.Connection | None:
    """The history at ``path``; None when there is none yet (a first run creates it)."""
    if not path.exists():
        return None
    _refuse_zero_bytes(path)
    return connect(path)


def _refuse_zero_bytes(path: Path) -> None:
    if path.is_file() and path.stat().st_size == 0:
        raise database_problem(
            path,
            "the history database is an empty (zero-byte) file: taking it as a new history "
            "would rate events a second time",
            "restore ratings.db from a backup, or delete the empty file if this really is the "
            "first period",
        )


def connect(path: Path) -> sqlite3.Connection:
    """An existing history, brought up to the current schema (refused when not fiderate's)."""
    try:
        con = sqlite3.connect(str(path), isolation_level=None)
        try:
            con.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
            _check_fiderate(path, con)
            con.execute("PRAGMA foreign_keys = ON")
            sqlite_sync(con)
            migrate(con)
        except BaseException:
            con.close()
            raise
        return con
    except sqlite3.Error as exc:
        raise translate(path, exc) from None


def create_history(path: Path) -> sqlite3.Connection:
    """A new, empty history at ``path`` (the caller holds the history's lock, so no other run
    creates it meanwhile). Built under a temporary name beside it and renamed into place: the
    database appears complete or not at all."""
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)  # SQLite takes the empty file as a new database
    tmp = Path(name)
    try:
        con = sqlite3.connect(name, isolation_level=None)
        try:
            sqlite_sync(con)
            migrate(con)
        finally:
            con.close()
        fsync_file(tmp)
        pause_point("db-built")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)
    return connect(path)


def clean_stale_builds(path: Path) -> None:
    """Databases a killed run left half-built beside ``path`` (never renamed, never needed)."""
    if path.parent.is_dir():
        for stale in path.parent.glob(f".{path.name}.*.tmp"):
            stale.unlink(missing_ok=True)


def open_read_only(path: Path) -> sqlite3.Connection:
    """The history at ``path`` for reading only (``fiderate history``): nothing is written to
    it, and no file is created when there is none. A database of an older schema is read
    through a copy in memory brought up to the current one."""
    if not path.is_file():
        raise database_problem(
            path,
            "there is no history database here",
            "give the database with --db PATH, or the folder `fiderate period --out` wrote "
            "with --out FOLDER (it holds ratings.db)",
        )
    _refuse_zero_bytes(path)
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        con.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        try:
            _check_fiderate(path, con)
            if con.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                memory = sqlite3.connect(":memory:", isolation_level=None)
                con.backup(memory)
                con.close()
                con = memory
            migrate(con)  # in memory only; a newer schema is refused
        except BaseException:
            con.close()
            raise
        return con
    except sqlite3.Error as exc:
        raise translate(path, exc) from None


def read_player(
    path: Path, player_id: str
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """A player's lists and pending results (``fiderate history``), read-only."""
    return reading(
        path,
        lambda con: (store.player_history(con, player_id), store.player_pending(con, player_id)),
    )


def reading(path: Path, read: Callable[[sqlite3.Connection], T]) -> T:
    """``read`` of the history at ``path``, opened read-only (:func:`open_read_only`). Whatever
    is wrong with the file (damaged pages, a damaged block of a list) is a clear problem."""
    con = open_read_only(path)
    try:
        return read(con)
    except sqlite3.Error as exc:
        raise translate(path, exc) from None
    except (ValueError, OSError, KeyError) as exc:  # a block that does not decode (pyarrow)
        raise database_problem(
            path,
            f"a list stored in the history database cannot be read ({type(exc).__name__}: "
            f"{exc}); the database is damaged",
            "restore ratings.db from a backup",
        ) from None
    finally:
        con.close()


def _check_fiderate(path: Path, con: sqlite3.Connection) -> None:
    """Refuse another program's database: fiderate's carries its application id, or (written
    before the id) a schema version and fiderate's own tables."""
    if con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID:
        return
    version = con.execute("PRAGMA user_version").fetchone()[0]
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if version >= 1 and {"schema_version", "runs", "lists"} <= tables:
        return
    shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
    raise database_problem(
        path,
        "this SQLite database is not a fiderate history"
        + (f" (it holds other tables: {shown})" if tables else " (it holds no tables)")
        + "; it was left as it is",
        "give the ratings.db `fiderate period` wrote with --db, or a new file name for a new "
        "history",
        Code.NOT_A_HISTORY,
    )


def translate(path: Path, exc: sqlite3.Error) -> HistoryRefusal:
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
