"""The durability switch (pipeline/resources/durability.py): full unless FIDERATE_DURABILITY says
``relaxed``, seen in a real history database's ``synchronous``; relaxed changes no byte written;
the suite's subprocesses run relaxed (tests/conftest.py) and the crash-safety tests full."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.history import database
from pipeline.resources import durability
from tests.conftest import SAMPLE, run_cli
from tests.jobs.schedule_fixtures import snapshot

FULL, OFF = 2, 0  # PRAGMA synchronous's answers


@pytest.mark.parametrize(
    ("value", "synchronous"),
    [(None, FULL), ("full", FULL), ("relaxed", OFF), (" Relaxed ", OFF), ("relax", FULL)],
)
def test_a_history_syncs_fully_unless_relaxed(tmp_path, monkeypatch, value, synchronous):
    if value is None:
        monkeypatch.delenv(durability.ENV, raising=False)
    else:
        monkeypatch.setenv(durability.ENV, value)
    created = database.create_history(tmp_path / "ratings.db")
    opened = database.connect(tmp_path / "ratings.db")
    try:
        for con in (created, opened):
            assert con.execute("PRAGMA synchronous").fetchone()[0] == synchronous
    finally:
        created.close()
        opened.close()


def _period(out: Path, *env: str):  # type: ignore[no-untyped-def]
    period = SAMPLE / "period"
    return run_cli(
        "period", "--list", period / "list_2026-11.csv", "--events", period / "events",
        "--period", "2026-11", "--out", out, "--quiet", "--no-xlsx",
        env=dict(zip(env[::2], env[1::2], strict=True)),
    )  # fmt: skip


def test_relaxed_writes_what_full_writes(tmp_path):
    full = _period(tmp_path / "full", durability.ENV, "full")
    relaxed = _period(tmp_path / "relaxed", durability.ENV, durability.RELAXED)
    assert full.exit_code == relaxed.exit_code == 0, (full.stderr, relaxed.stderr)
    assert full.stdout == relaxed.stdout
    files = _written(tmp_path / "full")
    assert len(files[0]) >= 5 and files[1]
    assert _written(tmp_path / "relaxed") == files


def _written(out: Path) -> tuple[dict[str, str], list[str]]:
    """The folder's files and its history (as SQL, without the audit log), the folder's own
    path and the schema migrations' clock times left out."""
    files, dump = snapshot(out)
    return files, [
        line.replace(str(out), "OUT")
        for line in dump
        if not line.startswith('INSERT INTO "schema_version"')
    ]


def _child_durable() -> str:
    code = "from pipeline.resources.durability import durable; print(durable())"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_the_suite_runs_relaxed_in_its_subprocesses():
    if os.environ[durability.ENV] != durability.RELAXED:
        pytest.skip(f"the suite was started with {durability.ENV}={os.environ[durability.ENV]}")
    assert _child_durable() == "False"


@pytest.mark.usefixtures("durable")
def test_the_durable_fixture_runs_fully_in_subprocesses():
    assert _child_durable() == "True"
