"""The calculator's one reader of what is typed (``pipeline.calculator.calc_input``): whole
numbers in ASCII digits within a range, the spellings of a result, the list of games (every bad
one named, at most ``MAX_GAMES``). ``fiderate calc`` and the web page both read through it
(tests/web/test_calc_api_parsing.py asks both faces)."""

from __future__ import annotations

import pytest

from pipeline.calculator.calc_input import (
    MAX_GAMES,
    RATING,
    GameProblem,
    GamesError,
    Whole,
    read_games,
    read_result,
    read_whole,
)
from pipeline.errors import UsageError
from tests.conftest import run_cli

WIDE = Whole(-10_000, 10_000)


@pytest.mark.parametrize(
    ("text", "value"),
    [("1500", 1500), (" 1500 ", 1500), ("-5", -5), ("+5", 5), ("007", 7), ("0" * 30 + "1", 1)],
)  # fmt: skip
def test_whole_numbers_in_ascii_digits(text, value):
    assert read_whole(text, WIDE) == value


# int() reads every one of these; none is a number a user typed on purpose.
NOT_ASCII_WHOLE = [
    "١٥٠٠",
    "１５００",
    "१५००",
    "1_500",
    "15.0",
    "",
    "-",
    "1e3",
    "²⁰",
    "๑๕๐๐",
    "1 500",
]


@pytest.mark.parametrize("text", NOT_ASCII_WHOLE)
def test_anything_else_is_refused_saying_ascii_digits(text):
    with pytest.raises(UsageError, match=r"is not a whole number in ASCII digits \(0-9\)"):
        read_whole(text, WIDE)


@pytest.mark.parametrize("text", ["0", "3501", "-1800", "9" * 19, "9" * 5000])
def test_out_of_range_is_refused_naming_the_range(text):
    with pytest.raises(UsageError, match=r"is not in 1\.\.3500") as refused:
        read_whole(text, RATING)
    assert len(str(refused.value)) < 200  # a long number is quoted cut short


def test_a_number_of_5000_digits_is_a_usage_error_not_an_internal_one():
    """int() refuses more than 4300 digits with ValueError: on main this was 'internal error'."""
    for args in (["--vs", "1700:1", "--games", "9" * 5000], ["--vs", "9" * 5000 + ":1"]):
        done = run_cli("calc", "1800", *args)
        assert done.exit_code == 2 and "internal error" not in done.stderr
        assert "(5,000 characters) is not in" in done.stderr


@pytest.mark.parametrize(
    ("text", "hundredths"),
    [("1", 100), ("WIN", 100), ("1-0", 100), (" = ", 50), ("½", 50), ("1/2-1/2", 50), ("0-1", 0),
     ("l", 0), ("", None), ("?", None), (" ", None)],
)  # fmt: skip
def test_result_spellings(text, hundredths):
    assert read_result(text) == hundredths


@pytest.mark.parametrize("text", ["2", "1.5", "0,5", "１", "?!", "1:0", "won"])
def test_other_results_are_refused_listing_the_spellings(text):
    with pytest.raises(UsageError, match="is not a result: write 1, 0.5 or 0"):
        read_result(text)


def test_every_bad_game_is_named_at_once():
    with pytest.raises(GamesError) as refused:
        read_games([("1800", "1"), ("x", "1"), ("1700", "y"), ("١٧٠٠", "2"), ("1600", "")])
    assert [(p.number, p.part) for p in refused.value.problems] == [
        (2, "rating"), (3, "result"), (4, "rating"), (4, "result"),
    ]  # fmt: skip
    assert refused.value.problems[0] == GameProblem(
        2, "rating", "'x' is not a whole number in ASCII digits (0-9)"
    )


def test_the_games_read():
    assert read_games([("1800", "1"), (" 1700 ", "draw"), ("1600", "")]) == [
        (1800, 100), (1700, 50), (1600, None),
    ]  # fmt: skip


def test_more_games_than_the_limit_are_refused_saying_how_many():
    assert len(read_games([("1800", "1")] * MAX_GAMES)) == MAX_GAMES
    with pytest.raises(UsageError, match=f"{MAX_GAMES + 1:,} games: .* at most {MAX_GAMES:,}"):
        read_games([("1800", "1")] * (MAX_GAMES + 1))
