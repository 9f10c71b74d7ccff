"""Issue 29, done means: the cron line of docs/scheduling.md run as a scheduler runs it, across a
year of months, with events arriving early, late, twice, changed, and none in some months, and
two runs at once (real processes). Each month's list and reports equal a from-scratch
``fiderate period`` of the month's final inputs; every exit code is the documented one; a re-run
of every successful command exits 0 and changes no byte of the outputs or the history (the
database compared as SQL without its audit log)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.rules.months import add_months
from tests.conftest import run_cli
from tests.jobs.schedule_fixtures import (
    cron_words,
    first_run_words,
    snapshot,
    write_first_list,
    write_games,
)

CRON = cron_words()
# Each month's files as finally rated (the late June event went into August, by hand).
FINAL = {
    "2026-01": ["e01a.csv", "e01b.csv"],
    "2026-02": ["e02a.csv", "e02b.csv"],
    "2026-03": [],
    "2026-04": ["e04a.csv", "e04late.csv"],
    "2026-05": ["e05a.csv"],
    "2026-06": ["e06a.csv"],
    "2026-07": ["e07a.csv"],
    "2026-08": ["e06late.csv", "e08a.csv"],
    "2026-09": ["e09a.csv"],
    "2026-10": ["e10a.csv"],
    "2026-11": [],
    "2026-12": ["e12a.csv"],
}
COMPARED = ["changes_{p}.csv", "breakdown_{p}.csv", "first_ratings_{p}.csv", "games_{p}.csv"]


class Officer:
    """The rating officer's folder: ``inbox/`` and ``lists/``, the scheduler's command lines."""

    def __init__(self, root: Path):
        self.root = root
        self.inbox = root / "inbox"
        self.out = root / "lists"
        self.inbox.mkdir()

    def arrive(self, name: str, day: str, seed: int, changed: bool = False) -> None:
        write_games(self.inbox / name, name.removesuffix(".csv"), day, seed, changed)

    def run(self, words: list[str], today: str, expect: int) -> str:
        """Run ``fiderate WORDS`` on ``today``; check the exit code; after a success, run it
        again and check that nothing changed; after a refusal, that nothing changed either."""
        before = snapshot(self.out) if (self.out / "ratings.db").exists() else None
        result = run_cli(*words, env={"FIDERATE_TODAY": today})
        assert result.exit_code == expect, (today, words, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
        if expect == 0:
            done = snapshot(self.out)
            again = run_cli(*words, env={"FIDERATE_TODAY": today})
            assert again.exit_code == 0, (today, "re-run", again.stderr)
            assert snapshot(self.out) == done, (today, "re-run changed something")
        else:
            assert snapshot(self.out) == before, (today, "a refused run changed something")
        return result.stderr

    def tick(self, today: str, expect: int = 0) -> str:
        return self.run(CRON, today, expect)

    def process(self, today: str, **env: str) -> subprocess.Popen[str]:
        """The cron line as its own process (the scheduler's way)."""
        return subprocess.Popen(
            [sys.executable, "-m", "pipeline", *CRON],
            cwd=self.root,
            env={**os.environ, "FIDERATE_TODAY": today, **env},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def published(self, period: str) -> bool:
        return (self.out / f"rating_list_{add_months(period, 1)}.csv").is_file()


def _line(stderr: str, pattern: str) -> list[str]:
    """The command line a refusal's fix gives (``fiderate period ...``), as arguments."""
    found = re.search(pattern, stderr)
    assert found, stderr
    words = shlex.split(found.group(1))
    assert words[0] == "fiderate"
    return words[1:]


def test_a_year_of_scheduled_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    me = Officer(tmp_path)
    first = first_run_words()
    write_first_list(tmp_path / first[first.index("--list") + 1])

    # A new history: the fixed line cannot know the list in force (usage, 2).
    me.arrive("e01a.csv", "2026-01-10", 1)
    result = run_cli(*CRON, env={"FIDERATE_TODAY": "2026-01-20"})
    assert result.exit_code == 2 and "--list" in result.stderr
    me.arrive("e01b.csv", "2026-01-25", 2)
    me.run(first, "2026-02-02", 0)  # the documented first run, by hand

    me.arrive("e02a.csv", "2026-02-05", 3)
    me.arrive("e04a.csv", "2026-04-03", 4)  # early: April's event in February
    me.tick("2026-02-10")  # January again, nothing to do; February not over
    assert not me.published("2026-02")
    me.arrive("e02b.csv", "2026-02-27", 5)
    me.tick("2026-03-02")
    assert me.published("2026-02") and not me.published("2026-03")
    me.tick("2026-04-02")  # March: no events at all, the list is published all the same
    me.tick("2026-05-02")  # April, with the early event
    (me.inbox / "e04a-again.csv").write_bytes((me.inbox / "e04a.csv").read_bytes())  # twice
    me.tick("2026-05-06")

    # Late for the last month published: the --replace line settles it.
    me.arrive("e04late.csv", "2026-04-20", 6)
    said = me.tick("2026-05-09", expect=1)
    assert "[late-event]" in said and "e04late.csv" in said
    replace_line = _line(said, r"again with the files as they are now: (fiderate [^;\n]*)")
    assert replace_line[-2:] == ["2026-04", "--replace"], replace_line
    me.run(replace_line, "2026-05-09", 0)

    # Changed after it was published: named, and the same kind of line re-rates it.
    me.arrive("e05a.csv", "2026-05-12", 7)
    me.tick("2026-06-02")
    me.arrive("e05a.csv", "2026-05-12", 7, changed=True)
    said = me.tick("2026-06-11", expect=1)
    assert "[inputs-changed]" in said and "changed: inbox/e05a.csv" in said
    me.run(_line(said, r"as they are now: (fiderate [^;\n]*)"), "2026-06-11", 0)

    me.arrive("e06a.csv", "2026-06-15", 8)
    me.tick("2026-07-02")
    me.arrive("e07a.csv", "2026-07-04", 9)
    me.tick("2026-08-02")
    # Late for a month before the last one published: rated with the next period, by hand.
    me.arrive("e06late.csv", "2026-06-28", 10)
    me.tick("2026-08-06", expect=1)
    me.arrive("e08a.csv", "2026-08-10", 11)
    said = me.tick("2026-09-02", expect=1)  # needs a person until one acts
    assert "2026-06 can no longer be rated again" in said
    line = _line(said, r"with the next period: (fiderate [^;\n]*)")
    assert line.count("--events") == 2 and "inbox/e08a.csv" in line  # August's own event too
    me.run(line, "2026-09-02", 0)
    me.tick("2026-09-03")

    # Two runs at once. One holds the history (paused once it has checked it): the other is
    # told to try later (75) and changes nothing; the holder is killed, the next run works.
    me.arrive("e09a.csv", "2026-09-09", 12)
    before = snapshot(me.out)
    holder = me.process("2026-10-02", FIDERATE_TEST_PAUSE_AT="checked")
    try:
        assert holder.stderr is not None
        assert "FIDERATE_PAUSED checked" in holder.stderr.readline()
        other = me.process("2026-10-02")
        _, err = other.communicate(timeout=120)
        assert other.returncode == 75, err
        assert "[history-in-use]" in err
    finally:
        holder.kill()
        holder.communicate()
    assert snapshot(me.out) == before and not me.published("2026-09")
    # And two started together: one publishes, the other finds it busy or already done.
    pair = [me.process("2026-10-02") for _ in range(2)]
    codes = sorted(p.wait(timeout=120) for p in pair)
    for p in pair:
        p.communicate()
    assert codes in ([0, 0], [0, 75]), codes
    assert me.published("2026-09")
    me.tick("2026-10-02")

    # The machine is off for two months: --until stops at a month; the fixed line publishes
    # every month due, in order (so that the same line again has nothing to do).
    me.arrive("e10a.csv", "2026-10-20", 13)
    me.arrive("e12a.csv", "2026-12-05", 14)
    me.run([*CRON, "--until", "2026-10"], "2027-01-02", 0)
    assert me.published("2026-10") and not me.published("2026-11")
    me.tick("2027-01-02")
    assert me.published("2026-12") and not me.published("2027-01")

    # Each month equals a from-scratch run of its final inputs.
    fresh = tmp_path / "fresh"
    listed = tmp_path / first[first.index("--list") + 1]
    for period, names in FINAL.items():
        run_period(
            PeriodRequest(listed, tuple(Path("inbox", n) for n in names), period, fresh, xlsx=False)
        )
        listed = fresh / f"rating_list_{add_months(period, 1)}.csv"
        month = add_months(period, 1)
        for name in [f"rating_list_{month}.csv", f"rating_list_{month}.txt"] + [
            n.format(p=period) for n in COMPARED
        ]:
            assert (me.out / name).read_bytes() == (fresh / name).read_bytes(), name


@pytest.mark.parametrize("history", [False, True])
def test_the_fixed_line_on_a_new_history_is_a_usage_error(tmp_path, monkeypatch, history):
    monkeypatch.chdir(tmp_path)
    me = Officer(tmp_path)
    me.arrive("e.csv", "2026-01-10", 1)
    if history:  # an existing but empty history: still no list in force
        me.out.mkdir()
        import sqlite3

        from pipeline.history.schema import migrate

        con = sqlite3.connect(me.out / "ratings.db")
        migrate(con)
        con.close()
    result = run_cli(*CRON, env={"FIDERATE_TODAY": "2026-02-02"})
    assert result.exit_code == 2
    assert "first run of a new history takes --list" in result.stderr
