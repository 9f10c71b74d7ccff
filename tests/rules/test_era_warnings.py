"""A period before the earliest rules known, or in an era marked unsure, says so (issue 26 #6):
in the rule choice, then the console, --json, report.html and report.xlsx."""

from __future__ import annotations

import json
from contextlib import closing

import pytest
from openpyxl import load_workbook

from pipeline.rules.select import select_rules
from pipeline.rules.sets import ERAS
from tests.conftest import SAMPLE, run_cli

BEFORE = "before the earliest FIDE rules known here"


@pytest.mark.parametrize(
    "family, period, known",
    [("standard", "2005-03", "2006-04-01"), ("rapid", "2005-01", "2012-01-01")],
)
def test_a_period_before_the_earliest_era_is_warned(family, period, known):
    warnings = select_rules(family, period).warnings
    assert any(BEFORE in w and f"from {known}" in w for w in warnings), warnings


def test_a_period_inside_a_sure_era_has_no_warning():
    assert select_rules("standard", "2026-11").warnings == ()
    assert select_rules("standard", "2010-10").warnings == ()
    # The earliest era from the day its sources start: no "before" warning.
    assert not any(BEFORE in w for w in select_rules("standard", "2006-04").warnings)


def test_every_era_marked_unsure_says_what():
    unsure = [r for eras in ERAS.values() for r in eras if r.uncertain]
    assert {r.name for r in unsure} >= {"standard-2006", "standard-2014", "rapid-2012"}
    for rules in unsure:
        day = rules.effective_from or "2008-01"
        warnings = select_rules(rules.name, day[:7]).warnings
        assert any(rules.uncertain in w and "unsure" in w for w in warnings), rules.name


def test_a_2005_event_warns_in_every_output(tmp_path):
    games = tmp_path / "games-2005.csv"
    games.write_text(
        (SAMPLE / "games.csv").read_text(encoding="utf-8").replace("2026-11-", "2005-03-"),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    args = ["rate", games, "--players", SAMPLE / "players.csv", "--out", out]
    console = run_cli(*args)
    assert console.exit_code == 0, console.stderr
    assert BEFORE in console.stderr and "standard-2006" in console.stderr
    html = (out / "report.html").read_text(encoding="utf-8")
    assert BEFORE in html
    with closing(load_workbook(out / "report.xlsx", read_only=True)) as book:
        cells = [str(c) for row in book["About"].iter_rows(values_only=True) for c in row if c]
    assert any(BEFORE in c for c in cells), cells
    done = run_cli(*args[:-1], tmp_path / "json", "--json")
    assert any(BEFORE in w for w in json.loads(done.stdout)["warnings"])


def test_eras_settled_by_their_sources_do_not_warn():
    # Issue 30: the once-per-event 400-point rule's dates are the archived B.02 2022 text's
    # ("effective from 1 January 2022 till 29 February 2024"), the K of 2011-07 a dated source's:
    # those eras no longer warn; what no source settles still does, and says what.
    assert select_rules("standard", "2023-05").warnings == ()
    assert select_rules("standard", "2013-05").warnings == ()
    (warning,) = select_rules("standard", "2011-09").warnings
    assert "floor became 1000" in warning and "K" not in warning
    assert any("game by game" in w for w in select_rules("standard", "2008-09").warnings)
