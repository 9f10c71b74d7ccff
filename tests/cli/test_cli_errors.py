"""Bad input: exit 1, every problem named (file, row, column, value, fix), nothing written."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.helpers import write_csv


def test_broken_sample_reports_every_problem_and_writes_nothing(sample, tmp_path):
    out = tmp_path / "out"
    bad = sample / "broken" / "games_bad.csv"
    result = run_cli("rate", str(bad), "--players", str(sample / "players.csv"), "--out", str(out))
    assert result.exit_code == 1
    assert result.stdout == ""
    err = result.stderr
    assert "Traceback" not in err
    expected = [
        ("bad-result", "row 3", "'result'", "'1:1'"),
        ("self-pairing", "row 4", "'black'", "'4100026'"),
        ("unknown-player", "row 5", "'black'", "'9999999'"),
        ("bad-value", "row 6", "'date'", "'2026-11-31'"),
        ("bad-rating", "row 6", "'white_rating'", "'18x0'"),
        ("duplicate-game", "row 7", "'white'", "'4100050'"),
    ]
    for code, row, column, value in expected:
        line = next((ln for ln in err.splitlines() if f"[{code}]" in ln and row in ln), None)
        assert line is not None, (code, err)
        assert str(bad) in line and column in line and value in line
    assert "fix:" in err
    assert not out.exists()


def test_unknown_player_is_reported_after_the_file_parses(sample, tmp_path):
    games = write_csv(tmp_path / "g.csv", ["white", "black", "result"], [["4100018", "123", "1-0"]])
    out = tmp_path / "out"
    result = run_cli(
        "rate", str(games), "--players", str(sample / "players.csv"), "--out", str(out)
    )
    assert result.exit_code == 1
    assert "[unknown-player]" in result.stderr and "'123'" in result.stderr
    assert "row 2" in result.stderr and "column 'black'" in result.stderr
    assert not out.exists()


def test_existing_outputs_are_untouched_by_a_failed_run(sample, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "rating_list.csv").write_text("previous\n")
    result = run_cli(
        "rate",
        str(sample / "broken" / "games_bad.csv"),
        "--players",
        str(sample / "players.csv"),
        "--out",
        str(out),
    )
    assert result.exit_code == 1
    assert [p.name for p in out.iterdir()] == ["rating_list.csv"]
    assert (out / "rating_list.csv").read_text() == "previous\n"


def test_missing_columns_are_named(tmp_path):
    path = write_csv(tmp_path / "g.csv", ["white", "black"], [["1", "2"]])
    result = run_cli("rate", str(path), "--out", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert "[missing-column]" in result.stderr and "result" in result.stderr


def test_problems_of_all_files_are_reported_together(sample, tmp_path):
    a = write_csv(tmp_path / "a.csv", ["white", "black", "result"], [["4100018", "4100050", "2-0"]])
    b = write_csv(tmp_path / "b.csv", ["white", "black", "result"], [["4100018", "4100050", "x"]])
    result = run_cli(
        "rate",
        str(a),
        str(b),
        "--players",
        str(sample / "players.csv"),
        "--out",
        str(tmp_path / "o"),
    )
    assert result.exit_code == 1
    assert "2 problem(s)" in result.stderr
    assert str(a) in result.stderr and str(b) in result.stderr


def test_empty_and_binary_files_are_not_tables(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    junk = tmp_path / "junk.csv"
    junk.write_bytes(bytes(range(256)) * 4)
    for path in (empty, junk):
        result = run_cli("rate", str(path), "--out", str(tmp_path / "o"))
        assert result.exit_code == 1, path
        assert "[not-a-table]" in result.stderr


def test_usage_errors_exit_2(sample, tmp_path):
    assert run_cli("rate", str(sample / "games.csv")).exit_code == 2  # no --out
    result = run_cli(
        "rate", str(sample / "games.csv"), "--out", str(tmp_path), "--rules", "classical"
    )
    assert result.exit_code == 2 and "classical" in result.stderr


def test_bad_period_is_a_clear_error(sample, tmp_path):
    result = run_cli(
        "rate",
        str(sample / "games.csv"),
        "--players",
        str(sample / "players.csv"),
        "--out",
        str(tmp_path / "o"),
        "--period",
        "2026-13",
    )
    # A usage error (exit 2, issue 26), refused before anything is read or written.
    assert result.exit_code == 2
    assert "YYYY-MM" in result.stderr and "month 13" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "o").exists()


def test_ids_stay_text(tmp_path):
    # Ids that look like numbers, with leading zeros or as spreadsheet floats, stay exact text.
    games = write_csv(
        tmp_path / "g.csv",
        ["white", "black", "result", "white_rating", "black_rating"],
        [["0042", "4100018", "1-0", "1800", "1700"]],
    )
    out = tmp_path / "o"
    result = run_cli("rate", str(games), "--out", str(out), "--no-xlsx")
    assert result.exit_code == 0, result.stderr
    lines = (out / "rating_list.csv").read_text().splitlines()
    assert [ln.split(",")[0] for ln in lines[1:]] == ["0042", "4100018"]
    assert [ln.split(",")[2] for ln in lines[1:]] == ["1800", "1700"]


def test_outputs_get_the_ordinary_file_mode(sample, tmp_path):
    import stat

    from pipeline.resources.atomic_files import FILE_MODE

    out = tmp_path / "out"
    result = run_cli(
        "rate",
        str(sample / "games.csv"),
        "--players",
        str(sample / "players.csv"),
        "--out",
        str(out),
        "--no-xlsx",
        "--no-html",
        "--quiet",
    )
    assert result.exit_code == 0, result.stderr
    for path in out.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == FILE_MODE, path.name


def test_a_closed_pipe_ends_the_run_quietly():
    # `fiderate table | head -1`: the reader goes away before fiderate prints. No "internal
    # error" and no traceback on stderr; the exit code says SIGPIPE (128 + 13) as shell tools do.
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline", "table"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the interpreter has even started: every write fails
    with proc.stderr:
        stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141, stderr
    assert stderr == ""


def test_with_json_the_error_is_also_json_on_stdout(sample, tmp_path):
    """A script that asked for --json reads the problems where it reads the summary: the same
    objects as `validate --json` lists, under "problems"; the text stays on stderr."""
    import json

    out = tmp_path / "out"
    bad = sample / "broken" / "games_bad.csv"
    players = sample / "players.csv"
    result = run_cli("rate", bad, "--players", players, "--out", out, "--json")
    assert result.exit_code == 1 and not out.exists()
    answer = json.loads(result.stdout)
    listed = json.loads(run_cli("validate", bad, "--players", players, "--json").stdout)["problems"]
    assert answer == {"error": "the input is not valid.", "problems": listed}
    assert "[bad-result]" in result.stderr
    # A run error (no list of problems) answers in JSON as well.
    db = tmp_path / "history.db"
    db.write_bytes((Path(__file__).parents[1] / "history" / "data" / "ratings_v2.db").read_bytes())
    missing = run_cli("history", "4100018", "--db", db, "--json")
    assert missing.exit_code == 1
    assert json.loads(missing.stdout)["problems"] == []
    assert "history.db" in json.loads(missing.stdout)["error"]
    # Without --json stdout stays empty.
    assert run_cli("rate", bad, "--players", players, "--out", out).stdout == ""
