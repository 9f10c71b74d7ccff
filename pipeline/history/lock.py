"""One ``fiderate period`` run at a time per history database: a lock held for the whole run.

Why a lock of our own, besides SQLite's: a run does more than its one transaction. It cleans the
output folder's stray temporary files, writes its outputs beside them, creates the database when
there is none, and renames files after its commit. Two runs at once on one history deleted each
other's temporary files ("No such file or directory") or both created the schema ("table
schema_version already exists"). Now the second run is refused at once, before it reads or
writes anything, with one message: another run holds the history, try again when it is done.

The lock is the operating system's lock on a small file beside the database
(``.ratings.db.lock``): ``fcntl.flock`` on Unix, ``msvcrt.locking`` on Windows, each imported
when a lock is taken, whichever exists (neither exists on the other system). The system
releases it when the process ends, however it ends: a killed run never leaves a stale lock. The
file is removed when the run ends; a run that opened it just before gets the lock of a name no
one sees any more, notices (the name now points to another file, or none) and takes it again.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline.errors import Code, HistoryRefusal, Problem
from pipeline.resources.atomic_files import os_problem

ATTEMPTS = 20  # new lock files met in a row before giving up (each a run that just ended)


def lock_path(database: Path) -> Path:
    return database.with_name(f".{database.name}.lock")


@contextmanager
def holding_history(database: Path) -> Iterator[None]:
    """Hold the history ``database``'s lock for the ``with`` block, or refuse the run
    (``history-in-use``). Creates the database's folder if needed; removes the folders it
    created if they are empty at the end (a refused or failed first run leaves nothing)."""
    created = _make_folders(database.parent)
    try:
        fd = _acquire(lock_path(database), database)
        try:
            yield
        finally:
            _release(fd, lock_path(database))
    finally:
        _remove_empty(database.parent, created)


def _make_folders(folder: Path) -> Path | None:
    """Create ``folder`` and its missing parents; the topmost one created, if any."""
    missing = [p for p in [folder, *folder.parents] if not p.exists()]
    if not missing:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # the lock file cannot be made either: _acquire says why
    return missing[-1]


def _remove_empty(folder: Path, created: Path | None) -> None:
    if created is None:
        return
    for path in [folder, *folder.parents]:
        try:
            path.rmdir()
        except OSError:
            return
        if path == created:
            return


def _in_use(database: Path) -> HistoryRefusal:
    return HistoryRefusal(
        [
            Problem(
                Code.HISTORY_IN_USE,
                "the history database is locked by another `fiderate period` run that is still "
                "working on it; this run read nothing and wrote nothing",
                file=str(database),
                fix="wait for the other run to finish (its outputs and its record are then "
                "complete), then run this one again",
            )
        ]
    )


def _acquire(path: Path, database: Path) -> int:
    for _ in range(ATTEMPTS):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        except PermissionError as exc:
            if os.name == "nt":  # Windows: the file is being deleted by the run that just ended
                time.sleep(0.05)
                continue
            raise os_problem(path.parent, exc) from None
        except OSError as exc:
            raise os_problem(path.parent, exc) from None
        if not _try_lock(fd):
            os.close(fd)
            raise _in_use(database)
        try:
            if os.path.samestat(os.fstat(fd), os.stat(path)):
                return fd
        except FileNotFoundError:
            pass
        # The run that held the lock removed this file after we opened it: take the new one.
        _unlock(fd)
        os.close(fd)
    raise _in_use(database)


def _try_lock(fd: int) -> bool:
    """Take the lock of ``fd`` without waiting; False when another process holds it. The
    system's lock is chosen when a lock is taken: ``fcntl`` where it exists, else ``msvcrt``."""
    try:
        import fcntl
    except ImportError:  # Windows
        return _try_lock_windows(fd)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
            return False
        # A file system without locks (ENOLCK, some network mounts): SQLite's own locking
        # still keeps the database consistent; run without ours.
        return True
    return True


def _try_lock_windows(fd: int) -> bool:
    try:
        import msvcrt
    except ImportError:  # neither: SQLite's own locking still guards the database
        return True
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
    except OSError:
        return False
    return True


def _unlock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:
        try:
            import msvcrt
        except ImportError:
            return
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            pass
        return
    fcntl.flock(fd, fcntl.LOCK_UN)


def _release(fd: int, path: Path) -> None:
    """Remove the lock file, then let the lock go. On Unix the file is removed while the lock
    is held (a run waiting on it then sees the name is gone); Windows cannot remove an open
    file, so there it is closed first, and left in place if another run has it open."""
    if os.name == "nt":
        _unlock(fd)
        os.close(fd)
        try:
            path.unlink()
        except OSError:
            pass
        return
    try:
        if os.path.samestat(os.fstat(fd), os.stat(path)):
            path.unlink()
    except OSError:
        pass
    os.close(fd)
