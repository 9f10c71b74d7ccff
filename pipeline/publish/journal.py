"""Durability of a run: the rename journal's roll-forward, stray temporary files, fsync of the
output folder, and the test hook that stops a run at a named stage (see :mod:`.run` for the order
of the steps)."""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from pathlib import Path

PAUSE_ENV = "FIDERATE_TEST_PAUSE_AT"


def pause_point(stage: str) -> None:
    """Test hook: with FIDERATE_TEST_PAUSE_AT=<stage> the process announces the stage on stderr
    and sleeps, so a test can kill it at exactly this point. Does nothing otherwise."""
    if os.environ.get(PAUSE_ENV) == stage:
        sys.stderr.write(f"FIDERATE_PAUSED {stage}\n")
        sys.stderr.flush()
        time.sleep(3600)


def recover(con: sqlite3.Connection) -> list[int]:
    """Complete the renames of a run that was committed but killed before it finished them."""
    rows = con.execute("SELECT run_id, tmp, final FROM file_moves ORDER BY rowid").fetchall()
    for _, tmp, final in rows:
        if Path(tmp).exists():
            os.replace(tmp, final)
    if rows:
        con.execute("DELETE FROM file_moves")
    return sorted({r[0] for r in rows})


def clean_stale_temporaries(out_dir: Path) -> None:
    """Temporary files a killed run left behind (never committed, so never needed)."""
    if out_dir.is_dir():
        for path in out_dir.glob(".*.tmp"):
            path.unlink(missing_ok=True)


def fsync_dir(path: Path) -> None:
    """Make the renames durable (POSIX); harmless where directories cannot be opened."""
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
