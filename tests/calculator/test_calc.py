"""``fiderate calc``: every golden case of ../shared/fide/EXAMPLES.md that concerns one player's
games, through the command line (JSON output parsed), plus the text output and bad input.

Expected numbers are the ones printed in EXAMPLES.md, or derived here by hand from table 8.1.2 /
the formula, never copied from the program's output.
"""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import run_cli


def run(*args: str) -> dict:
    result = run_cli("calc", *args, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def vs(*games: str) -> list[str]:
    return [a for g in games for a in ("--vs", g)]


def d2(x: float) -> Decimal:
    return Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


# (player, opponent, extra options, result, method, expected score, exact change, rounded, new)
SINGLE_GAMES = [
    (1650, 1800, [], "1", "formula", "0.2966", "14.07", 14, 1664),
    (1650, 1800, [], "0.5", "formula", "0.2966", "4.07", 4, 1654),
    (1650, 1800, [], "0", "formula", "0.2966", "-5.93", -6, 1644),
    (1650, 1800, [], "1", "fide", "0.30", "14.00", 14, 1664),
    (1650, 1800, [], "0.5", "fide", "0.30", "4.00", 4, 1654),
    (1650, 1800, [], "0", "fide", "0.30", "-6.00", -6, 1644),
    (1650, 1800, ["--k", "10"], "1", "formula", "0.2966", "7.03", 7, 1657),
    (1650, 1800, ["--k", "40"], "1", "formula", "0.2966", "28.14", 28, 1678),
    (1500, 1600, ["--k", "32"], "1", "formula", "0.3599", "20.48", 20, 1520),
    (2000, 1800, [], "0.5", "formula", "0.7597", "-5.19", -5, 1995),
    (1600, 1800, [], "1", "fide", "0.24", "15.20", 15, 1615),
    (1500, 1700, [], "1", "fide", "0.24", "15.20", 15, 1515),
    (1500, 1700, [], "0.5", "fide", "0.24", "5.20", 5, 1505),
    (1500, 1700, [], "0", "fide", "0.24", "-4.80", -5, 1495),
    (1800, 1500, [], "0.5", "fide", "0.85", "-7.00", -7, 1793),
    # 2700 v 2200 under the rule set from 2025-10-01: 2700 is exempt from the cap (PD 0.96).
    (2700, 2200, [], "1", "fide", "0.96", "0.40", 0, 2700),
    (2700, 2200, ["--rules", "standard-2024"], "1", "fide", "0.92", "0.80", 1, 2701),
]


@pytest.mark.parametrize(
    ("player", "opponent", "extra", "result", "method", "expected", "exact", "change", "new"),
    SINGLE_GAMES,
)
def test_single_game_golden(player, opponent, extra, result, method, expected, exact, change, new):
    out = run(str(player), *vs(f"{opponent}:{result}"), "--method", method, *extra)
    game = out["games"][0]
    key = "expected_formula" if method == "formula" else "expected_fide"
    places = Decimal("0.0001") if method == "formula" else Decimal("0.01")
    assert Decimal(str(game[key])).quantize(places, rounding=ROUND_HALF_UP) == Decimal(expected)
    assert d2(out["totals"]["change_exact"]) == Decimal(exact)
    assert out["totals"]["change"] == change
    assert out["totals"]["new_rating"] == new


def test_opponent_changes_golden():
    # 1500 beats 1600 at K 32 (formula): opponent -20.48 -> 1579.52 (rounded: 1580).
    game = run("1500", *vs("1600:1"), "--k", "32", "--method", "formula")["games"][0]
    assert d2(game["opponent_change_exact"]) == Decimal("-20.48")
    assert game["opponent_new_rating"] == 1580
    # 2000 draws 1800 (formula): the 1800 side gains 5.19 -> 1805.19.
    game = run("2000", *vs("1800:0.5"), "--method", "formula")["games"][0]
    assert d2(game["opponent_change_exact"]) == Decimal("5.19")
    # 2700 beats 2200: the 2200 side is capped (PD 0.08) and has K 20: -1.6 -> -2 -> 2198.
    out = run("2700", *vs("2200:1"))
    assert out["k"] == 10  # 2700 is 2400+
    game = out["games"][0]
    assert game["opponent_k"] == 20
    assert d2(game["opponent_change_exact"]) == Decimal("-1.60")
    assert game["opponent_change"] == -2
    assert game["opponent_new_rating"] == 2198
    assert game["gap_used"] == 500  # the 2700 side uses the real gap


def test_exact_new_rating_beside_the_rounded_one():
    """Issue 26: 1500 beats 1600 at K 32 (formula): 32 x (1 - 1 / (1 + 10^(-100/400))) =
    32 x 0.640065 = 20.48, so 1520.48 (rounded 1520) and the opponent 1579.52 (1580)."""
    args = ["1500", *vs("1600:1"), "--k", "32", "--method", "formula"]
    out = run(*args)
    assert d2(out["totals"]["new_rating_exact"]) == Decimal("1520.48")
    assert out["totals"]["new_rating"] == 1520
    assert d2(out["games"][0]["opponent_new_rating_exact"]) == Decimal("1579.52")
    text = run_cli("calc", *args)
    assert text.exit_code == 0
    assert text.stdout.splitlines()[-1] == "new rating: exact 1520.48, rounded 1520"
    # The FIDE method prints the same line: 1600 beats 1800 (PD 0.24): 1600 + 20 x 0.76.
    fide = run_cli("calc", "1600", *vs("1800:1"))
    assert fide.stdout.splitlines()[-1] == "new rating: exact 1615.20, rounded 1615"
    assert run("1600", *vs("1800:1"))["totals"]["new_rating_exact"] == 1615.2


def test_whole_event_junior_golden():
    games = vs("1620:1", "1480:0.5", "1710:0", "1555:1", "1390:1")
    fide = run("1500", *games, "--junior")
    assert fide["k"] == 40
    assert [g["expected_fide"] for g in fide["games"]] == [0.34, 0.53, 0.23, 0.42, 0.65]
    assert fide["totals"]["expected"] == 2.17
    assert fide["totals"]["s_minus_e"] == 1.33
    assert fide["totals"]["change_exact"] == 53.2
    assert (fide["totals"]["change"], fide["totals"]["new_rating"]) == (53, 1553)
    formula = run("1500", *games, "--junior", "--method", "formula")
    e = [
        Decimal(str(g["expected_formula"])).quantize(Decimal("0.0001"), ROUND_HALF_UP)
        for g in formula["games"]
    ]
    assert e == [Decimal(x) for x in ("0.3339", "0.5288", "0.2299", "0.4215", "0.6532")]
    assert d2(formula["totals"]["change_exact"]) == Decimal("53.31")
    assert formula["totals"]["new_rating"] == 1553


def test_whole_event_two_games_golden():
    fide = run("1600", *vs("1800:1", "1550:0.5"))
    assert fide["totals"]["expected"] == 0.81
    assert fide["totals"]["change_exact"] == 13.8
    assert (fide["totals"]["change"], fide["totals"]["new_rating"]) == (14, 1614)
    formula = run("1600", *vs("1800:1", "1550:0.5"), "--method", "formula")
    one = [
        Decimal(str(g["k_x_s_minus_e"])).quantize(Decimal("0.1"), ROUND_HALF_UP)
        for g in formula["games"]
    ]
    assert one == [Decimal("15.2"), Decimal("-1.4")]  # EXAMPLES.md shows one decimal
    assert d2(formula["totals"]["change_exact"]) == Decimal("13.77")


@pytest.mark.parametrize(
    ("args", "exact", "change"),
    [
        # 2440 v 2405: D 35 is in the 0.55 band (33-39); a win is +0.45 x 10 = 4.5 -> +5,
        # a loss -5.5 -> -6.
        (["2440", *vs("2405:1")], "4.50", 5),
        (["2440", *vs("2405:0")], "-5.50", -6),
        # 2450 v 2486, a draw at PD 0.45 (K 10 at 2400+): +0.5 -> +1.
        (["2450", *vs("2486:0.5")], "0.50", 1),
        # Five wins at +0.04 (2700 v 2200, exempt from the cap): +2.0 -> +2, never 5 x 0.
        (["2700", *vs(*["2200:1"] * 5)], "2.00", 2),
        # Draw at PD 0.75 (gap 190, band 189-197), K 10: -2.50 -> -3.
        (["2450", *vs("2260:0.5")], "-2.50", -3),
        # Three losses at PD 0.75, K 10: -22.50 -> -23.
        (["2450", *vs(*["2260:0"] * 3)], "-22.50", -23),
    ],
)
def test_rounding_golden(args, exact, change):
    out = run(*args)
    assert d2(out["totals"]["change_exact"]) == Decimal(exact)
    assert out["totals"]["change"] == change


def test_draw_at_045_moves_both_sides_by_one():
    game = run("2450", *vs("2486:0.5"))["games"][0]
    assert game["opponent_k"] == 10  # 2486 is 2400+
    assert d2(game["opponent_change_exact"]) == Decimal("-0.50")
    assert game["opponent_change"] == -1


@pytest.mark.parametrize(
    ("args", "games", "k"),
    [
        (["1500", "--junior"], 18, 38),
        (["1900"], 39, 17),
        (["1900"], 35, 20),
        (["1900"], 36, 19),
        (["2500"], 71, 9),
        (["1900", "--birth-year", "2009", "--period", "2026-11"], 1, 40),  # 17 this year
        (["1900", "--birth-year", "2008", "--period", "2026-11"], 1, 40),  # 18: still junior
        (["1900", "--birth-year", "2007", "--period", "2026-11"], 1, 20),
        (["2194", "--ever-2400"], 1, 10),
        (["1900", "--games", "12"], 1, 40),
        (["1900", "--games", "30"], 1, 20),
    ],
)
def test_k_and_700_rule_golden(args, games, k):
    out = run(*args, *vs(*["1900:0.5"] * games))
    assert out["k"] == k


def test_700_rule_is_explained_in_text():
    result = run_cli("calc", "1500", "--junior", *vs(*["1500:1"] * 18))
    assert result.exit_code == 0
    assert "K 38:" in result.stdout
    assert "700 rule" in result.stdout
    assert "K 40 x 18 games > 700" in result.stdout


def test_every_possible_result_table():
    result = run_cli("calc", "1650", "--vs", "1800")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    rows = {
        line.split()[0]: line.split()
        for line in result.stdout.splitlines()
        if line.split()[:1] in (["win"], ["draw"], ["loss"])
    }
    # EXAMPLES.md: +14 / +4 / -6 -> 1664 / 1654 / 1644; the 1800 side (K 20) the opposite.
    assert rows["win"][1:] == ["+14.00", "+14", "1664", "-14.00", "-14", "1786"]
    assert rows["draw"][1:] == ["+4.00", "+4", "1654", "-4.00", "-4", "1796"]
    assert rows["loss"][1:] == ["-6.00", "-6", "1644", "+6.00", "+6", "1806"]
    assert "table 0.30, formula 0.2966" in result.stdout


def test_every_possible_result_json():
    result = run_cli("calc", "1500", "--vs", "1700", "--json")
    out = json.loads(result.stdout)
    assert [out[r]["totals"]["change"] for r in ("win", "draw", "loss")] == [15, 5, -5]


def test_text_breakdown_shows_every_column():
    result = run_cli("calc", "1650", *vs("2100:1", "1480:0.5"))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.lstrip().startswith("game"))
    for column in (
        "opponent",
        "gap",
        "gap used",
        "E table",
        "E formula",
        "S - E",
        "K x (S - E)",
        "opp change",
    ):
        assert column in header
    first = next(line for line in lines if line.split()[:2] == ["1", "2100"]).split()
    # gap -450 counts as -400 for a 1650 player: PD 0.08, +0.92 x 20 = +18.40. The formula
    # is not capped: 1 / (1 + 10^(450/400)) = 0.0698.
    assert first[2:8] == ["1", "-450", "-400", "0.08", "0.0698", "+0.92"]
    assert first[8] == "+18.40"
    assert "new rating:" in result.stdout


def _pd_lower(gap: int, table: list[tuple[int, int, int]]) -> int:
    """Independent look-up of table 8.1.2 (hundredths) for the lower-rated side."""
    for lo, hi, higher in table:
        if lo <= gap <= hi:
            return 100 - higher
    return 0


def test_sequential_mode_updates_after_each_game(shared_fide):
    import csv

    with (shared_fide / "table_8_1_2.csv").open() as fh:
        table = [
            (int(r["d_min"]), int(r["d_max"]), int(Decimal(r["pd_higher"]) * 100))
            for r in csv.DictReader(fh)
            if r["d_max"]
        ]
    out = run("1600", *vs("1800:1", "1550:0.5"), "--mode", "sequential")
    assert out["mode"] == "sequential" and out["fide_method"] is False
    g1, g2 = out["games"]
    assert g1["rating_used"] == 1600 and g1["k_x_s_minus_e"] == 15.2
    # After +15.2 the running rating is 1615.2; the second game is scored from 1615 (gap 65).
    assert g2["rating_used"] == 1615
    pd65 = 100 - _pd_lower(65, table)
    exact = Decimal("15.2") + 20 * (Decimal(50 - pd65) / 100)
    assert Decimal(str(out["totals"]["change_exact"])) == exact
    text = run_cli("calc", "1600", *vs("1800:1", "1550:0.5"), "--mode", "sequential").stdout
    assert "NOT the FIDE method" in text
    assert "rating before" in text


@settings(max_examples=8, deadline=None)
@given(
    st.integers(1400, 2600),
    st.lists(
        st.tuples(st.integers(-400, 400), st.sampled_from(["1", "0.5", "0"])),
        min_size=1,
        max_size=6,
    ),
)
def test_zero_sum_and_order_independence(rating, games):
    # Equal K (--k 20 for both), gaps within the cap: each game moves the two sides by exactly
    # opposite amounts, and reversing the games does not change the FIDE-method total.
    args = [str(rating), "--k", "20"]
    games_args = vs(*[f"{max(1, rating + d)}:{s}" for d, s in games])
    out = run(*args, *games_args)
    for g in out["games"]:
        assert Decimal(str(g["k_x_s_minus_e"])) == -Decimal(str(g["opponent_change_exact"]))
    reverse = run(*args, *vs(*[f"{max(1, rating + d)}:{s}" for d, s in reversed(games)]))
    assert reverse["totals"] == out["totals"]


def test_single_game_sequential_equals_fide():
    a = run("1700", *vs("1900:1"))
    b = run("1700", *vs("1900:1"), "--mode", "sequential")
    assert a["totals"] == b["totals"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["1650"], "--vs"),
        (["1650", "--vs", "abc"], "RATING:RESULT"),
        (["1650", "--vs", "1800:2"], "1, 0.5 or 0"),
        (["1650", "--vs", "1800", "--vs", "1700:1"], "only a single --vs"),
        (["99999", "--vs", "1800:1"], "99999"),
    ],
)
def test_bad_usage_is_exit_2_with_a_message(args, message):
    result = run_cli("calc", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in result.stderr


def test_bad_opponent_rating_is_exit_2():
    # A calculator reads no file: a rating out of range is a usage error, as RATING's is.
    result = run_cli("calc", "1650", "--vs", "5000:1")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "1..3500" in result.stderr and "5000" in result.stderr
    assert "Traceback" not in result.stderr


def test_game_not_rated_by_the_rules_is_shown_not_counted():
    # Rapid: |D| >= 600 with a player above 2600 is not rated for either side (RULES.md 2).
    out = run("2700", *vs("2000:1", "2500:0.5"), "--rules", "rapid")
    first, second = out["games"]
    assert first["rated"] is False and "600" in first["note"]
    assert first["k_x_s_minus_e"] is None and first["opponent_change"] == 0
    # Only the draw counts: PD 0.76 at gap 200, K 10: -2.6 -> -3.
    assert out["totals"]["games"] == 1
    assert (out["totals"]["change_exact"], out["totals"]["change"]) == (-2.6, -3)
    text = run_cli("calc", "2700", *vs("2000:1", "2500:0.5"), "--rules", "rapid")
    assert "game 1 is not rated" in text.stdout
