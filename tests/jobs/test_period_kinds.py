"""``fiderate period`` with three kinds of list in one history (issue 36): each kind has its own
months, so a scheduled run and ``--replace`` go by the kind's own lists; an event is rated for one
list only; and each kind's files need a folder of their own (they are named by month)."""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
from pathlib import Path

import pytest

from pipeline.errors import HistoryRefusal
from pipeline.jobs.period import PeriodRequest, run_period
from tests.conftest import ROOT, run_cli

SAMPLE = ROOT / "sample_data" / "period"
DEC = "event,round,date,white,black,result\n{name},1,2026-12-02,5100010,5100029,{result}\n"


def events(folder: Path, name: str, result: str = "1-0") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.csv").write_text(DEC.format(name=name, result=result))
    return folder


@pytest.fixture
def november(tmp_path) -> Path:
    """The sample's November published for standard (its events) and rapid (a copy of them,
    renamed: another file) into one history; returns the folder holding it all."""
    rapid_events = tmp_path / "rapid_events"
    shutil.copytree(SAMPLE / "events", rapid_events)
    for path in rapid_events.iterdir():
        path.write_text(path.read_text().replace("2026,", "2026 rapid,"))
    for kind, given in (("standard", SAMPLE / "events"), ("rapid", rapid_events)):
        run_period(
            PeriodRequest(
                list_path=SAMPLE / "list_2026-11.csv", events=(given,), period="2026-11",
                out_dir=tmp_path / kind, db_path=tmp_path / "ratings.db", rules=kind, xlsx=False,
            )
        )  # fmt: skip
    return tmp_path


def published(db: Path) -> list[tuple[str, str, int]]:
    con = sqlite3.connect(db)
    try:
        return con.execute(
            "SELECT rating_kind, period, superseded_by IS NOT NULL FROM runs "
            "WHERE outcome = 'published' ORDER BY id"
        ).fetchall()
    finally:
        con.close()


def test_a_scheduled_run_and_replace_go_by_the_kinds_own_months(november):
    db = november / "ratings.db"
    # The scheduled line of rapid: its own list in force (the rapid December list), its month.
    done = run_period(
        PeriodRequest(
            list_path=None, events=(events(november / "inbox-rapid", "rapid-dec"),),
            period=None, out_dir=november / "rapid", db_path=db, rules="rapid", xlsx=False,
            today=dt.date(2027, 1, 2),
        )
    )  # fmt: skip
    assert [m.period for m in done.months] == ["2026-12"]
    # Standard is still at November: replacing it is allowed (its latest), and rapid's
    # December does not stand in the way.
    again = run_period(
        PeriodRequest(
            list_path=SAMPLE / "list_2026-11.csv", events=(SAMPLE / "events",), period="2026-11",
            out_dir=november / "standard", db_path=db, rules="standard", replace=True,
            xlsx=False,
        )
    )  # fmt: skip
    assert again.period == "2026-11"
    assert published(db) == [
        ("standard", "2026-11", 1),
        ("rapid", "2026-11", 0),
        ("rapid", "2026-12", 0),
        ("standard", "2026-11", 0),
    ]
    # Rapid's November can no longer be replaced: its December is published.
    with pytest.raises(HistoryRefusal, match="rapid lists go up to 2026-12"):
        run_period(
            PeriodRequest(
                list_path=SAMPLE / "list_2026-11.csv", events=(), period="2026-11",
                out_dir=november / "rapid", db_path=db, rules="rapid", replace=True, xlsx=False,
            )
        )  # fmt: skip


def test_an_event_is_rated_for_one_list(november):
    db = november / "ratings.db"
    result = run_cli(
        "period", "--list", november / "standard" / "rating_list_2026-12.csv",
        "--events", november / "rapid_events", "--period", "2026-12",
        "--out", november / "standard", "--db", db,
    )  # fmt: skip
    assert result.exit_code == 1
    assert "already rated in period 2026-11 for the rapid list" in result.stderr


def test_two_kinds_in_one_out_folder_are_refused(november):
    db = november / "ratings.db"
    standard_list = november / "standard" / "rating_list_2026-12.csv"
    before = standard_list.read_bytes()
    result = run_cli(
        "period", "--list", standard_list, "--events", events(november / "b", "blitz-dec"),
        "--period", "2026-12", "--out", november / "standard", "--db", db, "--rules", "blitz",
    )  # fmt: skip
    assert result.exit_code == 1, result.stdout
    assert "holds the standard lists this history published" in result.stderr
    assert "Traceback" not in result.stderr
    assert standard_list.read_bytes() == before
    assert not (november / "standard" / "rating_list_2027-01.csv").exists()
    assert [k for k, *_ in published(db)] == ["standard", "rapid"]


def test_a_kinds_lists_are_the_same_with_or_without_the_others(tmp_path):
    """Standard and rapid interleaved in one history publish byte for byte the lists each
    publishes in a history of its own: nothing of one kind leaks into the other's runs (list
    in force, last played, pending results, first ratings)."""
    rapid_events = tmp_path / "rapid_events"
    shutil.copytree(SAMPLE / "events", rapid_events)
    for path in rapid_events.iterdir():
        path.write_text(path.read_text().replace("2026,", "2026 rapid,"))
    november = {"standard": SAMPLE / "events", "rapid": rapid_events}

    def publish(kind: str, out: Path, db: Path, month: str) -> None:
        listed = (
            SAMPLE / "list_2026-11.csv" if month == "2026-11" else out / f"rating_list_{month}.csv"
        )
        given = (
            november[kind]
            if month == "2026-11"
            else events(tmp_path / f"{kind}-{month}", f"{kind}-{month}")
        )
        run_period(
            PeriodRequest(
                list_path=listed, events=(given,), period=month, out_dir=out, db_path=db,
                rules=kind, xlsx=False,
            )
        )  # fmt: skip

    for month in ("2026-11", "2026-12"):
        for kind in november:
            publish(kind, tmp_path / "shared" / kind, tmp_path / "shared.db", month)
            publish(kind, tmp_path / "alone" / kind, tmp_path / f"{kind}.db", month)
    for kind in november:
        for name in ("rating_list_2027-01.csv", "changes_2026-12.csv", "rating_list_2026-12.csv"):
            shared = (tmp_path / "shared" / kind / name).read_bytes()
            assert shared == (tmp_path / "alone" / kind / name).read_bytes(), (kind, name)
