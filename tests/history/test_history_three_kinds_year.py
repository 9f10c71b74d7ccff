"""One history for all three lists (issue 36): a year of monthly standard, rapid and blitz lists
published into one database, the kinds interleaved month by month, and each player's profile
table per kind checked against the lists the runs published (the CSV files, not the history):
the change is the new list's rating minus the old one's, the games are the new list's
``period_games``, the K that rated the period is the K of the list in force and the next K is
the new list's. A newcomer's results wait for a first rating in the one kind they played.

The year is built once per run (tests/history/three_kinds_year.py, tests/conftest.py)."""

from __future__ import annotations

import pytest

from pipeline.errors import NotInHistory
from pipeline.history.store import connect
from pipeline.jobs.player_history import (
    CalculationRequest,
    HistoryRequest,
    run_calculation,
    run_history,
)
from pipeline.rules.months import add_months
from pipeline.rules.rating_kinds import KINDS
from tests.history.three_kinds_year import MONTHS, NEWCOMER, PLAYERS, number, read_list


def test_each_profile_table_agrees_with_the_published_lists(three_kinds_year):
    db, root = three_kinds_year
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


def test_a_player_is_one_player_across_the_three_lists(three_kinds_year):
    db, _ = three_kinds_year
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


def test_a_newcomer_waits_for_a_first_rating_in_the_one_kind_played(three_kinds_year):
    db, _ = three_kinds_year
    found = run_history(HistoryRequest(NEWCOMER, db))
    assert found.kinds == ("rapid",)
    assert {p["rating_kind"] for p in found.pending} == {"rapid"}
    assert sum(int(p["games"]) for p in found.pending) == 3
    with pytest.raises(NotInHistory, match="no standard list"):
        run_history(HistoryRequest(NEWCOMER, db, rating_kind="standard"))
