"""The history database guarded (issue 26, items 11, 12 and 14):

- a new ratings.db is built beside its name and renamed into place: a run killed while creating
  it leaves no zero-byte database, and the re-run just works;
- two ``fiderate period`` runs at once on one history (real processes): the loser gets one clear
  message, the winner's outputs and record are intact;
- ``fiderate history`` never writes: the database's bytes are unchanged, an old-schema database
  is read through a copy in memory;
- the list and the events are read on two threads: pandera's first-use set-up (its back-end
  registries) is done before they start, never on them.
"""

from __future__ import annotations

import os
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import pipeline.history.schema as store_schema
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "period"
DATA = Path(__file__).resolve().parent / "data"


def period_command(out: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pipeline",
        "period",
        "--list",
        str(SAMPLE / "list_2026-11.csv"),
        "--events",
        str(SAMPLE / "events"),
        "--period",
        "2026-11",
        "--out",
        str(out),
        "-q",
        *extra,
    ]


def wait_for_pause(proc: subprocess.Popen[bytes], stage: str) -> None:
    assert proc.stderr is not None
    seen, deadline = b"", time.monotonic() + 120
    while f"FIDERATE_PAUSED {stage}".encode() not in seen:
        assert time.monotonic() < deadline, seen
        ready, _, _ = select.select([proc.stderr], [], [], 5)
        if ready:
            chunk = os.read(proc.stderr.fileno(), 4096)
            assert chunk, seen  # the process ended without pausing there
            seen += chunk


def test_a_run_killed_while_creating_the_database_leaves_none(tmp_path):
    out = tmp_path / "out"
    env = dict(os.environ, FIDERATE_TEST_PAUSE_AT="db-built")
    proc = subprocess.Popen(
        period_command(out), env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL
    )
    try:
        wait_for_pause(proc, "db-built")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        assert proc.stderr is not None
        proc.stderr.close()
    assert not (out / "ratings.db").exists()  # no half-made database under the real name
    result = run_cli(*period_command(out)[3:])
    assert result.exit_code == 0, result.stderr
    assert (out / "ratings.db").stat().st_size > 0
    assert (out / "rating_list_2026-12.csv").is_file()
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []


def test_an_interrupted_schema_creation_does_not_block_the_next_run(tmp_path, monkeypatch):
    # Ctrl-C while the new database's tables are created: the database must not be left behind
    # empty (the next run would refuse it as a lost history).
    def interrupted(con):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    out = tmp_path / "out"
    steps = [list(step) for step in store_schema.MIGRATIONS]
    steps[1].insert(0, interrupted)
    monkeypatch.setattr(store_schema, "MIGRATIONS", steps)
    result = run_cli(*period_command(out)[3:])
    assert result.exit_code == 130, result.output
    assert not (out / "ratings.db").exists()
    monkeypatch.undo()
    result = run_cli(*period_command(out)[3:])
    assert result.exit_code == 0, result.stderr
    assert (out / "rating_list_2026-12.csv").is_file()


LOSER_SAYS = "[history-in-use]"
NEVER_SAYS = ("Traceback", "internal error", "already exists", "No such file", "[bad-database]")


@pytest.mark.parametrize("history", ["new", "existing"])
def test_two_runs_at_once_one_wins_one_is_told(tmp_path, history):
    reference = tmp_path / "reference"
    assert run_cli(*period_command(reference)[3:]).exit_code == 0
    expected = {
        name: (reference / name).read_bytes()
        for name in ("rating_list_2026-12.csv", "changes_2026-11.csv", "games_2026-11.csv")
    }
    for trial in range(2):
        out = tmp_path / f"trial{trial}"
        if history == "existing":
            # An existing history, still empty: both runs publish November into it.
            out.mkdir()
            con = sqlite3.connect(out / "ratings.db")
            store_schema.migrate(con)
            con.close()
        procs = [
            subprocess.Popen(
                period_command(out), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
            for _ in range(2)
        ]
        results = []
        for proc in procs:
            stdout, stderr = proc.communicate(timeout=300)
            results.append((proc.returncode, stdout + stderr))
        # The second is refused while the first holds the history (75, try again later), or,
        # once it has published, finds November published from the same files (0, issue 29).
        codes = sorted(code for code, _ in results)
        assert codes in ([0, 0], [0, 75]), results
        for _, text in results:
            assert not any(word in text for word in NEVER_SAYS), text
        if codes == [0, 75]:
            assert LOSER_SAYS in next(text for code, text in results if code == 75)
        for name, data in expected.items():
            assert (out / name).read_bytes() == data, (trial, name)
        assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []
        con = sqlite3.connect(out / "ratings.db")
        published = con.execute("SELECT COUNT(*) FROM runs WHERE outcome = 'published'")
        assert published.fetchone()[0] == 1
        idle = con.execute("SELECT COUNT(*) FROM runs WHERE outcome = 'nothing-to-do'")
        assert idle.fetchone()[0] == (1 if codes == [0, 0] else 0)
        assert con.execute("SELECT COUNT(*) FROM file_moves").fetchone()[0] == 0
        con.close()


@pytest.mark.parametrize("name", ["ratings_v1.db", "ratings_v2.db"])
def test_history_never_writes_even_an_old_schema(tmp_path, name):
    db = tmp_path / name
    db.write_bytes((DATA / name).read_bytes())
    before = db.read_bytes()
    result = run_cli("history", "5100010", "--db", db, "--json")
    assert result.exit_code == 0, result.stderr
    assert '"lists"' in result.stdout
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_history_reads_the_folder_period_wrote(tmp_path):
    out = tmp_path / "out"
    assert run_cli(*period_command(out)[3:]).exit_code == 0
    by_folder = run_cli("history", "5100029", "--out", out, "--json")
    by_db = run_cli("history", "5100029", "--db", out / "ratings.db", "--json")
    assert by_folder.exit_code == 0, by_folder.stderr
    assert by_folder.stdout == by_db.stdout
    both = run_cli("history", "5100029", "--out", out, "--db", out / "ratings.db")
    assert both.exit_code == 2


THREAD_WATCH = """
import builtins, sys, threading
real = builtins.__import__
late = []
# pandera's set-up on first use, and hypothesis, which it imports: its lambda_sources walks
# sys.modules.items() unguarded, which another thread's import changes.
WATCHED = ("pandera", "hypothesis")
def watched(name, *args, **kwargs):
    known = set(sys.modules)
    module = real(name, *args, **kwargs)
    if threading.current_thread() is not threading.main_thread():
        late.extend(m for m in set(sys.modules) - known if m.split(".")[0] in WATCHED)
    return module
builtins.__import__ = watched
sys.setswitchinterval(1e-6)  # switch threads as often as possible: a race shows more often
from pipeline.cli import cli
try:
    cli(sys.argv[1:], prog_name="fiderate")
finally:
    print("SET UP ON THREADS:", sorted(set(late)), file=sys.stderr)
"""


def test_pandera_is_set_up_before_the_reading_threads_start(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", THREAD_WATCH, *period_command(tmp_path / "out")[3:]],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "SET UP ON THREADS: []" in result.stderr, result.stderr[-3000:]


def test_an_output_that_cannot_be_replaced_is_a_clear_error_and_the_rerun_completes(
    tmp_path, monkeypatch
):
    # Windows refuses to replace a file open in another program (the list open in Excel): the
    # run is committed by then, so it says so, and the same command again completes the files.
    import pipeline.history.journal as journal

    real = os.replace

    def in_use(src, dst):  # type: ignore[no-untyped-def]
        if str(dst).endswith(".txt"):
            raise PermissionError(13, "Permission denied", str(dst))
        real(src, dst)

    out = tmp_path / "out"
    monkeypatch.setattr(journal.os, "replace", in_use)
    result = run_cli(*period_command(out)[3:])
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert "run #1 is recorded" in result.stderr and "open in another program" in result.stderr
    assert not (out / "rating_list_2026-12.txt").exists()
    monkeypatch.undo()
    again = run_cli(*period_command(out)[3:])
    assert again.exit_code == 0, again.stderr
    assert (out / "rating_list_2026-12.txt").is_file()
    con = sqlite3.connect(out / "ratings.db")
    outcomes = [r[0] for r in con.execute("SELECT outcome FROM runs ORDER BY id")]
    con.close()
    assert outcomes == ["published"]
