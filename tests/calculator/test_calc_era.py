"""Issue 34 #9 in ``fiderate calc``: ``--rules standard`` with ``--period`` rates with the era of
the FIDE list that period's games were rated for, as ``fiderate rate`` does. The case is player
A of tests/engine/test_average_opponent_method.py (worked by hand there): 2250 (K 15) draws
2000 and loses to 1705. Game by game with the 350 cap: gaps 250 and 545 -> 350, PD 0.81 + 0.89
= 1.70, 15 x (0.5 - 1.70) = -18. By the average opponent: Rc 1852.5 -> 1853, D 397 -> 350,
We = 2 x 0.89 = 1.78, 15 x -1.28 = -19.2 -> -19.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

GAMES = ["2250", "--vs", "2000:0.5", "--vs", "1705:0", "--games", "99"]


def _json(*args: str) -> dict:
    done = run_cli("calc", *GAMES, *args, "--json")
    assert done.exit_code == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("period", "era", "change", "gaps_used"),
    [
        ("2008-06", "standard-2008", -18, [250, 350]),  # rated for the July 2008 list
        ("2008-04", "standard-2008", -18, [250, 350]),
        ("2008-03", "standard-2006", -19, [350, 350]),  # the April 2008 list: averaged
    ],
)
def test_the_period_picks_the_era_of_its_list(period, era, change, gaps_used):
    out = _json("--period", period)
    assert (out["rule_set"], out["totals"]["change"]) == (era, change)
    assert [g["gap_used"] for g in out["games"]] == gaps_used
    assert "FIDE's list of" in out["rules_reason"]


def test_the_text_says_the_era_and_its_list():
    done = run_cli("calc", *GAMES, "--period", "2008-06")
    assert done.exit_code == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("rules standard-2008: ")
    assert "FIDE's list of 2008-07-01, which rated the games of 2008-06" in lines[1]


def test_without_a_period_the_family_is_its_latest_era_and_no_line_is_added():
    done = run_cli("calc", *GAMES)
    assert done.exit_code == 0, done.stderr
    assert not any(line.startswith("rules standard-") for line in done.stdout.splitlines())
    assert _json()["rule_set"] == "standard-2025"


def test_an_era_given_by_name_is_used_whatever_the_period():
    out = _json("--rules", "standard-2008", "--period", "2005-05")
    assert (out["rule_set"], out["totals"]["change"]) == ("standard-2008", -18)


def test_each_game_says_why_its_difference_counted_in_the_eras_words():
    # The web calculator and the event pages show these words (rules/counted_words.py).
    from pipeline.calculator.calc import CalcRequest, calculate

    def counted(period: str) -> list[str]:
        request = CalcRequest(2250, (2000, 1705), (50, 0), period=period)
        return [g.counted for g in calculate(request).games]

    assert (
        counted("2008-03")
        == ["average method: D = 2250 - Rc 1853 = +397, counted as +350 (350-point rule)"] * 2
    )
    assert counted("2008-06") == ["", "350-point rule: +545 counts as +350"]
    assert counted("2026-11") == ["", "400-point rule: +545 counts as +400"]
