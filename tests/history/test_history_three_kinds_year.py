"""One history for all three lists (issue 36): a year of monthly standard, rapid and blitz lists
published into one database, the kinds interleaved month by month, and each player's profile
table per kind checked against the lists the runs published (the CSV files, not the history):
the change is the new list's rating minus the old one's, the games are the new list's
``period_games``, the K that rated the period is the K of the list in force and the next K is
the new list's. A newcomer's results wait for a first rating in the one kind they played."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from pipeline.errors import NotInHistory
from pipeline.history.store import connect
from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.jobs.player_history import (
    CalculationRequest,
    HistoryRequest,
    run_calculation,
    run_history,
)
from pipeline.rules.months import add_months
from pipeline.rules.rating_kinds import KINDS

MONTHS = [f"2026-{m:02d}" for m in range(1, 13)]
PLAYERS = [f"91000{i:02d}" for i in range(1, 9)]
NEWCOMER = "9100099"  # plays rapid in January only: too few games for a first rating
# The same players on three lists, rated differently on each (a list read for the wrong kind
# would show it).
OFFSET = {"standard": 0, "rapid": 37, "blitz": -23}
HEADER = ["id", "name", "rating", "k", "birth_year", "games", "ever_2400", "federation", "title",
          "sex", "last_played"]  # fmt: skip


def first_list(path: Path, kind: str) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(HEADER)
        for i, pid in enumerate(PLAYERS):
            rating = 1700 + 80 * i + OFFSET[kind]
            out.writerow([pid, f"Player {i}", rating, "", 1970 + i, 100 + i, "false", "FRA", "",
                          "m", "2025-12"])  # fmt: skip
    return path


def month_events(folder: Path, kind: str, month: str) -> Path:
    """Four games of the month among the players (seeded by kind and month); the newcomer's
    games in January's rapid event."""
    rng = random.Random(f"{kind} {month}")
    folder.mkdir(parents=True)
    lines = ["event,round,date,white,black,result"]
    for game in range(4):
        white, black = rng.sample(PLAYERS, 2)
        result = rng.choice(["1-0", "0-1", "1/2-1/2"])
        lines.append(f"{kind} {month},{game + 1},{month}-1{game},{white},{black},{result}")
    if kind == "rapid" and month == MONTHS[0]:
        lines += [
            f"{kind} {month},{5 + g},{month}-20,{NEWCOMER},{PLAYERS[g]},1-0" for g in range(3)
        ]
    (folder / "games.csv").write_text("\n".join(lines) + "\n")
    return folder


def read_list(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return {row["id"]: row for row in csv.DictReader(fh)}


def number(text: str) -> int | None:
    return int(text) if text not in ("", None) else None


@pytest.fixture(scope="module")
def year(tmp_path_factory) -> tuple[Path, Path]:
    """(the history, the folder of each kind's lists): January to December, each month the
    three kinds in turn, each kind's files in its own folder."""
    root = tmp_path_factory.mktemp("year")
    db = root / "ratings.db"
    lists = {kind: first_list(root / f"{kind}_2026-01.csv", kind) for kind in KINDS}
    for month in MONTHS:
        for kind in KINDS:
            events = month_events(root / "events" / kind / month, kind, month)
            out = root / kind
            run_period(
                PeriodRequest(
                    list_path=lists[kind], events=(events,), period=month, out_dir=out,
                    db_path=db, rules=kind, xlsx=False,
                )
            )  # fmt: skip
            lists[kind] = out / f"rating_list_{add_months(month, 1)}.csv"
    return db, root


def test_each_profile_table_agrees_with_the_published_lists(year):
    db, root = year
    played = 0
    for kind in KINDS:
        tables = {
            pid: run_history(HistoryRequest(pid, db, rating_kind=kind)).lists for pid in PLAYERS
        }
        assert {r["rating_kind"] for rows in tables.values() for r in rows} == {kind}
        old = read_list(root / f"{kind}_2026-01.csv")
        for month in MONTHS:
            new = read_list(root / kind / f"rating_list_{add_months(month, 1)}.csv")
            for pid in PLAYERS:
                rows = tables[pid]
                (row,) = [r for r in rows if r["period"] == month and r["kind"] == "published"]
                before, after = old[pid], new[pid]
                assert row["list"] == add_months(month, 1)
                assert row["rating"] == number(after["rating"])
                assert row["period_games"] == number(after["period_games"])
                assert row["next_k"] == number(after["k"])
                if number(after["period_games"]):
                    played += 1
                    assert row["change"] == number(after["rating"]) - number(before["rating"])
                    if before["k"]:  # the first list leaves K to the rules
                        assert row["k_used"] == number(before["k"])
                    if pid == next(p for p in PLAYERS if number(new[p]["period_games"])):
                        # One calculation page a month: the same change and K, the era stored.
                        calc = run_calculation(CalculationRequest(pid, month, db, kind))
                        assert (calc.change, calc.k, calc.rating_kind) == (
                            row["change"],
                            row["k_used"],
                            kind,
                        )
                        assert calc.rules.startswith(f"{kind}-") and not calc.rules_assumed
                else:
                    assert row["change"] is None and row["k_used"] is None
                    assert after["rating"] == before["rating"]
            old = new
    assert played > 3 * 12 * 4  # most months, most players: the checks above ran


def test_a_player_is_one_player_across_the_three_lists(year):
    db, _ = year
    found = run_history(HistoryRequest(PLAYERS[0], db))
    assert found.kinds == KINDS
    # Each kind: the list given (January) and the twelve it published, in order.
    for kind in KINDS:
        months = [r["list"] for r in found.lists if r["rating_kind"] == kind]
        assert months == ["2026-01", *(add_months(m, 1) for m in MONTHS)]
    con = connect(db)
    runs = con.execute(
        "SELECT rating_kind, COUNT(*) FROM runs WHERE outcome = 'published' GROUP BY rating_kind"
    ).fetchall()
    con.close()
    assert dict(runs) == {kind: 12 for kind in KINDS}


def test_a_newcomer_waits_for_a_first_rating_in_the_one_kind_played(year):
    db, _ = year
    found = run_history(HistoryRequest(NEWCOMER, db))
    assert found.kinds == ("rapid",)
    assert {p["rating_kind"] for p in found.pending} == {"rapid"}
    assert sum(int(p["games"]) for p in found.pending) == 3
    with pytest.raises(NotInHistory, match="no standard list"):
        run_history(HistoryRequest(NEWCOMER, db, rating_kind="standard"))
