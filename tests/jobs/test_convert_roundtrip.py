"""``fiderate convert``: a TRF round trip keeps every record it does not have to change, and a
CSV converted to TRF takes its header records from options (issue 12, item 7)."""

from __future__ import annotations

import re

import pytest
from helpers import write_csv

from pipeline.readers.events.trf_file import read_trf
from tests.conftest import run_cli


def records(path) -> list[str]:
    lines = re.split(r"\r\n|\r|\n", path.read_text(encoding="utf-8", errors="replace"))
    return lines[:-1] if lines and lines[-1] == "" else lines


def convert(*args):
    return run_cli("convert", *map(str, args))


@pytest.mark.parametrize(
    "name", ["open-gros-2010-r4.trf", "karl-mala-2005.trf", "generated-60p-cr-only.trf"]
)
def test_real_trf_round_trip_keeps_every_record(shared_trf, tmp_path, name):
    out = tmp_path / name
    result = convert(shared_trf / name, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert records(out) == records(shared_trf / name)
    if name.startswith("open-gros"):
        assert "XXR 9" in records(out)  # after round 4 of 9: the declared rounds stay


def test_a_rating_the_list_changes_is_the_only_change(shared_trf, tmp_path):
    source = shared_trf / "open-gros-2010-r4.trf"
    # Mirzoev Azer, FIDE ID 13400304, is 2527 on the file; the list in force says 2530.
    players = write_csv(tmp_path / "list.csv", ["id", "name", "rating"], [["13400304", "M", 2530]])
    out = tmp_path / "out.trf"
    result = convert(source, "-o", out, "--players", players)
    assert result.exit_code == 0, result.stderr
    before, after = records(source), records(out)
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert len(changed) == 1
    old, new = changed[0]
    assert old[48:52] == "2527" and new[48:52] == "2530"
    assert old[:48] == new[:48] and old[52:] == new[52:]


def test_csv_to_trf_header_from_options(tmp_path):
    games = write_csv(
        tmp_path / "games.csv",
        ["event", "round", "white", "black", "result"],
        [["Club", "1", "1001", "1002", "1-0"], ["Club", "2", "1002", "1001", "1/2-1/2"]],
    )
    players = write_csv(
        tmp_path / "players.csv",
        ["id", "name", "rating"],
        [["1001", "One, A", 1900], ["1002", "Two, B", 1800]],
    )
    out = tmp_path / "club.trf"
    result = convert(
        games, "-o", out, "--players", players,
        "--name", "Club Championship", "--city", "Leiden", "--federation", "NED",
        "--start", "2026-11-07", "--end", "8 November 2026", "--arbiter", "IA Jan de Vries",
        "--time-control", "90 min + 30 s",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    lines = records(out)
    for record in (
        "012 Club Championship",
        "022 Leiden",
        "032 NED",
        "042 2026/11/07",
        "052 2026/11/08",
        "102 IA Jan de Vries",
        "122 90 min + 30 s",
    ):
        assert record in lines
    tags = [line[:3] for line in lines if line[:3].isdigit() and line[:3] != "001"]
    assert tags == sorted(tags)  # header records in tag order
    event = read_trf(out)
    assert (event.info.name, event.info.start, event.info.end) == (
        "Club Championship",
        "2026-11-07",
        "2026-11-08",
    )


def test_a_bad_date_option_is_refused(tmp_path):
    games = write_csv(
        tmp_path / "games.csv",
        ["event", "round", "white", "black", "result"],
        [["Club", "1", "1001", "1002", "1-0"]],
    )
    result = convert(games, "-o", tmp_path / "x.trf", "--start", "soon")
    assert result.exit_code == 1
    assert "--start 'soon' is not a date" in result.output
    assert not (tmp_path / "x.trf").exists()
