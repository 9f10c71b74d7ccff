"""Durability: whether a run's files, the renames that publish them and the history database
reach the disk before the run says it is done. Every fsync of the pipeline goes through here.

``FIDERATE_DURABILITY`` chooses, read at each call (a test or a scheduler sets it per process):

- unset, ``full`` or any other value: files and folders are fsynced, SQLite runs
  ``synchronous=FULL``. A power cut after "published" loses nothing; this is the default.
- ``relaxed``: no fsync, SQLite ``synchronous=OFF``. The order of the writes and the rename
  journal are unchanged, so a killed *process* still leaves the folder and the history whole
  (the operating system keeps what was written); only a crash of the *machine* may lose the
  last run. The test suite runs relaxed (``tests/conftest.py``), except the tests of crash
  safety; nothing else should (docs/safety.md).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

ENV = "FIDERATE_DURABILITY"
RELAXED = "relaxed"


def durable() -> bool:
    """Whether writes are made durable (anything but ``FIDERATE_DURABILITY=relaxed``: a typo
    keeps the safe default)."""
    return os.environ.get(ENV, "").strip().lower() != RELAXED


def fsync_file(path: Path) -> None:
    """Flush a written file's contents to the disk (before it is renamed into place)."""
    if not durable():
        return
    with path.open("rb") as fh:
        os.fsync(fh.fileno())


def fsync_dir(path: Path) -> None:
    """Make the renames in a folder durable (POSIX); harmless where folders cannot be opened
    (Windows), where a rename is durable once it returns."""
    if not durable():
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def sqlite_sync(con: sqlite3.Connection) -> None:
    """Set a history connection's ``synchronous``: FULL (SQLite waits for the disk at each
    commit, so a committed run survives a power cut) or, relaxed, OFF."""
    con.execute(f"PRAGMA synchronous = {'FULL' if durable() else 'OFF'}")
