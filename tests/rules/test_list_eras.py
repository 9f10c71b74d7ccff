"""Issue 34 #9: the era is the one of the FIDE list the games were rated for, as FIDE chose it.

FIDE's own individual calculations for the list of July 2008 (the games of April to June 2008)
are game by game with the 350-point rule: a June 2008 event is rated so, not by the average
opponent. Lists came every 3 months until 2009-06 (1 January, April, July, October: B.02 9.1 and
9.11 of the 2000s), every 2 months 2009-07 .. 2012-06 (FIDE news, 13 Jul 2009), then monthly.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline import RateOptions, rate_files
from pipeline.jobs.rate.outputs import with_side_texts
from pipeline.rules.select import in_force, rated_for_list, select_rules
from pipeline.rules.sets import EACH_GAME, ERAS
from tests.conftest import run_cli
from tests.engine.test_average_opponent_method import GAMES, HEADER, PLAYERS
from tests.helpers import write_csv

STANDARD = ERAS["standard"]


def _round_robin(tmp_path, month: str):
    """The five-player round robin of tests/engine/test_average_opponent_method.py (worked by
    hand there), played in ``month``."""
    players = write_csv(tmp_path / "players.csv", HEADER, PLAYERS)
    games = [[*g[:2], g[2].replace("2005-05", month), *g[3:]] for g in GAMES]
    path = write_csv(
        tmp_path / "games.csv", ["event", "round", "date", "white", "black", "result"], games
    )
    return path, players


# A (2250, K 15) drew B (2000) and lost to D (1705); C (1906) beat B and drew D; D (1705, K 25)
# beat A, lost to B and drew C (the games against the unrated E and A-C's forfeit are not rated).
# Game by game with the 350 cap: A's gaps are 250 and 545 -> 350: PD 0.81 + 0.89 = 1.70,
# 15 x (0.5 - 1.70) = -18; C: 0.37 + 0.76 = 1.13, 15 x 0.37 = 5.55 -> +6; D: 0.11 + 0.15 + 0.24,
# 25 x 1.00 = +25. By the average opponent (one D per event): A -19, C +5, D +29.
GAME_BY_GAME = {"A": -18, "C": 6, "D": 25}
AVERAGE = {"A": -19, "C": 5, "D": 29}


@pytest.mark.parametrize("period_option", [None, "2008-06"])
def test_a_june_2008_event_is_rated_game_by_game_with_the_350_cap(tmp_path, period_option):
    # Rated for the list of July 2008: FIDE rated its games game by game (fails before #9,
    # when June 2008 was the average-opponent era).
    games, players = _round_robin(tmp_path, "2008-06")
    result = with_side_texts(rate_files([games], players, RateOptions(period=period_option)))
    assert result.period == "2008-06"
    assert result.rule_set == "standard-2008"
    assert "list of 2008-07-01" in result.rules_reason
    totals = result.totals.set_index("id")
    assert totals.loc[list(GAME_BY_GAME), "change"].to_dict() == GAME_BY_GAME
    rated = result.sides[result.sides["rated"]]
    a_gaps = sorted(rated.loc[rated["player"] == "A", "diff"].tolist())
    assert a_gaps == [250, 350]  # each game its own gap; 545 counted as 350


def test_a_march_2008_event_keeps_the_average_opponent(tmp_path):
    # Rated for the list of April 2008: the average-opponent era still.
    games, players = _round_robin(tmp_path, "2008-03")
    result = rate_files([games], players, RateOptions())
    assert result.rule_set == "standard-2006"
    assert "list of 2008-04-01" in result.rules_reason
    totals = result.totals.set_index("id")
    assert totals.loc[list(AVERAGE), "change"].to_dict() == AVERAGE


def test_the_cli_says_which_list_chose_the_rules(tmp_path):
    games, players = _round_robin(tmp_path, "2008-05")
    done = run_cli("rate", games, "--players", players, "--out", tmp_path / "out", "--json")
    assert done.exit_code == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["rules"] == "standard-2008"
    assert summary["rules_reason"] == (
        "in force on 2008-04-01, the start of the rating period of FIDE's list of 2008-07-01, "
        "which rated the games of 2008-05 (standard rules from 2008-04-01 to 2009-06-30)"
    )


@pytest.mark.parametrize(
    ("period", "fide_list", "first", "era"),
    [
        # Quarterly lists (1 January, April, July, October) until 2009-06.
        ("2008-01", "2008-04", "2008-01", "standard-2006"),
        ("2008-03", "2008-04", "2008-01", "standard-2006"),
        ("2008-04", "2008-07", "2008-04", "standard-2008"),
        ("2008-06", "2008-07", "2008-04", "standard-2008"),
        ("2008-07", "2008-10", "2008-07", "standard-2008"),
        # The last quarterly list, July 2009, rated April-June 2009 with the 350 rule; the first
        # bimonthly one, September 2009, July-August with the 400 rule.
        ("2009-04", "2009-07", "2009-04", "standard-2008"),
        ("2009-06", "2009-07", "2009-04", "standard-2008"),
        ("2009-07", "2009-09", "2009-07", "standard-2009"),
        ("2009-08", "2009-09", "2009-07", "standard-2009"),
        # Bimonthly (1 January, March, May, July, September, November) until 2012-06; the
        # list of July 2012 rated May-June 2012, then every list one month.
        ("2011-06", "2011-07", "2011-05", "standard-2009"),
        ("2011-07", "2011-09", "2011-07", "standard-2011"),
        ("2012-05", "2012-07", "2012-05", "standard-2011"),
        ("2012-06", "2012-07", "2012-05", "standard-2011"),
        ("2012-07", "2012-08", "2012-07", "standard-2012"),
        ("2012-08", "2012-09", "2012-08", "standard-2012"),
        # Monthly: the next month's list, the month itself.
        ("2025-09", "2025-10", "2025-09", "standard-2024"),
        ("2025-10", "2025-11", "2025-10", "standard-2025"),
    ],
)
def test_each_month_goes_to_its_list_at_every_frequency_change(period, fide_list, first, era):
    assert rated_for_list(STANDARD, period) == (fide_list, first)
    assert select_rules("standard", period).rules.name == era


def test_the_350_and_400_rules_meet_at_the_first_bimonthly_list(tmp_path):
    # 2000 beats 1550 (K 15), D 450: counted as 350 (PD 0.89, +0.11 x 15 = 1.65 -> +2) for the
    # July 2009 list (games of June 2009), as 400 (PD 0.92, +1.2 -> +1) from July 2009's games.
    players = write_csv(
        tmp_path / "players.csv",
        HEADER,
        [["a", "A", 2000, 1960, 99], ["b", "B", 1550, 1960, 99]],
    )
    header = ["event", "round", "date", "white", "black", "result"]
    changes = {}
    for month in ("2009-06", "2009-07"):
        games = write_csv(
            tmp_path / f"{month}.csv", header, [["E", "1", f"{month}-10", "a", "b", "1-0"]]
        )
        totals = rate_files([games], players, RateOptions()).totals.set_index("id")
        changes[month] = int(totals.loc["a", "change"])
    assert changes == {"2009-06": 2, "2009-07": 1}


MONTHS = st.integers(1971 * 12, 2027 * 12 + 11).map(lambda i: f"{i // 12:04d}-{i % 12 + 1:02d}")


@given(MONTHS)
def test_every_game_of_one_list_is_rated_with_one_era(period):
    # FIDE rated a list with one method: every month of a list's rating period gets its era,
    # the one in force when that period began; the list comes after the month, within its
    # cadence.
    fide_list, first = rated_for_list(STANDARD, period)
    choice = select_rules("standard", period)
    chosen = choice.rules
    # The reason names the list whenever a list rated more than one month.
    assert (f"FIDE's list of {fide_list}-01" in choice.reason) == (chosen.list_every_months > 1)
    assert in_force(chosen, f"{first}-01")
    assert first <= period < fide_list
    index = int(first[:4]) * 12 + int(first[5:7]) - 1
    months = [f"{m // 12:04d}-{m % 12 + 1:02d}" for m in range(index, index + 3)]
    for month in [m for m in months if m < fide_list]:
        assert rated_for_list(STANDARD, month) == (fide_list, first)
        assert select_rules("standard", month).rules is chosen


def test_the_game_by_game_era_starts_with_the_july_2008_list():
    # The one boundary that is a list's, not a regulation's date: the first month of the
    # July 2008 list's rating period.
    (game_by_game,) = [r for r in STANDARD if r.name == "standard-2008"]
    assert game_by_game.expected_score == EACH_GAME and game_by_game.cap == 350
    assert rated_for_list(STANDARD, "2008-04") == ("2008-07", game_by_game.effective_from[:7])
