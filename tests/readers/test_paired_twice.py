"""A player paired in two games of the same round is an input error (issue 12, item 3)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from helpers import write_csv
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.keys.game_codes import GameCodes
from pipeline.model import GamesInput
from pipeline.readers.events.rounds import paired_twice
from tests.conftest import run_cli

HEADER = ["event", "round", "white", "black", "result"]


def validate(path):
    players = write_csv(
        path.parent / "players.csv",
        ["id", "name", "rating"],
        [[p, f"Player {p}", 1800 + 10 * i] for i, p in enumerate("ABCDE")],
    )
    return run_cli("validate", str(path), "--players", str(players), "--json")


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
    found = [
        (p["code"], p["row"], p["column"], p["value"])
        for p in json.loads(result.stdout)["problems"]
    ]
    assert found == [("paired-twice", 4, "black", "A"), ("paired-twice", 7, "black", "C")]
    first = json.loads(result.stdout)["problems"][0]
    assert "row 2" in first["message"] and "'B'" in first["message"] and first["fix"]


def test_the_same_game_twice_is_a_duplicate_not_a_double_pairing(tmp_path):
    games = write_csv(
        tmp_path / "games.csv",
        HEADER,
        [["Open", "1", "A", "B", "1-0"], ["Open", "1", "B", "A", "0-1"]],
    )
    codes = [p["code"] for p in json.loads(validate(games).stdout)["problems"]]
    assert codes == ["duplicate-game"]


def test_games_without_rounds_are_not_checked(tmp_path):
    games = write_csv(
        tmp_path / "games.csv",
        ["white", "black", "result"],
        [["A", "B", "1-0"], ["A", "C", "1-0"]],
    )
    result = validate(games)
    assert result.exit_code == 0, result.stdout


GAME = st.tuples(
    st.sampled_from(["Open", "Blitz"]),
    st.sampled_from(["1", "2", ""]),
    st.sampled_from("ABCD"),
    st.sampled_from("ABCD"),
)


def games_input(rows: list[tuple[str, str, str, str]]) -> GamesInput:
    event, round_, white, black = zip(*rows, strict=True) if rows else ([],) * 4
    frame = pd.DataFrame(
        {
            "event": pd.Series(event, dtype=str),
            "round": pd.Series(round_, dtype=str),
            "white": pd.Series(white, dtype=str),
            "black": pd.Series(black, dtype=str),
            "line": pd.Series(range(2, len(rows) + 2), dtype="int64"),
        }
    )
    return GamesInput("games.csv", frame)


def found(item: GamesInput) -> list[tuple]:
    return [(p.row, p.column, p.value, p.message) for p in paired_twice(item)]


@settings(max_examples=150, deadline=None)
@given(st.lists(GAME, max_size=10))
def test_games_without_a_round_change_nothing_else(rows):
    """The rows with a round are checked as they are alone (the blank rounds taken out by the
    rounds' codes, the rows kept by their line numbers)."""
    item = games_input(rows)
    with_round = item.games[item.games["round"] != ""]
    alone = GamesInput("games.csv", with_round.reset_index(drop=True))
    assert found(item) == found(alone)


@settings(max_examples=150, deadline=None)
@given(st.lists(GAME, max_size=10))
def test_keys_too_wide_to_pack_give_the_same_problems(rows):
    item = games_input(rows)
    packed = found(item)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(GameCodes, "fits", lambda self: False)
        assert found(games_input(rows)) == packed
