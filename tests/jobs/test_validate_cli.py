"""`fiderate validate`: the same checks as `rate`, every problem at once, table or JSON."""

from __future__ import annotations

import json
import shutil

import pytest

from pipeline.errors import CODES, JSON_KEYS, InputError
from pipeline.jobs.rate.stages import check_inputs, rate_files
from tests.conftest import run_cli

BROKEN = ["broken/games_broken.csv", "broken/games_unknown_player.csv"]
# What sample_data/broken holds, found by reading the files by eye (row = line in the file).
EXPECTED = {
    ("games_broken.csv", 3, "bad-result"),
    ("games_broken.csv", 4, "self-pairing"),
    ("games_broken.csv", 5, "duplicate-game"),
    ("games_broken.csv", 7, "result-mismatch"),
    ("games_broken.csv", 8, "bad-id"),
    ("games_broken.csv", 9, "bad-rating"),
    ("games_broken.csv", 10, "bad-rating"),
    ("games_unknown_player.csv", 3, "unknown-player"),
}


def test_clean_inputs_exit_0(sample):
    result = run_cli("validate", sample / "games.csv", "--players", sample / "players.csv")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "2 file(s) OK"


def test_broken_sample_lists_every_problem(sample):
    result = run_cli("validate", *(sample / b for b in BROKEN), "--players", sample / "players.csv")
    assert result.exit_code == 1
    assert "internal error" not in result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["file", "row", "column", "value", "code", "problem", "and", "fix"]
    found = {
        (line.split()[0].rsplit("/", 1)[-1], int(line.split()[1]), line.split()[4])
        for line in lines[1:]
    }
    assert found == EXPECTED
    assert "8 problem(s) in 3 file(s)" in result.stderr


def test_json_output_is_an_object_with_a_stable_list_of_problems(sample):
    """One object, as every command's --json prints (issue 26): ok, the files checked, the count
    and the problems, each with the same keys in the same order, then the warnings (issue 34)."""
    result = run_cli(
        "validate", *(sample / b for b in BROKEN), "--players", sample / "players.csv", "--json"
    )
    assert result.exit_code == 1
    answer = json.loads(result.stdout)
    assert list(answer) == ["ok", "files", "problem_count", "problems", "warnings"]
    assert (
        answer["ok"] is False
        and answer["warnings"] == []
        and answer["problem_count"] == len(EXPECTED)
    )
    assert answer["files"] == [str(sample / "players.csv"), *(str(sample / b) for b in BROKEN)]
    problems = answer["problems"]
    assert all(tuple(p) == JSON_KEYS for p in problems)
    assert {(p["file"].rsplit("/", 1)[-1], p["row"], p["code"]) for p in problems} == EXPECTED
    assert all(p["code"] in CODES and p["fix"] for p in problems)
    bad_rating = [p for p in problems if p["code"] == "bad-rating"]
    assert [(p["column"], p["value"]) for p in bad_rating] == [
        ("white_rating", "25OO"),
        ("white_rating", "-1650"),
    ]


def test_json_clean_is_ok_with_no_problems(sample):
    result = run_cli(
        "validate", sample / "games.csv", "--players", sample / "players.csv", "--json"
    )
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "ok": True,
        "files": [str(sample / "players.csv"), str(sample / "games.csv")],
        "problem_count": 0,
        "problems": [],
        "warnings": [],
    }


def test_json_past_the_listed_problems_counts_them_all(sample, tmp_path):
    rows = "".join(f"E,{i},4100018,4100050,{i}:{i}\n" for i in range(1, 251))
    path = tmp_path / "g.csv"
    path.write_text("event,round,white,black,result\n" + rows, encoding="utf-8")
    players = sample / "players.csv"  # both players are on it: one bad-result a row
    answer = json.loads(run_cli("validate", path, "--players", players, "--json").stdout)
    assert answer["ok"] is False and answer["problem_count"] == 250
    assert len(answer["problems"]) == 201
    assert answer["problems"][-1]["code"] == "more-problems"
    assert "50 more" in answer["problems"][-1]["message"]


def test_rate_stops_on_the_same_problems_and_writes_nothing(sample, tmp_path):
    paths = [sample / b for b in BROKEN]
    checked = check_inputs(paths, sample / "players.csv")
    with pytest.raises(InputError) as info:
        rate_files(paths, sample / "players.csv")
    assert sorted(map(repr, info.value.problems)) == sorted(map(repr, checked))

    out = tmp_path / "out"
    result = run_cli("rate", *paths, "--players", sample / "players.csv", "--out", out)
    assert result.exit_code == 1
    assert "internal error" not in result.output
    assert "[result-mismatch]" in result.stderr and "[unknown-player]" in result.stderr
    assert not out.exists()


def test_rate_leaves_an_existing_output_folder_untouched(sample, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "rating_list.csv").write_text("previous run\n")
    result = run_cli(
        "rate",
        sample / "broken" / "games_broken.csv",
        "--players",
        sample / "players.csv",
        "--out",
        out,
    )
    assert result.exit_code == 1
    assert [p.name for p in out.iterdir()] == ["rating_list.csv"]
    assert (out / "rating_list.csv").read_text() == "previous run\n"


def test_unknown_player_is_not_reported_when_the_players_file_is_unreadable(sample, tmp_path):
    players = tmp_path / "players.csv"
    players.write_text("id,name,rating\n4100018,A,abc\n")
    result = run_cli("validate", sample / "games.csv", "--players", players, "--json")
    assert result.exit_code == 1
    codes = {p["code"] for p in json.loads(result.stdout)["problems"]}
    assert codes == {"bad-rating"}


@pytest.mark.parametrize(
    "content, code",
    [
        (b"", "not-a-table"),
        (bytes(range(256)) * 8, "not-a-table"),
        (b"white,black,result\n\x81\x8d\x8f,2,1-0\n", "bad-encoding"),
        (b"name,score\nA,1\n", "missing-column"),
    ],
)
def test_file_level_codes(tmp_path, content, code):
    path = tmp_path / "input.csv"
    path.write_bytes(content)
    result = run_cli("validate", path, "--json")
    assert result.exit_code == 1
    assert [p["code"] for p in json.loads(result.stdout)["problems"]] == [code]


def test_truncated_xlsx_is_not_a_table(tmp_path):
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["white", "black", "result"])
    book.active.append(["1", "2", "1-0"])
    whole = tmp_path / "whole.xlsx"
    book.save(whole)
    cut = tmp_path / "cut.xlsx"
    cut.write_bytes(whole.read_bytes()[: len(whole.read_bytes()) // 2])
    result = run_cli("validate", cut, "--json")
    assert result.exit_code == 1
    assert [p["code"] for p in json.loads(result.stdout)["problems"]] == ["not-a-table"]


def test_players_list_checks_use_the_rules_column(sample, tmp_path):
    """--rules reaches the list reader in validate too: the standard list has no rapid column."""
    single = tmp_path / "standard_rating_list.txt"
    shutil.copy(sample / "players_list_foa.txt", tmp_path / "combined.txt")
    header = (sample / "players_list_foa.txt").read_text().splitlines()[0][:113]
    single.write_text(header + "OCT26 Gms K  B-day Flag\n")
    result = run_cli(
        "validate", sample / "games.csv", "--players", single, "--rules", "rapid", "--json"
    )
    assert result.exit_code == 1
    assert "missing-column" in {p["code"] for p in json.loads(result.stdout)["problems"]}
    ok = run_cli(
        "validate", sample / "games.csv", "--players", tmp_path / "combined.txt", "--rules", "rapid"
    )
    assert ok.exit_code == 0, ok.output


def test_event_formats_are_validated_too(sample):
    """TRF and crosstable checks (from the event readers) reach validate unchanged."""
    result = run_cli(
        "validate",
        sample / "broken" / "result-mismatch.trf",
        sample / "broken" / "crosstable-points.csv",
        "--json",
    )
    assert result.exit_code == 1
    codes = [
        (p["file"].rsplit("/", 1)[-1], p["code"]) for p in json.loads(result.stdout)["problems"]
    ]
    assert ("result-mismatch.trf", "result-mismatch") in codes
    assert ("result-mismatch.trf", "points-mismatch") in codes
    assert ("crosstable-points.csv", "points-mismatch") in codes
    # One at a time: the two hold the same games (together: duplicate-event).
    for event in (sample / "event.trf", sample / "crosstable.csv"):
        clean = run_cli("validate", event)
        assert clean.exit_code == 0, clean.output
