"""Replay four consecutive periods through ``run_period`` and check every published list, column
by column, against the independent implementation in ``period_reference.py``.

The generated events cover juniors (K 40 and the 700 rule), new players, a player crossing 2400,
unrated players rated over two periods, a zero score in a first event, a first rating below 1400
(the pool continues), a player falling under 1400 who is later rated again, an event that started
in the previous month (rated with that month's list) and the inactive flag.
"""

from __future__ import annotations

import random

import pytest
from period_files import read_rows, write_event, write_list
from period_reference import ReferenceRun, next_month

from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.lists.list_columns import LIST_TEXT_COLUMNS as LIST_COLUMNS

PERIODS = ["2026-01", "2026-02", "2026-03", "2026-04"]


def initial_players(rng: random.Random) -> dict[str, dict]:
    players: dict[str, dict] = {}

    def add(
        pid: str,
        rating: int | None,
        birth: int | None,
        games: int | None,
        sex: str = "m",
        ever: bool = False,
        last: str = "2025-12",
    ) -> None:
        players[pid] = {
            "name": f"Player {pid}",
            "rating": rating,
            "k": None,
            "birth": birth,
            "games": games,
            "ever": ever,
            "sex": sex,
            "last": last,
            "flags": "",
            "federation": "ENG",
            "title": "",
        }

    for i in range(30):  # fillers: adults, juniors, newcomers with few games, blank counts
        birth = rng.choice([1970, 1985, 1999, 2009, 2011, 2012, None])
        games = rng.choice([12, 25, 80, 300, None])
        add(f"{2000 + i}", rng.randint(1480, 2480), birth, games, rng.choice("mw"))
    add("3001", 2395, 1990, 200)  # crosses 2400
    for i in range(3):
        add(f"31{i}", 2300 + 20 * i, 1980, 400)  # the crosser's opponents
    add("3002", 1410, 1960, 100)  # falls under 1400
    for i in range(5):
        add(f"32{i}", 1500 + 10 * i, 1975, 300)  # the faller's opponents
    add("3003", 1800, 2012, 50, "w")  # junior: 20 games in one period -> 700 rule
    add("3004", 1950, 1980, 400, last="2025-03")  # never plays: inactive from 2026-03
    add("3005", 2050, 1980, 400, last="2024-12")  # inactive already
    add("3006", None, 2010, None, "w")  # listed but unrated: first rating below 1400 first
    return players


def round_robin(ids: list[str], rng: random.Random, start: str, name: str) -> dict:
    games = []
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            games.append((a, b, rng.choice(["1-0", "0-1", "1/2-1/2"])))
    return {"name": name, "start": start, "games": games}


def scripted(name: str, start: str, games: list[tuple[str, str, str]]) -> dict:
    return {"name": name, "start": start, "games": games}


def period_events(period: str, rng: random.Random, fillers: list[str]) -> list[dict]:
    day = f"{period}-10"
    events = [
        round_robin(rng.sample(fillers, 8), rng, f"{period}-03", f"Open {period}"),
        round_robin(rng.sample(fillers, 6), rng, f"{period}-15", f"Cup {period}"),
    ]
    if period == "2026-01":
        events.append(
            scripted(
                "Crossing",
                day,
                [("3001", "310", "1-0"), ("311", "3001", "0-1"), ("3001", "312", "1-0")],
            )
        )
        events.append(scripted("Falling", day, [("3002", f"32{i}", "0-1") for i in range(5)]))
        events.append(
            scripted(
                "Newcomers A",
                day,
                [
                    ("4001", "2000", "1-0"),
                    ("2001", "4001", "1/2-1/2"),
                    ("4001", "2002", "0-1"),  # 4001: 1.5 / 3
                    ("4002", "2003", "0-1"),
                    ("2004", "4002", "1-0"),
                    ("4002", "2005", "0-1"),
                    ("2006", "4002", "1-0"),
                ],
            )
        )
        events.append(
            scripted(
                "Low",
                day,
                [("3006", f"32{i}", "0-1") for i in range(4)] + [("3006", "320", "1/2-1/2")],
            )
        )
    if period == "2026-02":
        events.append(
            scripted(
                "Newcomers B",
                day,
                [
                    ("4001", "2007", "1-0"),
                    ("2008", "4001", "0-1"),
                    ("4001", "2009", "1/2-1/2"),
                    ("4002", "2010", "1-0"),
                    ("2011", "4002", "1/2-1/2"),
                    ("4002", "2012", "0-1"),
                    ("2013", "4002", "1-0"),
                    ("4002", "2014", "1-0"),
                ],
            )
        )
        # Started in January: rated with the January list (3001 still 2395 there).
        events.append(
            scripted(
                "Late January",
                "2026-01-30",
                [("3001", "2015", "1/2-1/2"), ("2016", "3001", "1/2-1/2")],
            )
        )
        events.append(scripted("Comeback", day, [("3002", f"32{i}", "1/2-1/2") for i in range(5)]))
    if period == "2026-03":
        events.append(
            scripted(
                "Marathon", day, [("3003", fillers[i % len(fillers)], "1-0") for i in range(20)]
            )
        )
        events.append(
            scripted("Low again", day, [("3006", "2017", "1-0"), ("3006", "2018", "1/2-1/2")])
        )
    return events


read_csv = read_rows


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    rng = random.Random(20261)
    root = tmp_path_factory.mktemp("replay")
    players = initial_players(rng)
    list_path = root / "list_2026-01.csv"
    write_list(list_path, players)
    import copy

    reference = ReferenceRun(copy.deepcopy(players), PERIODS[0])
    fillers = [f"{2000 + i}" for i in range(30)]
    out = root / "out"
    results = []
    for period in PERIODS:
        events = period_events(period, rng, fillers)
        folder = root / f"events_{period}"
        folder.mkdir()
        for i, event in enumerate(events):
            write_event(folder / f"event_{i}.csv", event)
        # No workbooks: only the CSVs are compared (tests/writers check the workbooks).
        run_period(
            PeriodRequest(
                list_path=list_path, events=(folder,), period=period, out_dir=out, xlsx=False
            )
        )
        expected = reference.rate_period(period, events)
        list_path = out / f"rating_list_{next_month(period)}.csv"
        results.append((period, read_csv(list_path), expected, dict(reference.changes[period])))
    return out, results


def test_every_list_matches_the_reference(replay):
    _, results = replay
    for period, got, expected, _ in results:
        assert set(got) == set(expected), period
        for pid, row in expected.items():
            assert {c: got[pid][c] for c in LIST_COLUMNS} == row, (period, pid)


def test_rating_changes_match_the_reference(replay):
    out, results = replay
    for period, _, _, changes in results:
        report = read_csv(out / f"changes_{period}.csv")
        for pid, change in changes.items():
            if pid in report and report[pid]["rating"]:
                assert int(report[pid]["change"]) == change, (period, pid)


def test_the_scenarios_happened(replay):
    """The replay is only worth something if the generated data hit every case."""
    _, results = replay
    lists = {period: got for period, got, _, _ in results}
    jan, feb, mar = lists["2026-01"], lists["2026-02"], lists["2026-03"]
    assert int(jan["3001"]["rating"]) >= 2400 and jan["3001"]["ever_2400"] == "true"
    assert jan["3001"]["k"] == "10"
    assert jan["3002"]["rating"] == "" and jan["3002"]["k"] == ""  # fell under 1400
    assert feb["3002"]["rating"] != ""  # rated again from a new pool
    assert jan["4001"]["rating"] == "" and feb["4001"]["rating"] != ""  # pooled over two periods
    assert feb["4001"]["games"] == "6"
    assert jan["4002"]["rating"] == "" and feb["4002"]["games"] == "5"  # zero first event ignored
    assert jan["3006"]["rating"] == ""  # first rating below 1400: not published
    assert "i" in jan["3005"]["flags"] and "i" not in jan["3004"]["flags"]
    assert "i" in mar["3004"]["flags"]
    assert mar["3003"]["period_games"] == "20"


def test_seven_hundred_rule_used_for_the_marathon_junior(replay):
    out, _ = replay
    rows = read_csv(out / "changes_2026-03.csv")
    assert rows["3003"]["k"] == "35"  # K 40 x 20 games > 700 -> floor(700 / 20)
