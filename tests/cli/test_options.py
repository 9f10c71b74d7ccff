"""The shared option parsers of ``pipeline/cli/options.py``: numbers are ASCII digits, scores
are exact halves (issue 26, items 13 and 14). Whole numbers are read by the calculator's reader
(tests/calculator/test_calc_input.py)."""

from __future__ import annotations

from decimal import Decimal

import click
import pytest

from pipeline.cli.options import Fraction01, WholeRange, ascii_decimal, parse_score_h


@pytest.mark.parametrize(
    ("text", "value"),
    [("3.5", "3.5"), (".5", "0.5"), ("3", "3"), ("3.", "3"), ("0.75", "0.75")],
)
def test_ascii_decimal_reads_plain_decimals(text, value):
    assert ascii_decimal(text) == Decimal(value)


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-inf", "1e3", "-1", "３.５", "3,5", "."])
def test_ascii_decimal_refuses_everything_else(text):
    assert ascii_decimal(text) is None


@pytest.mark.parametrize(("text", "hundredths"), [("3.5", 350), ("0", 0), ("12", 1200)])
def test_score_in_exact_hundredths(text, hundredths):
    assert parse_score_h(text, "--score") == hundredths


@pytest.mark.parametrize("text", ["nan", "inf", "1.3", "0.25", "-1", "1e1", "٣"])
def test_score_refused_as_a_usage_error(text):
    with pytest.raises(click.BadParameter, match="halves"):
        parse_score_h(text, "--score")


def test_whole_range_refuses_unicode_digits_and_keeps_the_range():
    kind = WholeRange(1, 3500)
    assert kind.convert("1500", None, None) == 1500
    with pytest.raises(click.BadParameter, match="ASCII digits"):
        kind.convert("١٥٠٠", None, None)
    with pytest.raises(click.BadParameter, match=r"5000 is not in 1\.\.3500"):
        kind.convert("5000", None, None)


@pytest.mark.parametrize("text", ["nan", "0", "1", "1.0", "-0.5", "1e-3", "0,75", "inf"])
def test_fraction_between_0_and_1_only(text):
    with pytest.raises(click.BadParameter, match="between 0 and 1"):
        Fraction01().convert(text, None, None)
    assert Fraction01().convert("0.75", None, None) == 0.75
