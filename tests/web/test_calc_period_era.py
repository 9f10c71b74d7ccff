"""Issue 34 #9 on the web calculator: a period (the form's "Period" field) rates with the era
of the FIDE list it was rated for, as ``fiderate calc`` does (tests/calculator/test_calc_era.py
works the numbers: -18 game by game for the July 2008 list, -19 by the average opponent)."""

from __future__ import annotations

import pytest

QUERY = "/api/calc?r=2250&g=99&o=2000&s=0.5&o=1705&s=0"


@pytest.mark.parametrize(
    ("period", "change", "era"),
    [("2008-06", -18, "standard-2008"), ("2008-03", -19, "standard-2006")],
)
def test_the_page_rates_with_the_era_of_the_periods_list(client, period, change, era):
    answer = client.get(f"{QUERY}&period={period}").json()
    assert answer["change"] == change
    assert f"rules {era}: " in answer["html"]
