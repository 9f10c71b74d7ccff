"""Issue 12: period runs that agree with themselves (a --replace with the same inputs writes the
same list, late events with an earlier list, counts and details that match the files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from period_files import read_rows, trf_player, write_event, write_list, write_trf

from pipeline.errors import InputError
from pipeline.jobs.period import PeriodRequest, run_period
from tests.conftest import run_cli

RATED = {f"10{i}": {"rating": 1800 + 20 * i, "games": 100, "federation": "ENG"} for i in range(6)}


def rate(list_path: Path, events: list[Path], period: str, out: Path, **options: object):
    return run_period(
        PeriodRequest(
            list_path=list_path, events=tuple(events), period=period, out_dir=out, **options
        )
    )


def summary_of(outcome) -> dict[str, str]:
    table = outcome.report.summary
    return dict(zip(table["item"], table["value"], strict=True))


def test_replace_with_the_same_inputs_keeps_a_pooled_first_rating(tmp_path):
    """X scores 1.5/3 in November (pending) and 0/2 in December: pooled, 5 games, published in
    December. Replaying December used to drop the November results (hidden by the first rating
    the replaced run published) and then disregard the 0/2 as a 'zero first event'."""
    out = tmp_path / "out"
    list_nov = write_list(tmp_path / "list_2026-11.csv", RATED)
    nov = write_event(
        tmp_path / "nov.csv",
        {
            "name": "Nov",
            "start": "2026-11-05",
            "games": [("X", "100", "1-0"), ("101", "X", "1/2-1/2"), ("X", "102", "0-1")],
        },
    )
    dec = write_event(
        tmp_path / "dec.csv",
        {"name": "Dec", "start": "2026-12-05", "games": [("X", "103", "0-1"), ("104", "X", "1-0")]},
    )
    rate(list_nov, [nov], "2026-11", out)
    list_dec = out / "rating_list_2026-12.csv"
    assert read_rows(list_dec)["X"]["rating"] == ""  # 3 games: pending
    rate(list_dec, [dec], "2026-12", out)
    published = out / "rating_list_2027-01.csv"
    first_bytes = published.read_bytes()
    # Ra = (1800 + 1820 + 1840 + 1860 + 1880 + 3600) / 7 = 12800 / 7 = 1828.57;
    # p = (1.5 + 1) / 7 = 0.357 -> 0.36 -> dp -102 (table 8.1.1); Ru = 1726.57 -> 1727.
    assert read_rows(published)["X"]["rating"] == "1727"
    rate(list_dec, [dec], "2026-12", out, replace=True)
    assert published.read_bytes() == first_bytes


def test_earlier_list_rates_a_late_event_and_is_kept_for_later_runs(tmp_path):
    """An event that started on 28 November, rated in period 2026-12 by a history that starts
    with the December list: refused without the November list, rated with it given."""
    out = tmp_path / "out"
    dec_players = {"A": {"rating": 1900, "games": 100}, "B": {"rating": 1800, "games": 100}}
    nov_players = {"A": {"rating": 1800, "games": 90}, "B": {"rating": 1800, "games": 90}}
    list_dec = write_list(tmp_path / "list_2026-12.csv", dec_players)
    list_nov = write_list(tmp_path / "list_2026-11.csv", nov_players)
    late = write_event(
        tmp_path / "late.csv", {"name": "Late", "start": "2026-11-28", "games": [("A", "B", "1-0")]}
    )
    with pytest.raises(InputError) as refused:
        rate(list_dec, [late], "2026-12", out)
    assert [p.code for p in refused.value.problems] == ["no-list-in-force"]
    assert "--earlier-list 2026-11=PATH" in refused.value.problems[0].fix
    rate(list_dec, [late], "2026-12", out, earlier_lists=(("2026-11", list_nov),))
    # Rated with November's ratings (1800 v 1800, PD 0.50, K 20): A +10, B -10, added to the
    # December ratings. With December's (1900 v 1800, PD 0.64) A would gain 7.2 -> 7.
    new = read_rows(out / "rating_list_2027-01.csv")
    assert (new["A"]["rating"], new["B"]["rating"]) == ("1910", "1790")
    # The history now holds the November list: a later run rates another November event with it.
    other = write_event(
        tmp_path / "later.csv",
        {"name": "Later", "start": "2026-11-30", "games": [("B", "A", "1-0")]},
    )
    rate(out / "rating_list_2027-01.csv", [other], "2027-01", out)
    # 1800 v 1800 again (the November list): B +10 -> 1800, A -10 -> 1900.
    new = read_rows(out / "rating_list_2027-02.csv")
    assert (new["A"]["rating"], new["B"]["rating"]) == ("1900", "1800")


def test_earlier_list_that_contradicts_the_history_is_refused(tmp_path):
    out = tmp_path / "out"
    players = {"A": {"rating": 1900, "games": 100}, "B": {"rating": 1800, "games": 100}}
    list_dec = write_list(tmp_path / "list_2026-12.csv", players)
    other = write_list(tmp_path / "other.csv", {**players, "A": {"rating": 2000, "games": 100}})
    event = write_event(
        tmp_path / "e.csv", {"name": "E", "start": "2026-12-02", "games": [("A", "B", "1-0")]}
    )
    rate(list_dec, [event], "2026-12", out)
    late = write_event(
        tmp_path / "late.csv", {"name": "Late", "start": "2026-12-30", "games": [("A", "B", "0-1")]}
    )
    with pytest.raises(InputError) as refused:
        rate(
            out / "rating_list_2027-01.csv",
            [late],
            "2027-01",
            out,
            earlier_lists=(("2026-12", other),),
        )
    assert [p.code for p in refused.value.problems] == ["list-conflict"]


def test_earlier_list_option_on_the_command_line(tmp_path):
    players = {"A": {"rating": 1900, "games": 100}, "B": {"rating": 1800, "games": 100}}
    list_dec = write_list(tmp_path / "list_2026-12.csv", players)
    list_nov = write_list(tmp_path / "list_2026-11.csv", players)
    late = write_event(
        tmp_path / "late.csv", {"name": "Late", "start": "2026-11-28", "games": [("A", "B", "1-0")]}
    )
    args = ["period", "--list", str(list_dec), "--events", str(late), "--period", "2026-12"]
    args += ["--out", str(tmp_path / "out")]
    bad = run_cli(*args, "--earlier-list", "November=x.csv")
    assert bad.exit_code == 2 and "YYYY-MM=PATH" in bad.stderr
    ok = run_cli(*args, "--earlier-list", f"2026-11={list_nov}", "-q")
    assert ok.exit_code == 0, ok.stderr


def test_counts_equal_the_files_and_details_come_from_the_richest_source(tmp_path):
    """November: 9000001 plays a games CSV that names nobody (a new row, name = id, pending).
    December: a TRF names him, with federation and birth year; his first rating is published
    with those details, not with the id as the name."""
    out = tmp_path / "out"
    list_nov = write_list(tmp_path / "list_2026-11.csv", RATED)
    nov = write_event(
        tmp_path / "nov.csv",
        {
            "name": "Nov",
            "start": "2026-11-05",
            "games": [("9000001", "100", "1-0"), ("101", "9000001", "1/2-1/2")],
        },
    )
    outcome = rate(list_nov, [nov], "2026-11", out)
    listed = read_rows(out / "rating_list_2026-12.csv")
    summary = summary_of(outcome)
    new_ids = set(listed) - set(RATED)
    assert summary["players on the new list"] == str(len(listed)) == "7"
    assert summary["rated players on the new list"] == "6"
    assert summary["new players (not on the list in force)"] == str(len(new_ids)) == "1"
    assert summary["new players still unrated"] == "1"
    trf = write_trf(
        tmp_path / "dec.trf",
        {"012": "December Open", "042": "2026/12/05", "XXR": "3"},
        [
            trf_player(
                1,
                "Newman, Xavier",
                None,
                "NED",
                "9000001",
                "2001/00/00",
                "0.5",
                [(2, "w", "0"), (3, "b", "="), (4, "w", "0")],
            ),
            trf_player(2, "Player 102", 1840, "ENG", "102", "", "1.0", [(1, "b", "1")]),
            trf_player(3, "Player 103", 1860, "ENG", "103", "", "0.5", [None, (1, "w", "=")]),
            trf_player(4, "Player 104", 1880, "ENG", "104", "", "1.0", [None, None, (1, "b", "1")]),
        ],
    )
    outcome = rate(out / "rating_list_2026-12.csv", [trf], "2026-12", out)
    row = read_rows(out / "rating_list_2027-01.csv")["9000001"]
    # Pool: 5 games, 2.0 points, opponents 1800 + 1820 + 1840 + 1860 + 1880 = 9200;
    # Ra = (9200 + 3600) / 7 = 1828.57; p = 3 / 7 = 0.43 -> dp -50; Ru = 1778.57 -> 1779.
    assert row["rating"] == "1779"
    assert (row["name"], row["federation"], row["birth_year"]) == ("Newman, Xavier", "NED", "2001")
    summary = summary_of(outcome)
    assert summary["first ratings"] == "1"
    assert summary["new players (not on the list in force)"] == "0"


SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "period"


def test_period_json_and_history_pending_results(tmp_path):
    out = tmp_path / "out"
    args = ["period", "--list", str(SAMPLE / "list_2026-11.csv"), "--events"]
    args += [str(SAMPLE / "events"), "--period", "2026-11", "--out", str(out), "--no-xlsx"]
    result = run_cli(*args, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    listed = read_rows(out / "rating_list_2026-12.csv")
    assert data["period"] == "2026-11" and data["run_id"] == 1
    assert data["summary"]["players on the new list"] == len(listed) == 13
    assert data["summary"]["rated players on the new list"] == sum(
        1 for r in listed.values() if r["rating"]
    )
    assert [Path(p).name for p in data["written"]][0] == "rating_list_2026-12.csv"
    # 5100134 played 4 games against rated opponents (0.5 points): pending, shown by history.
    db = str(out / "ratings.db")
    shown = run_cli("history", "5100134", "--db", db)
    assert shown.exit_code == 0, shown.stderr
    assert "pending results for a first rating (4 games counted):" in shown.stdout
    as_json = json.loads(run_cli("history", "5100134", "--db", db, "--json").stdout)
    assert [(p["period"], p["games"], p["points"]) for p in as_json["pending"]] == [
        ("2026-11", 4, "0.5")
    ]
    rated = json.loads(run_cli("history", "5100118", "--db", db, "--json").stdout)
    assert rated["pending"] == []  # first rating published: nothing pending
