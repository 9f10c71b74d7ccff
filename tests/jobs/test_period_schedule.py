"""Scheduled period runs (issue 29): the months due by the calendar, what the officer is told
(nothing to do, waiting, changed inputs), the JSON summary and ``run-YYYY-MM.json``, an old
history read by the scheduled run, and the systemd units of docs/scheduling.md."""

from __future__ import annotations

import calendar
import datetime as dt
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.jobs.period.schedule import due_months, month_is_over
from tests.conftest import run_cli
from tests.jobs.schedule_fixtures import ini_blocks

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "period"
OLD_HISTORY = ROOT / "tests" / "history" / "data" / "ratings_v1.db"

months = st.builds(lambda y, m: f"{y:04d}-{m:02d}", st.integers(2000, 2040), st.integers(1, 12))
days = st.dates(dt.date(2000, 1, 1), dt.date(2042, 12, 31))


def _last_day(month: str) -> dt.date:
    year, number = int(month[:4]), int(month[5:])
    return dt.date(year, number, calendar.monthrange(year, number)[1])


def _next(month: str) -> str:
    year, number = int(month[:4]), int(month[5:])
    return f"{year + number // 12:04d}-{number % 12 + 1:02d}"


@given(months, days)
def test_a_month_is_over_the_day_after_its_last_day(month, today):
    assert month_is_over(month, today) == (today > _last_day(month))


@given(months, days, st.none() | months)
def test_the_months_due_are_those_over_after_the_last_published(after, today, until):
    expected, month = [], _next(after)
    while today > _last_day(month) and (until is None or month <= until):
        expected.append(month)
        month = _next(month)
    assert due_months(after, today, until) == expected


@pytest.fixture
def officer(tmp_path, monkeypatch) -> Path:
    """November published from the sample events by the first run; cwd is the officer's folder."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLE / "events", tmp_path / "inbox")
    first = ["period", "--list", SAMPLE / "list_2026-11.csv", "--period", "2026-11"]
    assert run_cli(*first, "--events", "inbox", "--out", "lists", "-q").exit_code == 0
    return tmp_path


def _scheduled(today: str, *more: str):
    return run_cli(
        "period", "--out", "lists", "--events", "inbox", *more, env={"FIDERATE_TODAY": today}
    )


def test_nothing_to_do_says_so_and_when_the_next_month_is_due(officer):
    (officer / "inbox" / "january.csv").write_text(
        "event,round,date,white,black,result\nJanuary Cup,1,2027-01-09,5100037,5100045,1-0\n",
        encoding="utf-8",
    )
    result = _scheduled("2026-12-10")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "2026-11 already published from these 2 files; nothing to do",
        "2026-12 is due from 2027-01-01",
        f"waiting for 2027-01: {Path('inbox', 'january.csv')}",
    ]


def test_a_removed_and_a_changed_file_are_named_with_the_replace_line(officer):
    (officer / "inbox" / "club_championship.csv").unlink()
    weekend = officer / "inbox" / "weekend_open.csv"
    weekend.write_text(weekend.read_text().replace(",0-1\n", ",1-0\n", 1), encoding="utf-8")
    result = _scheduled("2026-12-10", "--json")
    assert result.exit_code == 1
    answer = json.loads(result.stdout)
    assert answer["error"] == "the inputs of a published month changed; nothing was changed."
    [problem] = answer["problems"]
    assert problem["code"] == "inputs-changed"
    assert problem["message"].endswith(
        f"changed: {Path('inbox', 'weekend_open.csv')}; "
        f"removed: {Path('inbox', 'club_championship.csv')}"
    )
    assert problem["fix"].endswith(
        "fiderate period --out lists --events inbox --period 2026-11 --replace"
    )


def test_a_published_month_its_json_and_its_run_file(officer):
    (officer / "inbox" / "december.csv").write_text(
        "event,round,date,white,black,result\nDecember Quad,1,2026-12-05,5100037,5100045,1-0\n",
        encoding="utf-8",
    )
    result = _scheduled("2027-01-02", "--json")
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["period"] == "2026-12" and answer["nothing_to_do"] is False
    assert [m["period"] for m in answer["months"]] == ["2026-12"]
    assert str(Path("lists", "run-2026-12.json")) in answer["written"]
    record = json.loads((officer / "lists" / "run-2026-12.json").read_text(encoding="utf-8"))
    sha = hashlib.sha256((officer / "inbox" / "december.csv").read_bytes()).hexdigest()
    assert record["events"] == [{"path": str(Path("inbox", "december.csv")), "sha256": sha}]
    listed = (officer / "lists" / "rating_list_2026-12.csv").read_bytes()
    assert record["list"]["sha256"] == hashlib.sha256(listed).hexdigest()
    assert record["summary"]["events (units) rated"] == 1
    assert not list((officer / "lists").glob(".run-*"))  # written atomically: no leftovers
    again = _scheduled("2027-01-02", "--json")
    assert json.loads(again.stdout)["nothing_to_do"] is True


def test_an_old_history_answers_a_scheduled_run(tmp_path, monkeypatch):
    # ratings_v1.db (schema 1, November published from the sample events) is brought up to
    # date on opening and answers from what it recorded then.
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLE / "events", tmp_path / "inbox")
    (tmp_path / "lists").mkdir()
    shutil.copy(OLD_HISTORY, tmp_path / "lists" / "ratings.db")
    result = _scheduled("2026-12-10")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("2026-11 already published from these 2 files; nothing to do")


def test_the_systemd_units_of_the_doc_verify(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here (not a systemd system)")
    service, timer = ini_blocks()
    # The unit names the doc gives; the program and the folder those of this machine.
    fiderate = Path(sys.executable).with_name("fiderate")
    (tmp_path / "fiderate-period.service").write_text(
        service.replace("/usr/local/bin/fiderate", str(fiderate)).replace(
            "/srv/ratings", str(tmp_path)
        ),
        encoding="utf-8",
    )
    (tmp_path / "fiderate-period.timer").write_text(timer, encoding="utf-8")
    result = subprocess.run(
        [
            analyze,
            "verify",
            *(str(tmp_path / f"fiderate-period.{k}") for k in ("service", "timer")),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # A bad value is only a warning (exit 0): any output at all fails the check.
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stderr


def test_a_first_run_publishes_a_backlog_month_by_month(tmp_path, monkeypatch):
    # --list, --period and --until on a new history: November and December, each with its own
    # events; then --period two months ahead of the history is a usage error.
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLE / "events", tmp_path / "inbox")
    (tmp_path / "inbox" / "december.csv").write_text(
        "event,round,date,white,black,result\nDecember Quad,1,2026-12-05,5100037,5100045,1-0\n",
        encoding="utf-8",
    )
    first = ["--list", SAMPLE / "list_2026-11.csv", "--period", "2026-11", "--until", "2026-12"]
    result = _scheduled("2027-01-02", *first)
    assert result.exit_code == 0, result.stderr
    for period, files in (("2026-11", 2), ("2026-12", 1)):
        record = json.loads((tmp_path / "lists" / f"run-{period}.json").read_text("utf-8"))
        assert len(record["events"]) == files
    assert json.loads((tmp_path / "lists" / "run-2026-12.json").read_text("utf-8"))["list"][
        "path"
    ] == str(Path("lists", "rating_list_2026-12.csv"))
    ahead = _scheduled("2027-03-02", "--period", "2027-02")
    assert ahead.exit_code == 2 and "the next period to rate is 2027-01" in ahead.stderr


def test_an_event_from_before_the_history_is_late_with_the_earlier_list_line(officer):
    # The history's first list is November's: an October event needs October's list.
    (officer / "inbox" / "october.csv").write_text(
        "event,round,date,white,black,result\nOctober Cup,1,2026-10-09,5100037,5100045,1-0\n",
        encoding="utf-8",
    )
    result = _scheduled("2026-12-10", "--json")
    assert result.exit_code == 1
    [problem] = json.loads(result.stdout)["problems"]
    assert problem["code"] == "late-event"
    assert "dated 2026-10, before this history's first list" in problem["message"]
    assert problem["fix"].endswith(
        f"fiderate period --list {Path('lists', 'rating_list_2026-12.csv')} "
        f"--events {Path('inbox', 'october.csv')} "
        '--period 2026-12 --out lists --earlier-list "2026-10=<the list of 2026-10>"'
    )


def test_a_list_file_changed_since_it_was_published_is_refused(officer):
    listed = officer / "lists" / "rating_list_2026-12.csv"
    listed.write_bytes(listed.read_bytes().replace(b"2411", b"2412", 1))
    result = _scheduled("2027-01-02")
    assert result.exit_code == 1
    assert f"[inputs-changed] {Path('lists', 'rating_list_2026-12.csv')}" in result.stderr
    assert not (officer / "lists" / "rating_list_2027-01.csv").exists()
