"""``fiderate table``: the expectancy golden table of EXAMPLES.md, through the command line."""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal

import pytest

from tests.conftest import run_cli


def table_json(*args: str) -> dict:
    result = run_cli("table", *args, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def q(x: float, places: str) -> Decimal:
    return Decimal(str(x)).quantize(Decimal(places), rounding=ROUND_HALF_UP)


# gap, formula %, FIDE, favourite win / draw / loss at K 20 (formula), from EXAMPLES.md
GOLDEN = [
    (0, "50.0", "0.50", ("10.0", "0.0", "-10.0")),
    (100, "64.0", "0.64", ("7.2", "-2.8", "-12.8")),
    (200, "76.0", "0.76", ("4.8", "-5.2", "-15.2")),
    (300, "84.9", "0.85", ("3.0", "-7.0", "-17.0")),
    (400, "90.9", "0.92", ("1.8", "-8.2", "-18.2")),
    (500, "94.7", "0.96", ("1.1", "-8.9", "-18.9")),
    (560, "96.2", "0.98", None),
    (800, "99.0", "1.00", ("0.2", "-9.8", "-19.8")),
]


@pytest.fixture(scope="module")
def by_gap() -> dict[int, dict]:
    return {r["gap"]: r for r in table_json("--step", "20")["rows"]}


@pytest.mark.parametrize(("gap", "formula", "fide", "worth"), GOLDEN)
def test_expectancy_golden(by_gap, gap, formula, fide, worth):
    row = by_gap[gap]
    assert q(row["formula"] * 100, "0.1") == Decimal(formula)
    assert q(row["fide"], "0.01") == Decimal(fide)
    if worth:
        got = tuple(q(row["formula_favourite"][r], "0.1") for r in ("win", "draw", "loss"))
        assert got == tuple(Decimal(w) for w in worth)


def test_underdog_mirrors_favourite_at_equal_k(by_gap):
    for row in by_gap.values():
        for method in ("fide", "formula"):
            fav, dog = row[f"{method}_favourite"], row[f"{method}_underdog"]
            # Without the cap, the underdog's win is worth what the favourite's loss costs.
            assert q(dog["win"], "0.01") == -q(fav["loss"], "0.01")
            assert q(dog["draw"], "0.01") == -q(fav["draw"], "0.01")


def test_largest_gap_between_table_and_formula_is_at_560():
    rows = table_json("--step", "1", "--max", "799")["rows"]
    gaps = [(Decimal(str(r["fide"])) - Decimal(str(r["formula"]))).copy_abs() for r in rows]
    best = max(range(len(rows)), key=lambda i: gaps[i])
    assert rows[best]["gap"] == 560
    assert q(gaps[best] * 100, "0.01") == Decimal("1.83")


def test_fide_worth_is_exact_at_k(by_gap):
    # K 20, gap 100: PD 0.64 -> +7.20 / -2.80 / -12.80 exactly.
    assert by_gap[100]["fide_favourite"] == {"win": 7.2, "draw": -2.8, "loss": -12.8}


def test_cap_option_applies_the_400_point_rule():
    capped = {r["gap"]: r for r in table_json("--cap", "--step", "100")["rows"]}
    assert capped[500]["fide"] == 0.92  # counted as 400
    assert capped[300]["fide"] == 0.85


def test_k_option_scales_worth():
    rows = {r["gap"]: r for r in table_json("--k", "40", "--step", "100", "--max", "100")["rows"]}
    assert rows[100]["fide_favourite"]["win"] == 14.4  # 40 x 0.36


def test_text_table_columns_and_rows():
    result = run_cli("table", "--step", "100")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert any("gap" in line and "formula" in line and "FIDE" in line for line in lines)
    row = next(line for line in lines if line.split()[:1] == ["100"]).split()
    assert row[1:3] == ["64.0%", "0.64"]
    assert row[3:8] == ["+7.2", "/", "-2.8", "/", "-12.8"]
    data = [line for line in lines if line.split() and line.split()[0].isdigit()]
    assert len(data) == 9  # 0, 100, ..., 800


def test_expect_option_golden():
    result = run_cli("table", "--expect", "0.75")
    assert result.exit_code == 0
    assert "a gap of 190.8" in result.stdout
    assert "gaps 189-197 give 0.75" in result.stdout
    result = run_cli("table", "--expect", "0.9")
    assert "a gap of 381.7" in result.stdout  # "about 382"


def test_expect_with_json_answers_in_json():
    # --json was ignored with --expect (issue 26: every command's --json prints an object).
    import json

    result = run_cli("table", "--expect", "0.75", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["expected"] == 0.75 and answer["fide_gaps"] == [189, 197]
    assert 190.8 <= answer["formula_gap"] < 190.9  # 400 x log10(3) = 190.85
    # 0.755 is no band's value: the hundredths are not rounded into one.
    answer = json.loads(run_cli("table", "--expect", "0.755", "--json").stdout)
    assert answer["fide_gaps"] is None
    assert "no band gives exactly 0.755" in run_cli("table", "--expect", "0.755").stdout


def test_bad_options():
    result = run_cli("table", "--max", "5000")
    assert result.exit_code == 2 and "--max" in result.stderr and result.stdout == ""
