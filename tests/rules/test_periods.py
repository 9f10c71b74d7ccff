"""``--period``: a month from FIDE's first rating list (1971) to next year (issue 26, item 14)."""

from __future__ import annotations

import datetime as dt

import pytest

from pipeline.errors import UsageError
from pipeline.rules.periods import resolve_period

TODAY = dt.date(2026, 12, 6)


@pytest.mark.parametrize("period", ["1971-01", "2006-03", "2026-12", "2027-12"])
def test_plausible_periods_are_kept(period):
    assert resolve_period(period, TODAY) == period


@pytest.mark.parametrize(
    ("period", "says"),
    [
        ("0000-01", "from 1971-01"),
        ("1970-12", "from 1971-01"),
        ("2028-01", "to 2027-12 (next year)"),
        ("9999-12", "to 2027-12 (next year)"),
    ],
)
def test_periods_outside_the_range_are_usage_errors(period, says):
    with pytest.raises(UsageError, match="not a plausible rating period") as refused:
        resolve_period(period, TODAY)
    assert says in str(refused.value) and repr(period) in str(refused.value)


def test_no_period_is_the_current_month():
    assert resolve_period(None, TODAY) == "2026-12"
