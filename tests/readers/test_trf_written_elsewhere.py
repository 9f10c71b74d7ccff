"""TRF files as pairing engines and other federations' tools write them (issue 34, items 10 and
12): a file of players before round 1, the legacy half-point bye ``0000 - =``, an empty birth-date
template, an unreadable 042/052 date when ``--period`` is given, results past the ``XXR`` round
count. Read what other tools read; warn where a file contradicts itself."""

from __future__ import annotations

import json
from pathlib import Path

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
