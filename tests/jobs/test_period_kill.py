"""Kill ``fiderate period`` (a real subprocess, SIGKILL) at named stages and check that nothing is
lost: before the commit the list files and the database are exactly as they were and a re-run
succeeds; after the commit the next run completes the interrupted renames (roll forward).

The stages come from the FIDERATE_TEST_PAUSE_AT hook in ``pipeline.jobs.period``: the process
announces the stage on stderr and sleeps there until it is killed.
"""

from __future__ import annotations

import hashlib
import os
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import period_sample, run_cli

# Crash safety: these runs fsync as a user's do (the suite's others run relaxed, tests/conftest.py).
pytestmark = pytest.mark.usefixtures("durable")

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "period"
DECEMBER = (
    "event,round,date,white,black,result\n"
    "December Quad,1,2026-12-05,5100010,5100029,1/2-1/2\n"
    "December Quad,1,2026-12-05,5100037,5100045,1-0\n"
    "December Quad,2,2026-12-06,5100029,5100037,1-0\n"
    "December Quad,2,2026-12-06,5100045,5100010,0-1\n"
    "December Quad,3,2026-12-07,5100010,5100037,1-0\n"
    "December Quad,3,2026-12-07,5100045,5100029,1/2-1/2\n"
)


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """November published (list + database), December's event ready: the state before the run."""
    root = tmp_path_factory.mktemp("kill")
    out = root / "out"
    period_sample(out)
    (root / "december.csv").write_text(DECEMBER, encoding="utf-8")
    return root


def fresh(template: Path, tmp_path: Path) -> Path:
    state = tmp_path / "state"
    shutil.copytree(template, state)
    return state


def command(state: Path) -> list[str]:
    out = state / "out"
    return [
        sys.executable,
        "-m",
        "pipeline",
        "period",
        "--list",
        str(out / "rating_list_2026-12.csv"),
        "--events",
        str(state / "december.csv"),
        "--period",
        "2026-12",
        "--out",
        str(out),
    ]


def snapshot(state: Path) -> tuple[dict[str, str], list[str]]:
    """Every visible file's hash, and the database's rows (opening it rolls back an open
    transaction a killed process left, exactly as the next run would)."""
    out = state / "out"
    files = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.iterdir())
        if not p.name.startswith(".") and p.suffix != ".db" and not p.name.endswith("-journal")
    }
    files["december.csv"] = hashlib.sha256((state / "december.csv").read_bytes()).hexdigest()
    con = sqlite3.connect(out / "ratings.db")
    try:
        dump = list(con.iterdump())
    finally:
        con.close()
    return files, dump


def kill_at(state: Path, stage: str) -> None:
    env = dict(os.environ, FIDERATE_TEST_PAUSE_AT=stage)
    proc = subprocess.Popen(
        command(state), env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL
    )
    assert proc.stderr is not None
    seen = b""
    deadline = time.monotonic() + 60
    try:
        while f"FIDERATE_PAUSED {stage}".encode() not in seen:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"never reached stage {stage!r}: {seen.decode(errors='replace')}"
            ready, _, _ = select.select([proc.stderr], [], [], remaining)
            if ready:
                chunk = os.read(proc.stderr.fileno(), 4096)
                assert chunk or proc.poll() is None, f"exited before {stage!r}: {seen.decode()}"
                seen += chunk
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL


def rerun(state: Path):  # type: ignore[no-untyped-def]
    """The re-run, in-process (only the killed run needs to be a real process)."""
    return run_cli(*command(state)[3:])


def temporaries(state: Path) -> list[str]:
    return sorted(p.name for p in (state / "out").iterdir() if p.name.endswith(".tmp"))


def test_killed_before_the_commit_changes_nothing(template, tmp_path):
    state = fresh(template, tmp_path)
    before = snapshot(state)
    for stage in ("temp-files", "db-written"):
        kill_at(state, stage)
        assert snapshot(state) == before, stage
    assert temporaries(state)  # the killed runs did leave temporary files behind ...
    done = rerun(state)
    assert done.exit_code == 0, done.stderr
    assert temporaries(state) == []  # ... which the next run removed
    assert (state / "out" / "rating_list_2027-01.csv").is_file()
    con = sqlite3.connect(state / "out" / "ratings.db")
    assert con.execute("SELECT COUNT(*) FROM runs WHERE period = '2026-12'").fetchone()[0] == 1
    con.close()
    # The December list is the same as an uninterrupted run's.
    clean = fresh(template, tmp_path / "clean")
    assert rerun(clean).exit_code == 0
    for name in ("rating_list_2027-01.csv", "rating_list_2027-01.txt"):
        assert (state / "out" / name).read_bytes() == (clean / "out" / name).read_bytes()


@pytest.mark.parametrize("stage", ["committed", "mid-rename"])
def test_killed_after_the_commit_is_completed_by_the_next_run(template, tmp_path, stage):
    state = fresh(template, tmp_path)
    kill_at(state, stage)
    con = sqlite3.connect(state / "out" / "ratings.db")
    assert con.execute("SELECT COUNT(*) FROM file_moves").fetchone()[0] > 0  # renames still due
    con.close()
    done = rerun(state)
    assert done.exit_code == 0, done.stderr
    assert "interrupted after it was committed" in done.stdout
    assert temporaries(state) == []
    out = state / "out"
    for name in (
        "rating_list_2027-01.csv",
        "rating_list_2027-01.txt",
        "changes_2026-12.csv",
        "breakdown_2026-12.csv",
        "games_2026-12.csv",
    ):
        assert (out / name).is_file(), name
    con = sqlite3.connect(out / "ratings.db")
    assert con.execute("SELECT COUNT(*) FROM file_moves").fetchone()[0] == 0
    assert (
        con.execute(
            "SELECT COUNT(*) FROM runs WHERE period = '2026-12' AND outcome = 'published'"
        ).fetchone()[0]
        == 1
    )
    con.close()
    # A further run of the same period is now an ordinary repeat: nothing to do (issue 29).
    again = rerun(state)
    assert again.exit_code == 0 and "already published from this file" in again.stdout
