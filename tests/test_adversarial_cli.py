"""The catalogue of hostile and mistaken command lines (issue 26), as tests/test_adversarial.py
catalogues hostile files: each case is a command line built here, the exit code it must end
with and a piece of the message that must say what is wrong. Every case also holds the general
promises: no traceback, no internal error, a message, and nothing written when the run fails.

A usage error (an option's value, not a file's content) exits 2 before anything is read or
written; a run that cannot be completed (a Dask scheduler that does not answer) exits 1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import SAMPLE, run_cli

PLAYERS = SAMPLE / "players.csv"
GAMES = SAMPLE / "games.csv"


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[Path, pytest.MonkeyPatch], list[str]]  # -> CLI arguments
    exit_code: int
    says: str  # what the message must contain


def _rate(out: Path, *extra: str, games: Path = GAMES) -> list[str]:
    return ["rate", str(games), "--players", str(PLAYERS), "--out", str(out), "-q", *extra]


def _args(*args: str) -> Callable[[Path, pytest.MonkeyPatch], list[str]]:
    """A command line that needs no files of its own."""
    return lambda tmp, mp: list(args)


def _rate_with(*extra: str) -> Callable[[Path, pytest.MonkeyPatch], list[str]]:
    return lambda tmp, mp: _rate(tmp / "out", *extra)


# --- builders that need more than a command line ------------------------------------------------


def period_command_year_zero(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    period = SAMPLE / "period"
    return [
        "period",
        "--list",
        str(period / "list_2026-11.csv"),
        "--events",
        str(period / "events"),
        "--period",
        "0000-01",
        "--out",
        str(tmp / "out"),
    ]


def column_on_a_crosstable(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return ["rate", str(SAMPLE / "crosstable.csv"), "--out", str(tmp / "out"), "--column", "Rtg"]


def scheduler_unreachable(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    # Nothing listens on port 1 of this machine: distributed retries until the connect timeout,
    # lowered here from 10 s to 1 s (the code path is the same).
    import pipeline.jobs.rate.dask_scheduler as scheduler

    mp.setattr(scheduler, "CONNECT_SECONDS", 1)
    return _rate(tmp / "out", "--period", "2026-11", "--scheduler", "tcp://127.0.0.1:1")


CATALOGUE = [
    # 13: numbers on the command line are ASCII digits.
    Case("13 calc rating in Arabic-Indic digits", _args("calc", "١٥٠٠", "--vs", "1600:1"), 2,
         "ASCII digits"),
    Case("13 calc opponent in full-width digits", _args("calc", "1500", "--vs", "１６００:1"), 2,
         "ASCII digits"),
    Case("13 calc --k in full-width digits", _args("calc", "1500", "--vs", "1600:1", "--k", "２０"),
         2, "ASCII digits"),
    Case("13 calc --games with an underscore", _args("calc", "1500", "--vs", "1600:1", "--games",
         "1_0"), 2, "ASCII digits"),
    Case("13 table --k in superscript digits", _args("table", "--k", "²⁰"), 2, "ASCII digits"),
    Case("13 performance opponent in Devanagari digits",
         _args("performance", "--score", "1", "--opponents", "1500,१६००"), 2, "ASCII digits"),
    Case("13 performance --score in full-width digits",
         _args("performance", "--score", "１", "--opponents", "1500,1600"), 2, "halves"),
    # 14: usage errors exit 2, before anything is read or written.
    Case("14 rate --period 0000-01", _rate_with("--period", "0000-01"), 2, "1971"),
    Case("14 rate --period 1970-12", _rate_with("--period", "1970-12"), 2, "1971"),
    Case("14 rate --period 9999-12", _rate_with("--period", "9999-12"), 2, "next year"),
    Case("14 rate --period 2026-13", _rate_with("--period", "2026-13"), 2, "month 13"),
    Case("14 rate --period 2026-1", _rate_with("--period", "2026-1"), 2, "2026-01"),
    Case("14 calc --period 0000-01", _args("calc", "1500", "--vs", "1600:1", "--period",
         "0000-01"), 2, "1971"),
    Case("14 period --period 0000-01", period_command_year_zero, 2, "1971"),
    Case("14 rate --column without a role", _rate_with("--column", "Rtg"), 2, "NAME=ROLE"),
    Case("14 rate --column with an unknown role", _rate_with("--column", "Rtg=elo"), 2,
         "the role must be one of"),
    Case("14 --column on a crosstable", column_on_a_crosstable, 2, "NAME=ROLE"),
    Case("14 validate --column with an unknown role",
         _args("validate", str(GAMES), "--column", "Rtg=elo"), 2, "the role must be one of"),
    Case("14 table --expect nan", _args("table", "--expect", "nan"), 2, "between 0 and 1"),
    Case("14 table --expect 1", _args("table", "--expect", "1"), 2, "between 0 and 1"),
    Case("14 table --expect 0,75", _args("table", "--expect", "0,75"), 2, "between 0 and 1"),
    Case("14 table --expect 1e-3", _args("table", "--expect", "1e-3"), 2, "between 0 and 1"),
    Case("14 performance --score nan", _args("performance", "--score", "nan", "--opponents",
         "1500,1600"), 2, "halves"),
    Case("14 performance --score inf", _args("performance", "--score", "inf", "--opponents",
         "1500,1600"), 2, "halves"),
    Case("14 performance --score above the games", _args("performance", "--score", "3",
         "--opponents", "1500,1600"), 2, "between 0 and 2"),
    Case("14 calc opponent rated 5000", _args("calc", "1500", "--vs", "5000:1"), 2, "1..3500"),
    Case("14 --scheduler with no port", _rate_with("--scheduler", "nonsense"), 2,
         "not a Dask scheduler address"),
    Case("14 --scheduler with an unknown scheme", _rate_with("--scheduler", "foo://h:8786"), 2,
         "unknown address scheme"),
    Case("14 --scheduler with a port out of range", _rate_with("--scheduler", "tcp://h:99999"),
         2, "99999"),
    Case("14 --scheduler empty", _rate_with("--scheduler", ""), 2, "not a Dask scheduler"),
    Case("14 --scheduler nobody answers", scheduler_unreachable, 1,
         "cannot reach the Dask scheduler"),
]  # fmt: skip


@pytest.mark.parametrize("case", CATALOGUE, ids=[c.name for c in CATALOGUE])
def test_catalogue(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    args = case.build(work, monkeypatch)
    result = run_cli(*args)
    output = result.stdout + result.stderr
    assert result.exit_code == case.exit_code, output[-3000:]
    assert "Traceback" not in output and "internal error" not in output, output[-3000:]
    assert case.says in result.stderr, result.stderr[-3000:]
    assert result.stdout == ""  # the message is on stderr; no partial output
    assert list(work.iterdir()) == []  # nothing written
