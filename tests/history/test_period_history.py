"""The history store on its own: schema versioning, the audit of failed runs."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from pipeline.errors import InputError, RunError
from pipeline.history.store import SCHEMA_VERSION, connect
from pipeline.jobs.period import PeriodRequest, run_period

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "period"


def test_new_database_is_created_at_the_current_version(tmp_path):
    con = connect(tmp_path / "h.db")
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    versions = [r[0] for r in con.execute("SELECT version FROM schema_version")]
    assert versions == list(range(1, SCHEMA_VERSION + 1))
    con.close()
    # Opening again migrates nothing.
    con = connect(tmp_path / "h.db")
    assert con.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == SCHEMA_VERSION
    con.close()


def test_a_newer_database_is_refused(tmp_path):
    path = tmp_path / "h.db"
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(RunError, match="newer than this fiderate"):
        connect(path)


def test_a_missing_event_path_is_audited_too(tmp_path):
    # Found before the history is asked anything: still a failed run of an existing history.
    out = tmp_path / "out"
    run_period(PeriodRequest(list_path=SAMPLE / "list_2026-11.csv", events=(SAMPLE / "events",),
                             period="2026-11", out_dir=out))  # fmt: skip
    with pytest.raises(InputError) as caught:
        run_period(PeriodRequest(list_path=out / "rating_list_2026-12.csv",
                                 events=(tmp_path / "no-such-folder",), period="2026-12",
                                 out_dir=out))  # fmt: skip
    assert "no-such-folder" in str(caught.value)
    con = sqlite3.connect(out / "ratings.db")
    runs = con.execute("SELECT period, outcome, message FROM runs ORDER BY id").fetchall()
    con.close()
    assert [(r[0], r[1]) for r in runs] == [("2026-11", "published"), ("2026-12", "failed")]
    assert "no-such-folder" in runs[1][2]


def test_a_failed_run_is_audited_and_changes_nothing_else(tmp_path):
    events = tmp_path / "events"
    shutil.copytree(SAMPLE / "events", events)
    out = tmp_path / "out"
    request = PeriodRequest(list_path=SAMPLE / "list_2026-11.csv", events=(events,),
                            period="2026-11", out_dir=out)  # fmt: skip
    run_period(request)
    december = tmp_path / "december"
    december.mkdir()
    (december / "bad.csv").write_text(
        "event,round,date,white,black,result\nBad,1,2026-12-02,5100010,5100029,3-0\n"
    )
    before = sorted(p.name for p in out.iterdir())
    with pytest.raises(InputError) as caught:
        run_period(PeriodRequest(list_path=out / "rating_list_2026-12.csv", events=(december,),
                                 period="2026-12", out_dir=out))  # fmt: skip
    assert any(p.code == "bad-result" and p.file.endswith("bad.csv") for p in caught.value.problems)
    assert sorted(p.name for p in out.iterdir()) == before
    con = sqlite3.connect(out / "ratings.db")
    runs = con.execute("SELECT period, outcome, user, inputs FROM runs ORDER BY id").fetchall()
    assert [(r[0], r[1]) for r in runs] == [("2026-11", "published"), ("2026-12", "failed")]
    assert runs[1][2] and "bad.csv" in runs[1][3]
    assert con.execute("SELECT COUNT(*) FROM lists WHERE effective = '2027-01'").fetchone()[0] == 0
