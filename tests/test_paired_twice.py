"""A player paired in two games of the same round is an input error (issue 12, item 3)."""

from __future__ import annotations

import json

from click.testing import CliRunner
from helpers import write_csv

from pipeline.cli import cli

HEADER = ["event", "round", "white", "black", "result"]


def validate(path):
    players = write_csv(
        path.parent / "players.csv",
        ["id", "name", "rating"],
        [[p, f"Player {p}", 1800 + 10 * i] for i, p in enumerate("ABCDE")],
    )
    return CliRunner().invoke(cli, ["validate", str(path), "--players", str(players), "--json"])


def test_player_in_two_games_of_one_round_is_reported_with_row_and_fix(tmp_path):
    games = write_csv(
        tmp_path / "games.csv",
        HEADER,
        [
            ["Open", "1", "A", "B", "1-0"],  # line 2
            ["Open", "1", "C", "D", "0-1"],  # line 3
            ["Open", "1", "E", "A", "1/2-1/2"],  # line 4: A again in round 1
            ["Open", "2", "A", "C", "1-0"],  # line 5: a new round, fine
            ["Blitz", "1", "A", "C", "1-0"],  # line 6: another event, fine
            ["Open", "2", "D", "C", "1-0"],  # line 7: C again in round 2
        ],
    )
    result = validate(games)
    assert result.exit_code == 1
    found = [(p["code"], p["row"], p["column"], p["value"]) for p in json.loads(result.stdout)]
    assert found == [("paired-twice", 4, "black", "A"), ("paired-twice", 7, "black", "C")]
    first = json.loads(result.stdout)[0]
    assert "row 2" in first["message"] and "'B'" in first["message"] and first["fix"]


def test_the_same_game_twice_is_a_duplicate_not_a_double_pairing(tmp_path):
    games = write_csv(
        tmp_path / "games.csv",
        HEADER,
        [["Open", "1", "A", "B", "1-0"], ["Open", "1", "B", "A", "0-1"]],
    )
    codes = [p["code"] for p in json.loads(validate(games).stdout)]
    assert codes == ["duplicate-game"]


def test_games_without_rounds_are_not_checked(tmp_path):
    games = write_csv(
        tmp_path / "games.csv",
        ["white", "black", "result"],
        [["A", "B", "1-0"], ["A", "C", "1-0"]],
    )
    result = validate(games)
    assert result.exit_code == 0, result.stdout
