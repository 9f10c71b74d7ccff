"""The web calculator (``/calc``, ``/api/calc``) reads what is typed as ``fiderate calc`` does
(issue 34, item 4): one reader (``pipeline.calculator.calc_input``) for both faces, so they accept
the same text, refuse it with the same words, and take the same number of games (never cut short).

Each test asks both faces: the page through Starlette's TestClient (or its parsing functions, for
the property tests), the CLI through click's CliRunner.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from pipeline.calculator.calc_input import MAX_GAMES
from pipeline.web import calculator_page
from tests.conftest import run_cli


def api(client: TestClient, query: str) -> dict[str, Any]:
    answer = client.get("/api/calc?" + query)
    assert answer.status_code == 200
    return answer.json()


def cli_message(*args: str) -> str:
    """``fiderate calc ARGS``'s refusal (exit 2, nothing on stdout), without click's preamble."""
    done = run_cli("calc", *args)
    assert (done.exit_code, done.stdout) == (2, ""), done.output
    return done.stderr


def cli_change(*args: str) -> int:
    done = run_cli("calc", *args, "--json")
    assert done.exit_code == 0, done.stderr
    return int(json.loads(done.stdout)["totals"]["change"])


# (the page's query, the field's name on the page, the same input on the command line)
NOT_ASCII = [
    ("r=１８００&o=1700&s=1", "your rating", ["--vs", "1700:1", "１８００"]),  # full-width
    ("r=1_800&o=1700&s=1", "your rating", ["--vs", "1700:1", "1_800"]),
    ("r=1800&o=٢٠٠٠&s=1", "opponent 1", ["1800", "--vs", "٢٠٠٠:1"]),  # Arabic-Indic
    ("r=1800&o=1_800&s=1", "opponent 1", ["1800", "--vs", "1_800:1"]),
    ("r=1800&o=१७००&s=1", "opponent 1", ["1800", "--vs", "१७००:1"]),  # Devanagari
    ("r=1800&kp=custom&k=１０&o=1700&s=1", "K", ["1800", "--vs", "1700:1", "--k", "１０"]),
    ("r=1800&opk=1_0&o=1700&s=1", "opponents' K", ["1800", "--vs", "1700:1", "--opp-k", "1_0"]),
    ("r=1800&by=٢٠١٠&o=1700&s=1", "birth year", ["1800", "--vs", "1700:1", "--birth-year", "٢٠١٠"]),
    (
        "r=1800&g=1_0&o=1700&s=1",
        "games played before",
        ["1800", "--vs", "1700:1", "--games", "1_0"],
    ),
]


@pytest.mark.parametrize(
    ("query", "field", "cli_args"), NOT_ASCII, ids=[q for q, _, _ in NOT_ASCII]
)
def test_unicode_digits_and_underscores_are_refused_in_the_clis_words(
    client, query, field, cli_args
):
    """Python's int() reads '１８００', '٢٠٠٠' and '1_800' as numbers: the page used to rate
    them where the CLI refused them."""
    answer = api(client, query)
    assert answer["change"] is None
    [problem] = answer["problems"]
    prefix = f"{field}: "
    assert problem.startswith(prefix) and "ASCII digits" in problem
    assert problem.removeprefix(prefix) in cli_message(*cli_args)
    assert "ASCII digits" in answer["html"]  # the page shows the problem


def test_150_games_make_the_same_change_on_the_page_and_the_command_line(client):
    """150 wins at K 10 from 1800 against 1700: the 700 rule gives K floor(700 / 150) = 4, PD at
    D = 100 is 0.64 (EXAMPLES.md), so 4 x 150 x (1 - 0.64) = +216. The page used to keep the first
    100 games only (K 7 x 100 x 0.36 = +252)."""
    page = api(client, "r=1800&kp=custom&k=10" + "&o=1700&s=1" * 150)
    assert page["problems"] == []
    cli = cli_change("1800", "--k", "10", *["--vs", "1700:1"] * 150)
    assert page["change"] == cli == 4 * 150 * 36 // 100


def test_over_the_limit_both_faces_refuse_in_the_same_words(client):
    over = MAX_GAMES + 1
    page = api(client, "r=1800" + "&o=1700&s=1" * over)
    assert page["change"] is None
    [problem] = page["problems"]
    assert f"{over:,} games" in problem and f"at most {MAX_GAMES:,}" in problem
    assert problem in cli_message("1800", *["--vs", "1700:1"] * over)


def test_at_the_limit_both_faces_rate_every_game(client):
    # K 20 and 1,000 draws at an even gap: the 700 rule gives K 0, any game more would be refused.
    page = api(client, "r=1800&o=1800&s=1" + "&o=1800&s=0.5" * (MAX_GAMES - 1))
    assert page["problems"] == []
    assert page["change"] == cli_change("1800", "--vs", "1800:1", *["--vs", "1800:0.5"] * 999)


def test_an_opponent_without_a_result_is_a_game_not_played_yet_not_dropped(client):
    """``o=1700&o=1600&s=1``: the second opponent has no ``s``; zip() used to drop it."""
    answer = api(client, "r=1800&o=1700&s=1&o=1600")
    assert answer["change"] == 7  # the game played: K 20 x (1 - 0.64) = 7.2 (EXAMPLES.md)
    assert "<caption>against 1600</caption>" in answer["html"]  # what each result would bring


@pytest.mark.parametrize(("typed", "shown"), [("win", "1"), ("0-1", "0"), ("=", "0.5"), ("", "?")])
def test_every_result_spelling_the_cli_reads_the_page_reads(client, typed, shown):
    expected = {"1": 14, "0.5": 4, "0": -6}  # EXAMPLES.md: 1650 vs 1800 at K 20
    answer = api(client, f"r=1650&o=1800&s={typed}")
    assert answer["problems"] == []
    assert answer["change"] == expected.get(shown)
    page = client.get(f"/calc?r=1650&o=1800&s={typed}").text
    assert re.search(rf'<option value="{re.escape(shown)}" selected>', page)  # the form agrees


# -- property: the two faces accept and refuse the same strings ------------------------------


def web_answer(
    query: dict[str, str], opponents: Sequence[str], results: Sequence[str]
) -> tuple[list[str], int | None]:
    """The page's problems and change, from its parsing functions (the URL decoding is
    Starlette's, not the subject here)."""
    inputs = calculator_page.read_inputs(query, opponents, results)
    context = calculator_page.calculation_context(inputs)
    return context["problems"], context.get("change")


def agree(web: tuple[list[str], int | None], field: str, *cli_args: str) -> None:
    """Both faces accept (with the same change) or both refuse (with the same words)."""
    problems, change = web
    done = run_cli("calc", "--json", *cli_args)
    if not problems:
        assert done.exit_code == 0, done.stderr
        out = json.loads(done.stdout)
        assert change == (out["totals"]["change"] if "totals" in out else None)
        return
    assert done.exit_code == 2 and done.stdout == ""
    [problem] = problems
    assert problem.startswith(f"{field}: ")
    assert problem.removeprefix(f"{field}: ") in done.stderr


def numberish() -> st.SearchStrategy[str]:
    """Text a user might type for a number: ASCII digits with signs and spaces, any Unicode
    digits, underscores, and anything at all."""
    digits = st.characters(categories=["Nd"])
    return st.one_of(
        st.from_regex(r"\s*[+-]?0*[0-9]{1,5}\s*", fullmatch=True),
        st.lists(st.one_of(digits, st.sampled_from("0123456789_ .,+-")), max_size=8).map("".join),
        st.text(max_size=12),
    )


@settings(max_examples=150)
@given(numberish().filter(lambda t: t.strip() != ""))
def test_the_players_rating_is_read_alike(text):
    # After "--" the rating is never taken for an option ("-5" is a rating, refused).
    agree(web_answer({"r": text}, ["1700"], ["1"]), "your rating", "--vs", "1700:1", "--", text)


@settings(max_examples=150)
@given(numberish().filter(lambda t: t.strip() != "" and ":" not in t))
def test_an_opponents_rating_is_read_alike(text):
    # A blank row of the form is no game; on the command line ':' ends the rating.
    agree(web_answer({"r": "1800"}, [text], ["1"]), "opponent 1", f"--vs={text}:1", "1800")


RESULT_LIKE = ["1", "0.5", "0", "win", "draw", "loss", "1-0", "0-1", "=", "½", "1/2", "?", "W"]


@settings(max_examples=150)
@given(st.one_of(st.sampled_from(RESULT_LIKE), st.text(max_size=8), numberish()))
def test_a_result_is_read_alike(text):
    agree(web_answer({"r": "1800"}, ["1700"], [text]), "result 1", f"--vs=1700:{text}", "1800")


@settings(max_examples=100)
@given(numberish(), st.sampled_from([("K", "k", "--k"), ("opponents' K", "opk", "--opp-k")]))
def test_k_is_read_alike(text, names):
    field, name, flag = names
    assume(text.strip() != "")  # a blank field is no K, as a missing option
    query = {"r": "1800", "kp": "custom", "k": "20", name: text}
    agree(web_answer(query, ["1700"], ["1"]), field, "1800", "--vs", "1700:1", "--k", "20",
          f"{flag}={text}")  # fmt: skip
