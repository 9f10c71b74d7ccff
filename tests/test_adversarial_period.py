"""The catalogue of hostile and broken inputs of ``fiderate period`` and ``fiderate history``
(issue 26: items 3, 10, 12, 14), in the pattern of tests/test_adversarial.py: each case builds
its inputs, names the command, the exit code and what the output must say. Every case also holds
the general promises: no traceback, no internal error, and when the run fails every file that
was there is exactly as it was and no file is added (no database created, no output written).
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.jobs.period import PeriodRequest, run_period
from tests.conftest import SAMPLE, run_cli

PERIOD = SAMPLE / "period"
DECEMBER = (
    "event,round,date,white,black,result\n"
    "December Quad,1,2026-12-05,5100010,5100029,1/2-1/2\n"
    "December Quad,1,2026-12-05,5100037,5100045,1-0\n"
)


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[Path], list[str]]  # -> CLI arguments
    exit_code: int
    says: tuple[str, ...]  # what the output must contain


def _period(tmp: Path, period: str, lst: Path, events: Path, out: Path, *more: str) -> list[str]:
    args = ["period", "--list", str(lst), "--events", str(events), "--period", period]
    return [*args, "--out", str(out), "-q", *more]


def _november(tmp: Path, *more: str) -> list[str]:
    return _period(
        tmp, "2026-11", PERIOD / "list_2026-11.csv", PERIOD / "events", tmp / "out", *more
    )


def _published(tmp: Path, *periods: str) -> Path:
    """tmp/out holds the history and the outputs of November (and December if asked)."""
    out = tmp / "out"
    run_period(PeriodRequest(PERIOD / "list_2026-11.csv", (PERIOD / "events",), "2026-11", out))
    if "2026-12" in periods:
        (tmp / "december.csv").write_text(DECEMBER, encoding="utf-8")
        run_period(
            PeriodRequest(out / "rating_list_2026-12.csv", (tmp / "december.csv",), "2026-12", out)
        )
    return out


def _other_programs_db(path: Path) -> Path:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    con.execute("INSERT INTO customers (name) VALUES ('Ada')")
    con.commit()
    con.close()
    return path


# --- builders: each writes its inputs into tmp and returns the command line -------------------


def list_in_force_named_as_an_output(tmp: Path) -> list[str]:
    # The list given sits in --out under the name the run publishes (rating_list_2026-12.csv).
    (tmp / "out").mkdir()
    shutil.copy(PERIOD / "list_2026-11.csv", tmp / "out" / "rating_list_2026-12.csv")
    return _period(
        tmp, "2026-11", tmp / "out" / "rating_list_2026-12.csv", PERIOD / "events", tmp / "out"
    )


def event_named_as_an_output(tmp: Path) -> list[str]:
    (tmp / "out").mkdir()
    event = next((PERIOD / "events").glob("*.csv"))
    shutil.copy(event, tmp / "out" / "games_2026-11.csv")
    return _period(
        tmp, "2026-11", PERIOD / "list_2026-11.csv", tmp / "out" / "games_2026-11.csv", tmp / "out"
    )


def other_programs_db_for_period(tmp: Path) -> list[str]:
    return _november(tmp, "--db", str(_other_programs_db(tmp / "app.db")))


def other_programs_db_for_history(tmp: Path) -> list[str]:
    return ["history", "5100029", "--db", str(_other_programs_db(tmp / "app.db"))]


def history_without_a_database(tmp: Path) -> list[str]:
    return ["history", "5100029", "--db", str(tmp / "missing.db")]


def history_of_a_folder_without_a_database(tmp: Path) -> list[str]:
    (tmp / "out").mkdir()
    return ["history", "5100029", "--out", str(tmp / "out")]


def history_on_a_damaged_database(tmp: Path) -> list[str]:
    out = _published(tmp)
    db = out / "ratings.db"
    data = db.read_bytes()
    db.write_bytes(data[:100] + b"\x00" * (len(data) - 100))  # every page zeroed
    return ["history", "5100029", "--out", str(out)]


def history_on_a_damaged_list_block(tmp: Path) -> list[str]:
    out = _published(tmp)
    con = sqlite3.connect(out / "ratings.db")
    con.execute("UPDATE content_blocks SET data = zeroblob(length(data))")
    con.commit()
    con.close()
    return ["history", "5100029", "--db", str(out / "ratings.db")]


def history_on_a_text_file(tmp: Path) -> list[str]:
    (tmp / "notes.db").write_text("not a database\n" * 200, encoding="utf-8")
    return ["history", "5100029", "--db", str(tmp / "notes.db")]


def replace_an_earlier_month(tmp: Path) -> list[str]:
    _published(tmp, "2026-12")
    return _november(tmp, "--replace")


def rate_an_earlier_month(tmp: Path) -> list[str]:
    out = _published(tmp, "2026-12")
    (tmp / "late.csv").write_text(DECEMBER.replace("2026-12", "2026-10"), encoding="utf-8")
    return _period(tmp, "2026-10", PERIOD / "list_2026-11.csv", tmp / "late.csv", out)


def already_published_json(tmp: Path) -> list[str]:
    # Published, then asked again with other events (the same ones again: nothing to do, exit 0).
    _published(tmp)
    return _period(
        tmp,
        "2026-11",
        PERIOD / "list_2026-11.csv",
        PERIOD / "events" / "weekend_open.csv",
        tmp / "out",
        "--json",
    )


CATALOGUE = [
    Case(
        "10 --list is in --out under an output's name",
        list_in_force_named_as_an_output,
        1,
        ("[output-replaces-input]", "rating_list_2026-12.csv"),
    ),
    Case(
        "10 an event is in --out under an output's name",
        event_named_as_an_output,
        1,
        ("[output-replaces-input]", "games_2026-11.csv"),
    ),
    Case(
        "12 another program's SQLite file as period --db",
        other_programs_db_for_period,
        1,
        ("[not-a-history]", "customers"),
    ),
    Case(
        "12 another program's SQLite file as history --db",
        other_programs_db_for_history,
        1,
        ("[not-a-history]", "customers"),
    ),
    Case("12 history without a database", history_without_a_database, 1, ("[bad-database]",)),
    Case(
        "3 history --out of a folder without ratings.db",
        history_of_a_folder_without_a_database,
        1,
        ("[bad-database]", "--out FOLDER"),
    ),
    Case(
        "14 history on a damaged database",
        history_on_a_damaged_database,
        1,
        ("[bad-database]", "backup"),
    ),
    Case(
        "14 history on a damaged list block",
        history_on_a_damaged_list_block,
        1,
        ("[bad-database]", "damaged", "backup"),
    ),
    Case("14 history on a text file", history_on_a_text_file, 1, ("[bad-database]", "backup")),
    Case(
        "3 replace a month after a later one is published",
        replace_an_earlier_month,
        1,
        ("[run-order]", "periods are rated in order", "2027-01"),
    ),
    Case(
        "3 rate a month before the last one published",
        rate_an_earlier_month,
        1,
        ("[run-order]", "periods are rated in order"),
    ),
    Case(
        "3 an already-published period (--json)",
        already_published_json,
        1,
        ('"error": "this period was already published; nothing was changed."',),
    ),
]


def _files(folder: Path, audit_log: bool) -> dict[Path, object]:
    """Every file's bytes; with ``audit_log``, a history database as its rows apart from the
    runs that did not publish (``period`` records every run in its audit log, a refused one
    too: that is the only change a failed period run may make to it)."""
    return {
        p: _history_rows(p) if audit_log and p.name == "ratings.db" else p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _history_rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        rows = {t: con.execute(f"SELECT * FROM {t}").fetchall() for t in tables if t != "runs"}
        rows["runs"] = con.execute("SELECT * FROM runs WHERE outcome = 'published'").fetchall()
        return rows
    finally:
        con.close()


@pytest.mark.parametrize("case", CATALOGUE, ids=[c.name for c in CATALOGUE])
def test_catalogue(case: Case, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    args = case.build(work)
    audit_log = args[0] == "period"
    before = _files(work, audit_log)
    folders = {p for p in work.rglob("*") if p.is_dir()}
    result = run_cli(*args)
    output = result.stdout + result.stderr
    assert result.exit_code == case.exit_code, output[-3000:]
    assert "Traceback" not in output and "internal error" not in output, output[-3000:]
    assert "the input is not valid" not in output, output[-3000:]
    for words in case.says:
        assert words in output, output[-3000:]
    if result.exit_code != 0:
        # Nothing written: every file exactly as it was, no new file, no new folder.
        assert _files(work, audit_log) == before
        assert {p for p in work.rglob("*") if p.is_dir()} == folders
