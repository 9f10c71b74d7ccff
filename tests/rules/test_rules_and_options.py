"""Rule sets, --k/--k-cap, the cap with the formula, and which games are not rated."""

from __future__ import annotations

import csv

import pytest
from openpyxl import Workbook, load_workbook

from tests.conftest import run_cli
from tests.helpers import individual_file, rate_rows, write_csv


def _games_rows(tmp_path, players, games, **options):
    p = write_csv(tmp_path / "players.csv", ["id", "name", "rating"], players)
    g = write_csv(tmp_path / "games.csv", ["round", "white", "black", "result"], games)
    out = tmp_path / "out"
    args = ["rate", str(g), "--players", str(p), "--out", str(out), "--no-xlsx"]
    for key, value in options.items():
        args += [f"--{key}"] + ([] if value is True else [str(value)])
    result = run_cli(*args)
    assert result.exit_code == 0, result.stderr
    with (out / "games.csv").open(encoding="utf-8") as fh:
        sides = list(csv.DictReader(fh))
    with (out / "rating_list.csv").open(encoding="utf-8") as fh:
        totals = {r["id"]: r for r in csv.DictReader(fh)}
    return sides, totals


@pytest.mark.parametrize("rules, rated", [("rapid", False), ("blitz", False), ("standard", True)])
def test_rapid_blitz_gap_rule(tmp_path, rules, rated):
    # |D| = 600 with a player above 2600: not rated for either player in rapid and blitz.
    sides, totals = _games_rows(
        tmp_path, [["a", "A", 2601], ["b", "B", 2001]], [["1", "a", "b", "1-0"]], rules=rules
    )
    assert [s["rated"] for s in sides] == [str(rated).lower()] * 2
    if not rated:
        assert all("600" in s["note"] for s in sides)
        assert totals["a"]["change"] == "0" and totals["a"]["games"] == "0"


def test_rapid_gap_just_below_600_is_rated_and_capped_for_everybody(tmp_path):
    sides, _ = _games_rows(
        tmp_path, [["a", "A", 2700], ["b", "B", 2101]], [["1", "a", "b", "1-0"]], rules="rapid"
    )
    assert [s["rated"] for s in sides] == ["true", "true"]
    assert [s["diff"] for s in sides] == ["400", "-400"]  # no 2650 exemption in rapid


def test_unrated_and_unplayed_games_are_kept_but_not_rated(tmp_path):
    sides, totals = _games_rows(
        tmp_path,
        [["a", "A", 1800], ["b", "B", 1700], ["u", "U", ""], ["v", "V", 0]],
        [
            ["1", "a", "b", "+-"],
            ["2", "a", "u", "1-0"],
            ["3", "u", "v", "1/2-1/2"],
            ["4", "a", "b", "0-1F"],
        ],
    )
    notes = {(s["player"], s["round"]): s["note"] for s in sides}
    assert notes[("a", "1")].startswith("not played") and notes[("b", "4")].startswith("not played")
    assert notes[("a", "2")] == "opponent unrated" and notes[("u", "2")] == "player unrated"
    assert notes[("u", "3")] == "player unrated" and notes[("v", "3")] == "player unrated"
    assert all(s["rated"] == "false" and s["pd"] == "" and s["dev"] == "" for s in sides)
    assert totals["a"]["games"] == "0" and totals["a"]["new_rating"] == "1800"
    assert totals["u"]["rating"] == "" and totals["u"]["new_rating"] == ""
    assert len(sides) == 8  # both sides of every game, rated or not


def test_forced_k_ignores_the_700_rule_unless_asked(tmp_path):
    path = individual_file(tmp_path / "g.csv", 1800, [(1800, "1")] * 40)
    plain = rate_rows(tmp_path, [path], k=32)["P"]
    assert plain["k"] == "32" and plain["change_exact"] == "640.00"
    capped = rate_rows(tmp_path, [path], k=32, k_cap=True)["P"]
    assert capped["k"] == "17" and capped["change_exact"] == "340.00"  # floor(700 / 40)


def test_formula_has_no_cap_unless_asked(tmp_path):
    path = individual_file(tmp_path / "g.csv", 1500, [(2100, "1")], k=20)
    free = rate_rows(tmp_path, [path], method="formula")["P"]
    capped = rate_rows(tmp_path, [path], method="formula", cap=True)["P"]
    # 600 points below: E = 1/(1 + 10^1.5) = 0.0307 (uncapped) vs 0.0909 (capped at 400).
    assert free["expected"] == "0.0307" and capped["expected"] == "0.0909"


def test_xlsx_games_file_and_spreadsheet_outputs(tmp_path):
    wb = Workbook()
    ws = wb.active
    ws.append(["White", "Black", "Result", "White_Rating", "Black_Rating"])
    ws.append([4100018, 4100050, "1-0", 1800, 1600])  # ids typed as numbers by Excel
    wb.save(tmp_path / "games.xlsx")
    out = tmp_path / "out"
    result = run_cli("rate", str(tmp_path / "games.xlsx"), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    with (out / "rating_list.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["id"] for r in rows] == ["4100018", "4100050"]
    listing = load_workbook(out / "rating_list.xlsx").active
    header = [c.value for c in listing[1]]
    assert header == list(rows[0])  # the spreadsheet's columns are the CSV's
    assert header[:3] == ["id", "name", "rating"]
    assert [listing.cell(2, i).value for i in (1, 3, 9, 10)] == ["4100018", 1800, 5, 1805]
    report = load_workbook(out / "report.xlsx")
    # No names given: each player's sheet is named by the id alone.
    assert report.sheetnames == ["Summary", "4100018", "4100050", "About"]
    assert report["4100018"].cell(2, 1).value is not None
