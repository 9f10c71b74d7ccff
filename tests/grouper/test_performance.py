"""``fiderate performance``: FIDE performance (RULES.md 8) and the linear approximation."""

from __future__ import annotations

import csv
import json
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.errors import UsageError
from pipeline.grouper.performance import fide_performance, performance
from pipeline.rules.rounding import fraction_hundredths
from tests.conftest import run_cli


def perf(*args: str) -> dict:
    result = run_cli("performance", *args, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


@pytest.mark.parametrize(("score", "linear"), [("2.5", 1650), ("3.5", 1810), ("1.5", 1490)])
def test_linear_golden(score, linear):
    # EXAMPLES.md: 50% against an average of 1650 -> 1650; 70% -> 1810; 30% -> 1490.
    out = perf("--score", score, "--opponents", "1600,1700,1650,1650,1650")
    assert out["linear_approximation"]["rounded"] == linear
    assert "approximation" in out["linear_approximation"]["label"]


def test_fide_performance_junior_event(shared_fide):
    # Opponents 1620, 1480, 1710, 1555, 1390 (sum 7755, average 1551), 3.5 / 5 -> p 0.70.
    with (shared_fide / "table_8_1_1.csv").open() as fh:
        dp = {Decimal(r["p"]): int(r["dp"]) for r in csv.DictReader(fh)}
    out = perf("--score", "3.5", "--opponents", "1620,1480,1710,1555,1390")
    assert out["fide"] == {
        "ra": 1551,
        "p": 0.7,
        "dp": dp[Decimal("0.70")],
        "rp": 1551 + dp[Decimal("0.70")],
    }
    same = perf(
        *[a for g in ("1620:1", "1480:0.5", "1710:0", "1555:1", "1390:1") for a in ("--vs", g)]
    )
    assert same["fide"] == out["fide"]


def test_rounding_of_average_and_p():
    # Average 1550.5 rounds up to 1551; 2/3 = 0.666.. -> 0.67; 100% -> +800, 0% -> -800.
    p = performance([1550, 1551], 100)
    assert (p.ra, p.p_h) == (1551, 50)
    assert performance([1500, 1600, 1700], 200).p_h == 67
    assert performance([1500, 1600], 200).rp == 1550 + 800
    assert performance([1500, 1600], 0).rp == 1550 - 800


def test_fraction_hundredths_rounds_half_up():
    # 1/8 = 0.125 -> 0.13; 4/7 = 0.5714 -> 0.57 (the first-rating example of RULES.md 7).
    assert int(fraction_hundredths(100, 8)) == 13
    assert int(fraction_hundredths(400, 7)) == 57


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(1000, 2800), min_size=1, max_size=12), st.data())
def test_performance_monotone_in_score(ratings, data):
    n = len(ratings)
    halves = data.draw(st.integers(0, 2 * n - 1))
    low = performance(ratings, halves * 50)
    high = performance(ratings, (halves + 1) * 50)
    assert high.rp >= low.rp
    assert high.linear > low.linear
    # The vectorized form gives the same numbers.
    ra, p_h, rp = fide_performance(np.array([sum(ratings)]), np.array([n]), np.array([halves * 50]))
    assert (int(ra[0]), int(p_h[0]), int(rp[0])) == (low.ra, low.p_h, low.rp)


def test_no_games_gives_zero_entries():
    ra, p_h, rp = fide_performance(np.array([0, 3000]), np.array([0, 2]), np.array([0, 100]))
    assert list(rp) == [0, 1500]


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        # Every refusal is a usage error (exit 2): a calculator reads no file.
        (["--score", "6", "--opponents", "1500,1600"], 2, "between 0 and 2"),
        (["--score", "1.3", "--opponents", "1500,1600"], 2, "halves"),
        (["--score", "1", "--opponents", "15x0"], 2, "--opponents"),
        (["--score", "1"], 2, "--opponents"),
        (["--vs", "1500"], 2, "result"),
        (["--opponents", "1500,9000", "--score", "1"], 2, "1..3500"),
        (["--score", "nan", "--opponents", "1500,1600"], 2, "halves"),
        (["--score", "inf", "--opponents", "1500,1600"], 2, "halves"),
        (["--score", "1e0", "--opponents", "1500,1600"], 2, "halves"),
        (["--score", "１", "--opponents", "1500,1600"], 2, "halves"),
        (["--score", "1", "--opponents", "1500,١٦٠٠"], 2, "ASCII digits"),
    ],
)
def test_bad_input(args, code, message):
    result = run_cli("performance", *args)
    assert result.exit_code == code
    assert message in result.stderr
    assert result.stdout == ""


def test_text_output_labels_the_approximation():
    result = run_cli("performance", "--score", "3.5", "--opponents", "1620,1480,1710,1555,1390")
    assert result.exit_code == 0
    assert "Rp                                1700" in result.stdout
    assert "linear approximation (not FIDE)" in result.stdout
    assert "TPR = 1711.00 -> 1711" in result.stdout  # 1551 + 400 x (2 x 0.7 - 1) = 1711


def test_usage_error_for_no_opponents():
    # A calculator reads no file: what it refuses is the command line (exit 2).
    with pytest.raises(UsageError):
        performance([], 0)
