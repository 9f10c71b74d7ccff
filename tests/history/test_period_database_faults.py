"""The history database under faults (issue 14, item 8): a zero-byte ratings.db is refused (it is
not a new history), a damaged one is a clear error, and two `period` runs on one database never
end in an IntegrityError: the second is refused with a message saying why and writes nothing."""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import time

import pytest

from pipeline.history import database
from tests.conftest import run_cli
from tests.jobs.test_period_kill import command, fresh, snapshot, template  # noqa: F401

# Crash safety: these runs fsync as a user's do (the suite's others run relaxed, tests/conftest.py).
pytestmark = pytest.mark.usefixtures("durable")


def run_in_process(state):  # type: ignore[no-untyped-def]
    return run_cli(*command(state)[3:])


def visible(state) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(p.name for p in (state / "out").iterdir() if not p.name.startswith("."))


def assert_refused(result, *words: str) -> None:  # type: ignore[no-untyped-def]
    assert result.exit_code == 1, result.output
    assert "[bad-database]" in result.stderr, result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


def test_zero_byte_database_is_refused(template, tmp_path):  # noqa: F811
    state = fresh(template, tmp_path)
    (state / "out" / "ratings.db").write_bytes(b"")
    before = visible(state)
    result = run_in_process(state)
    assert_refused(result, "zero-byte", "backup")
    assert visible(state) == before
    assert (state / "out" / "ratings.db").stat().st_size == 0


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: b"this is not a database at all\n" * 100, id="not-sqlite"),
        pytest.param(lambda data: data[:100] + b"\x00" * (len(data) - 100), id="pages-zeroed"),
        pytest.param(lambda data: data[: len(data) // 3], id="truncated"),
    ],
)
def test_damaged_database_is_a_clear_error(template, tmp_path, damage):  # noqa: F811
    state = fresh(template, tmp_path)
    db = state / "out" / "ratings.db"
    db.write_bytes(damage(db.read_bytes()))
    before = visible(state)
    result = run_in_process(state)
    assert_refused(result, "backup")
    assert visible(state) == before


def test_a_second_run_that_lost_the_race_is_refused(template, tmp_path, monkeypatch):  # noqa: F811
    # Both runs checked the history before either published: the first commits, the second's
    # insert meets the first's rows. Simulated by letting the second skip its check.
    state = fresh(template, tmp_path)
    assert run_in_process(state).exit_code == 0
    published = snapshot(state)
    import pipeline.history.run_start as run_start

    monkeypatch.setattr(run_start, "check_history", lambda *args, **kwargs: None)
    monkeypatch.setattr(run_start, "_unchanged_rerun", lambda *args, **kwargs: None)
    result = run_in_process(state)
    assert_refused(result, "same time", "wrote nothing")
    assert snapshot(state) == published


def test_a_run_on_a_busy_history_is_refused_at_once(template, tmp_path, monkeypatch):  # noqa: F811
    # A real first process holds the history (paused inside its write transaction); the second,
    # with another --out, is refused at once by the history's lock, before it reads or writes
    # anything (the busy timeout is not even waited for).
    state = fresh(template, tmp_path)
    other = tmp_path / "other.csv"
    shutil.copy(state / "december.csv", other)
    monkeypatch.setattr(database, "BUSY_TIMEOUT_SECONDS", 1.0)
    env = dict(os.environ, FIDERATE_TEST_PAUSE_AT="db-written")
    proc = subprocess.Popen(
        command(state), env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL
    )
    try:
        assert proc.stderr is not None
        seen, deadline = b"", time.monotonic() + 60
        while b"FIDERATE_PAUSED db-written" not in seen:
            assert time.monotonic() < deadline, seen
            ready, _, _ = select.select([proc.stderr], [], [], 5)
            if ready:
                chunk = os.read(proc.stderr.fileno(), 4096)
                assert chunk, seen
                seen += chunk
        args = command(state)[3:]
        args[args.index("--events") + 1] = str(other)
        out2 = tmp_path / "out2"
        args += ["--db", str(state / "out" / "ratings.db")]
        args[args.index("--out") + 1] = str(out2)
        result = run_cli(*args)
        assert result.exit_code == 75, result.output  # EX_TEMPFAIL: try again later (issue 29)
        assert "[history-in-use]" in result.stderr and "locked" in result.stderr, result.stderr
        assert "another run is using the history database" in result.stderr
        assert not out2.exists()  # the folder this run created is removed again
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        if proc.stderr is not None:
            proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
