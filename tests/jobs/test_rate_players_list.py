"""``rate --players``: only the events' players on rating_list.csv unless --all-players, and the
run says how the events met the list (issue 12, item 8)."""

from __future__ import annotations

import csv
import json

from helpers import write_csv
from period_files import trf_player, write_trf

from tests.conftest import run_cli


def inputs(tmp_path):
    trf = write_trf(
        tmp_path / "open.trf",
        {"012": "Open", "042": "2026/11/05", "XXR": "1"},
        [
            trf_player(1, "One, A", 1900, "ENG", "1001", "1980", "1.0", [(2, "w", "1")]),
            trf_player(2, "Two, B", 1850, "ENG", "1002", "1980", "0.0", [(1, "b", "0")]),
            trf_player(3, "Three, C", 1700, "ENG", "1003", "1980", "0.5", [(4, "w", "=")]),
            trf_player(4, "Four, D", None, "ENG", "1004", "1980", "0.5", [(3, "b", "=")]),
        ],
    )
    # 1001 and 1003 agree with the TRF; 1002 is 1800 on the list (the TRF prints 1850); 1004 is
    # not on the list; 2001 and 2002 are listed but did not play.
    players = write_csv(
        tmp_path / "players.csv",
        ["id", "name", "rating", "games"],
        [
            ["1001", "One, A", 1900, 100],
            ["1002", "Two, B", 1800, 100],
            ["1003", "Three, C", 1700, 100],
            ["2001", "Idle, E", 2000, 100],
            ["2002", "Idle, F", 2100, 100],
        ],
    )
    return trf, players


def run_rate(tmp_path, *extra):
    trf, players = inputs(tmp_path)
    out = tmp_path / "out"
    args = ["rate", str(trf), "--players", str(players), "--out", str(out), "--no-xlsx"]
    result = run_cli(*args, "--no-html", "--period", "2026-11", *extra)
    assert result.exit_code == 0, result.stderr
    with (out / "rating_list.csv").open(encoding="utf-8") as fh:
        return result, [row["id"] for row in csv.DictReader(fh)]


def test_only_the_events_players_by_default(tmp_path):
    result, ids = run_rate(tmp_path)
    assert sorted(ids) == ["1001", "1002", "1003", "1004"]
    assert "players list: 3 of the 4 event players are on it" in result.stdout
    assert "the other 2 listed players are not written (--all-players keeps them)" in result.stdout
    assert "1 ratings on the event files differ from it" in result.stdout


def test_all_players_keeps_the_whole_list(tmp_path):
    result, ids = run_rate(tmp_path, "--all-players")
    assert sorted(ids) == ["1001", "1002", "1003", "1004", "2001", "2002"]
    assert "the other 2 listed players are written too" in result.stdout


def test_json_says_how_the_events_met_the_list(tmp_path):
    result, _ = run_rate(tmp_path, "--json")
    data = json.loads(result.stdout)
    assert data["players_list"] == {
        "event_players": 4,
        "on_list": 3,
        "list_players": 5,
        "ratings_differ": 1,
    }
    assert data["players"] == 4
