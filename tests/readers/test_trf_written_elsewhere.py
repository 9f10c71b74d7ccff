"""TRF files as pairing engines and other federations' tools write them (issue 34, items 10 and
12): a file of players before round 1, the legacy half-point bye ``0000 - =``, an empty birth-date
template, an unreadable 042/052 date when ``--period`` is given, results past the ``XXR`` round
count. Read what other tools read; warn where a file contradicts itself."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from pipeline.errors import InputError
from pipeline.readers.events.trf_file import read_trf
from tests.conftest import run_cli
from tests.readers.test_readers_trf import record


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- 10: players, no games ------------------------------------------------------------------


def test_round_zero_file_says_no_games_to_rate(tmp_path):
    # The reproduction: two players, no round cells, as a pairing engine writes before
    # round 1.
    path = tmp_path / "e.trf"
    blank = " " * 64
    path.write_text(
        f"012 E\n001    1      P 1{blank}0.0    1\n001    2      P 2{blank}0.0    2\n",
        encoding="utf-8",
    )
    result = run_cli("validate", path)
    output = result.stdout + result.stderr
    assert result.exit_code == 1, output
    assert "no games to rate" in output and "not-a-table" in output, output
    assert "internal" not in output and "dtype" not in output, output


def test_no_games_is_said_beside_the_files_other_problems(tmp_path):
    lines = [
        "012 Before round 1",
        record(1, "m", "", "Alpha, Anna", "24x0", "GER", "1000001", "1990/01/01", "0.0", []),
        record(2, "w", "", "Beta, Berta", "2100", "GER", "1000002", "1995/01/01", "0.0", []),
    ]
    result = run_cli("validate", _write(tmp_path / "r0.trf", lines), "--json")
    assert result.exit_code == 1, result.output
    problems = json.loads(result.stdout)["problems"]
    found = {(p["code"], p["row"]) for p in problems}
    assert ("bad-rating", 2) in found, problems
    assert any("no games to rate" in p["message"] for p in problems), problems
    assert not any("internal" in p["fix"] or "dtype" in p["message"] for p in problems), problems


def test_rating_a_round_zero_file_writes_nothing(tmp_path):
    lines = [
        "012 Before round 1",
        record(1, "m", "", "Alpha, Anna", "2400", "GER", "1000001", "1990/01/01", "0.0", []),
        record(2, "w", "", "Beta, Berta", "2100", "GER", "1000002", "1995/01/01", "0.0", []),
    ]
    path = _write(tmp_path / "r0.trf", lines)
    result = run_cli("rate", path, "--period", "2026-11", "--out", tmp_path / "out", "-q")
    output = result.stdout + result.stderr
    assert result.exit_code == 1, output
    assert "no games to rate" in output and "internal" not in output, output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_byes_alone_are_no_games(tmp_path):
    lines = [
        "012 Byes only",
        record(
            1, "m", "", "Alpha, Anna", "2400", "GER", "1000001", "1990/01/01", "0.5", ["0000 - H"]
        ),
        record(
            2, "w", "", "Beta, Berta", "2100", "GER", "1000002", "1995/01/01", "1.0", ["0000 - F"]
        ),
    ]
    result = run_cli("validate", _write(tmp_path / "b.trf", lines))
    assert result.exit_code == 1, result.output
    assert "no games to rate" in result.stdout and "internal" not in result.stdout, result.stdout


# --- 12: what other tools read ----------------------------------------------------------------


def _event(tmp_path: Path, cells: dict[int, list[str]], *, head=(), births=None, points=None):
    """A three-player TRF: ``cells`` per starting rank, ``head`` records before the players."""
    names = {1: "Alpha, Anna", 2: "Beta, Berta", 3: "Gamma, Gus"}
    births = births or {}
    points = points or {}
    lines = ["012 Borrowed Open", "042 2026/11/07", "052 2026/11/21", *head]
    for sno, name in names.items():
        birth = births.get(sno, "1990/01/01")
        lines.append(
            record(sno, "m", "", name, "2000", "IRL", f"25000{sno}", birth, points[sno], cells[sno])
        )
    return _write(tmp_path / "e.trf", lines)


LEGACY_BYE = {
    1: ["   2 w 1", "0000 - ="],
    2: ["   1 b 0", "   3 w 1"],
    3: ["0000 - =", "   2 b 0"],
}


def test_legacy_half_point_bye_is_read_as_h(tmp_path):
    path = _event(tmp_path, LEGACY_BYE, points={1: "1.5", 2: "1.0", 3: "0.5"})
    event = read_trf(path)
    byes = event.byes.sort_values("player")
    assert list(byes["code"]) == ["H", "H"] and list(byes["score_h"]) == [50, 50]
    assert list(byes["round"]) == ["2", "1"]
    assert len(event.games) == 2  # the two played games, no game against "0000"
    result = run_cli("validate", path)
    assert result.exit_code == 0, result.output


def test_legacy_bye_needs_no_opponent_and_no_colour(tmp_path):
    # "=" with a colour and no opponent is no bye of any convention: still refused.
    cells = {**LEGACY_BYE, 1: ["   2 w 1", "0000 w ="]}
    with pytest.raises(InputError) as caught:
        read_trf(_event(tmp_path, cells, points={1: "1.5", 2: "1.0", 3: "0.5"}))
    assert any(p.code == "bad-result" and p.row == 4 for p in caught.value.problems)


@pytest.mark.parametrize(
    ("written", "year"),
    [("    .  .  ", None), ("    /  /  ", None), ("1975.  .  ", 1975), ("          ", None)],
)
def test_an_empty_birth_date_template_is_blank(tmp_path, written, year):
    cells = {1: ["   2 w 1"], 2: ["   1 b 0"], 3: ["0000 - H"]}
    path = _event(tmp_path, cells, births={2: written}, points={1: "1.0", 2: "0.0", 3: "0.5"})
    players = read_trf(path).players.players.set_index("sno")
    if year is None:
        assert pd.isna(players.loc[2, "birth_year"])
    else:
        assert players.loc[2, "birth_year"] == year
    assert players.loc[1, "birth_year"] == 1990


def test_a_birth_date_that_is_no_template_is_still_refused(tmp_path):
    cells = {1: ["   2 w 1"], 2: ["   1 b 0"], 3: ["0000 - H"]}
    path = _event(tmp_path, cells, births={2: "  x.  .  "}, points={1: "1.0", 2: "0.0", 3: "0.5"})
    with pytest.raises(InputError) as caught:
        read_trf(path)
    assert [(p.code, p.row) for p in caught.value.problems] == [("bad-value", 5)]


def _with_dates(tmp_path: Path, start: str, end: str) -> Path:
    cells = {1: ["   2 w 1"], 2: ["   1 b 0"], 3: ["0000 - H"]}
    path = _event(tmp_path, cells, points={1: "1.0", 2: "0.0", 3: "0.5"})
    text = path.read_text(encoding="utf-8")
    text = text.replace("042 2026/11/07", f"042 {start}").replace("052 2026/11/21", f"052 {end}")
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("start", "end"), [("soon", "2026/11/21"), ("2026/11/07", "9999/11/21")])
def test_period_gets_past_a_date_it_does_not_need(tmp_path, start, end):
    path = _with_dates(tmp_path, start, end)
    # Without --period the dates choose the period: an unusable one stops the run, as before.
    result = run_cli("rate", path, "--out", tmp_path / "no", "-q")
    assert result.exit_code == 1 and "[bad-value]" in result.output, result.output
    assert not (tmp_path / "no").exists() or not any((tmp_path / "no").iterdir())
    # With --period nothing needs them: rated, and the date is named in a warning.
    result = run_cli("rate", path, "--period", "2026-11", "--out", tmp_path / "out", "-q")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "rating_list.csv").is_file()
    warning = next(line for line in result.stderr.splitlines() if line.startswith("warning:"))
    tag = "042" if start == "soon" else "052"
    assert f"e.trf, line {2 if tag == '042' else 3} ({tag})" in warning, result.stderr
    assert "not used, as --period gives the period" in warning, warning


def test_games_past_the_xxr_round_count_are_rated_with_a_warning(tmp_path):
    cells = {
        1: ["   2 w 1", "   3 b =", "   2 b 1"],
        2: ["   1 b 0", "0000 - H", "   1 w 0"],
        3: ["0000 - H", "   1 w =", "0000 - H"],
    }
    points = {1: "2.5", 2: "0.5", 3: "1.5"}
    path = _event(tmp_path, cells, head=("XXR 2",), points=points)
    event = read_trf(path)
    assert sorted(event.games["round"]) == ["1", "2", "3"]  # round 3 is read
    assert event.info.rounds == 3
    (warning,) = event.info.warnings
    assert "e.trf: XXR (line 4) announces 2 round(s), but games are given up to round 3" in warning
    assert "first at line 5, round 3" in warning
    # validate and rate both show it, and it stops neither.
    checked = run_cli("validate", path)
    assert checked.exit_code == 0 and f"warning: {warning}" in checked.stderr, checked.output
    as_json = json.loads(run_cli("validate", path, "--json").stdout)
    assert as_json["ok"] and as_json["warnings"] == [warning], as_json
    rated = run_cli("rate", path, "--period", "2026-11", "--out", tmp_path / "out", "-q")
    assert rated.exit_code == 0 and f"warning: {warning}" in rated.stderr, rated.output
    games = (tmp_path / "out" / "games.csv").read_text(encoding="utf-8")
    assert games.count("Borrowed Open,3,25000") == 2, games  # both sides of the round-3 game


def test_rounds_within_the_xxr_count_give_no_warning(tmp_path):
    # An event still running (XXR 9, three rounds played) contradicts nothing.
    cells = {1: ["   2 w 1"], 2: ["   1 b 0"], 3: ["0000 - H"]}
    path = _event(tmp_path, cells, head=("XXR 9",), points={1: "1.0", 2: "0.0", 3: "0.5"})
    event = read_trf(path)
    assert event.info.warnings == [] and event.info.rounds == 9
    assert "warning" not in run_cli("validate", path).stderr


def test_a_round_zero_file_shows_its_unknown_record_and_rank_gap(tmp_path):
    # The file as a pairing engine wrote it: a record 101 and starting ranks 1 and 3.
    blank = " " * 64
    path = tmp_path / "e.trf"
    path.write_text(
        f"012 E\n101 x\n001    1      P 1{blank}0.0    1\n001    3      P 2{blank}0.0    2\n",
        encoding="utf-8",
    )
    result = run_cli("validate", path, "--json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert [p["code"] for p in report["problems"]] == ["not-a-table"], report
    unknown, gap = report["warnings"]
    assert "e.trf: line 2 ('101'): no TRF record we know" in unknown, unknown
    assert "starting ranks run to 3 for 2 players: no player has 2" in gap, gap
    plain = run_cli("validate", path)
    assert f"warning: {unknown}" in plain.stderr and f"warning: {gap}" in plain.stderr
    rated = run_cli("rate", path, "--period", "2026-11", "--out", tmp_path / "out")
    assert rated.exit_code == 1 and "no games to rate" in rated.stderr, rated.output
    assert f"warning: {unknown}" in rated.stderr and f"warning: {gap}" in rated.stderr


def test_records_of_other_tools_give_no_warning(tmp_path):
    cells = {1: ["   2 w 1"], 2: ["   1 b 0"], 3: ["0000 - H"]}
    head = (
        "022 Dublin",
        "102 A. Arbiter",
        "142 1",
        "013 Team A    1    2",
        "XXC white1",
        "240 F 1",
    )
    path = _event(tmp_path, cells, head=head, points={1: "1.0", 2: "0.0", 3: "0.5"})
    assert read_trf(path).info.warnings == []
