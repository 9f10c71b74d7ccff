"""Every case of ../shared/fide/EXAMPLES.md that concerns a rating change, through the library
and through the CLI. The expected figures are the ones printed in EXAMPLES.md.
"""

from __future__ import annotations

import pytest

from tests.helpers import individual_file, rate_rows, write_csv

VIA = pytest.mark.parametrize("via", ["library", "cli"])

# (player, opponent, K, result, method, rules, expected change_exact, change, new rating)
SINGLE_GAMES = [
    (1650, 1800, 20, "1", "formula", "standard", "14.07", 14, 1664),
    (1650, 1800, 20, "½", "formula", "standard", "4.07", 4, 1654),
    (1650, 1800, 20, "0", "formula", "standard", "-5.93", -6, 1644),
    (1650, 1800, 20, "1", "fide", "standard", "14.00", 14, 1664),
    (1650, 1800, 20, "½", "fide", "standard", "4.00", 4, 1654),
    (1650, 1800, 20, "0", "fide", "standard", "-6.00", -6, 1644),
    (1650, 1800, 10, "1", "formula", "standard", "7.03", 7, 1657),
    (1650, 1800, 40, "1", "formula", "standard", "28.14", 28, 1678),
    (1500, 1600, 32, "1", "formula", "standard", "20.48", 20, 1520),
    (1600, 1500, 32, "0", "formula", "standard", "-20.48", -20, 1580),
    (2000, 1800, 20, "½", "formula", "standard", "-5.19", -5, 1995),
    (1800, 2000, 20, "½", "formula", "standard", "5.19", 5, 1805),
    (1600, 1800, 20, "1", "fide", "standard", "15.20", 15, 1615),
    (1500, 1700, 20, "1", "fide", "standard", "15.20", 15, 1515),
    (1500, 1700, 20, "½", "fide", "standard", "5.20", 5, 1505),
    (1500, 1700, 20, "0", "fide", "standard", "-4.80", -5, 1495),
    (1800, 1500, 20, "½", "fide", "standard", "-7.00", -7, 1793),
    # 2650+ players use the real difference from 2025-10-01; the 2200 side is capped.
    (2700, 2200, 10, "1", "fide", "standard", "0.40", 0, 2700),
    (2200, 2700, 20, "0", "fide", "standard", "-1.60", -2, 2198),
    (2700, 2200, 10, "1", "fide", "standard-2024", "0.80", 1, 2701),
]


@VIA
@pytest.mark.parametrize(
    "rating, opponent, k, result, method, rules, exact, change, new", SINGLE_GAMES
)
def test_single_game(tmp_path, via, rating, opponent, k, result, method, rules, exact, change, new):
    path = individual_file(tmp_path / "g.csv", rating, [(opponent, result)], k=k)
    row = rate_rows(tmp_path, [path], via=via, method=method, rules=rules, period="2026-11")["P"]
    assert (row["change_exact"], row["change"], row["new_rating"]) == (exact, str(change), str(new))
    assert row["k"] == str(k)


@VIA
@pytest.mark.parametrize(
    "rating, opponent, method, rules, expected",
    [
        (1650, 1800, "formula", "standard", "0.2966"),
        (1650, 1800, "fide", "standard", "0.30"),
        (1500, 1600, "formula", "standard", "0.3599"),
        (2000, 1800, "formula", "standard", "0.7597"),
        (1600, 1800, "fide", "standard", "0.24"),
        (1800, 1500, "fide", "standard", "0.85"),
        (2700, 2200, "fide", "standard", "0.96"),
        (2200, 2700, "fide", "standard", "0.08"),
        (2700, 2200, "fide", "standard-2024", "0.92"),
    ],
)
def test_single_game_expected_score(tmp_path, via, rating, opponent, method, rules, expected):
    path = individual_file(tmp_path / "g.csv", rating, [(opponent, "1")], k=20)
    row = rate_rows(tmp_path, [path], via=via, method=method, rules=rules)["P"]
    assert row["expected"] == expected


JUNIOR_EVENT = [(1620, "1"), (1480, "½"), (1710, "0"), (1555, "1"), (1390, "1")]


@VIA
@pytest.mark.parametrize(
    "method, expected, exact, change, new",
    [("fide", "2.17", "53.20", 53, 1553), ("formula", "2.1672", "53.31", 53, 1553)],
)
def test_whole_event_junior(tmp_path, via, method, expected, exact, change, new):
    # Junior, 1500, K 40 (from the birth year, not given): 3.5 / 5, one rounding at the end.
    path = individual_file(tmp_path / "g.csv", 1500, JUNIOR_EVENT)
    players = write_csv(
        tmp_path / "players.csv",
        ["id", "name", "rating", "birth_year", "games"],
        [["P", "Junior", 1500, 2012, 80]],
    )
    row = rate_rows(tmp_path, [path], players, via=via, method=method, period="2026-11")["P"]
    assert row["k"] == "40"
    assert (row["games"], row["score"], row["expected"]) == ("5", "3.5", expected)
    assert (row["change_exact"], row["change"], row["new_rating"]) == (exact, str(change), str(new))


@VIA
@pytest.mark.parametrize(
    "method, expected, exact, change",
    [("fide", "0.81", "13.80", 14), ("formula", None, "13.77", 14)],
)
def test_whole_event_two_games(tmp_path, via, method, expected, exact, change):
    path = individual_file(tmp_path / "g.csv", 1600, [(1800, "1"), (1550, "½")], k=20)
    row = rate_rows(tmp_path, [path], via=via, method=method)["P"]
    assert (row["score"], row["change_exact"], row["change"]) == ("1.5", exact, str(change))
    if method == "fide":
        assert row["expected"] == expected
    assert row["new_rating"] == str(1600 + change)


# Rounding and exactness: (rating, K, games, exact, rounded)
ROUNDING = [
    # a win with PD 0.55 (|D| 33..39): 10 x 0.45 = 4.5 -> +5
    (2450, 10, [(2414, "1")], "4.50", 5),
    # a loss with PD 0.55: 10 x -0.55 = -5.5 -> -6
    (2450, 10, [(2414, "0")], "-5.50", -6),
    # one draw at PD 0.45 (2450 vs 2486) -> +1, and the 2486 side -> -1
    (2450, 10, [(2486, "½")], "0.50", 1),
    (2486, 10, [(2450, "½")], "-0.50", -1),
    # five games worth +0.4 each: +2.0 -> +2 (rounding per game would give 0)
    (2700, 10, [(2200, "1")] * 5, "2.00", 2),
    # a period total of -2.50 -> -3 (a loss at PD 0.25, K 10)
    (2000, 10, [(2190, "0")], "-2.50", -3),
    # a period total of -22.50 -> -23 (five losses at PD 0.45, K 10)
    (2450, 10, [(2486, "0")] * 5, "-22.50", -23),
]


@VIA
@pytest.mark.parametrize("rating, k, games, exact, change", ROUNDING)
def test_rounding_once_half_away_from_zero(tmp_path, via, rating, k, games, exact, change):
    path = individual_file(tmp_path / "g.csv", rating, games, k=k)
    row = rate_rows(tmp_path, [path], via=via)["P"]
    assert (row["change_exact"], row["change"]) == (exact, str(change))


# K and the 700 rule: (published or derived K inputs, games played, K used)
@VIA
@pytest.mark.parametrize(
    "k, n, k_used",
    [(40, 18, 38), (20, 39, 17), (20, 35, 20), (20, 36, 19), (10, 71, 9)],
)
def test_seven_hundred_rule(tmp_path, via, k, n, k_used):
    path = individual_file(tmp_path / "g.csv", 1800, [(1800, "½")] * n, k=k)
    row = rate_rows(tmp_path, [path], via=via)["P"]
    assert row["k"] == str(k_used)
    assert row["games"] == str(n)


@VIA
@pytest.mark.parametrize(
    "rating, birth_year, games, ever_2400, k",
    [
        (1900, 2009, 200, "false", 40),  # 17 years old in 2026: junior, K 40 not 20
        (2194, 1980, 900, "true", 10),  # once reached 2400: K 10 for good
        (2350, 2010, 300, "false", 20),  # junior but 2300 or more: not K 40
        (1700, 1980, 12, "false", 40),  # fewer than 30 games
        (1700, 1980, 30, "false", 20),
        (1700, 2008, 30, "false", 40),  # turns 18 this year: still a junior
        (1700, 2007, 30, "false", 20),  # 19 this year
    ],
)
def test_k_precedence(tmp_path, via, rating, birth_year, games, ever_2400, k):
    path = individual_file(tmp_path / "g.csv", rating, [(rating, "½")])
    players = write_csv(
        tmp_path / "players.csv",
        ["id", "name", "rating", "birth_year", "games", "ever_2400"],
        [["P", "Someone", rating, birth_year, games, ever_2400]],
    )
    row = rate_rows(tmp_path, [path], players, via=via, period="2026-11")["P"]
    assert row["k"] == str(k)
