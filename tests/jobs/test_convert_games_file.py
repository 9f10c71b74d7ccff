"""convert's way back from a TRF to the organiser's games file (--to csv|xlsx), the TRF's own
line endings kept, the event's dates kept in order, and rate's games.csv read back (issue 26 #2)."""

from __future__ import annotations

from contextlib import closing

import pytest

from tests.conftest import SAMPLE, run_cli

PLAYERS = SAMPLE / "players.csv"


def _rating_list(tmp_path, event, name):
    out = tmp_path / name
    done = run_cli("rate", event, "--players", PLAYERS, "--period", "2026-11", "--out", out, "-q")
    assert done.exit_code == 0, done.stderr
    return (out / "rating_list.csv").read_bytes()


@pytest.mark.parametrize("to", ["csv", "xlsx"])
def test_a_trf_converted_to_a_games_file_rates_the_same(tmp_path, to):
    games = tmp_path / f"event.{to}"
    done = run_cli("convert", SAMPLE / "event.trf", "--to", to, "-o", games, "--players", PLAYERS)
    assert done.exit_code == 0, done.stderr
    assert _rating_list(tmp_path, games, "back") == _rating_list(
        tmp_path, SAMPLE / "event.trf", "t"
    )


def test_the_games_csv_holds_the_games_format_with_names_and_ratings(tmp_path):
    games = tmp_path / "event.csv"
    run_cli("convert", SAMPLE / "event.trf", "--to", "csv", "-o", games, "--players", PLAYERS)
    lines = games.read_text(encoding="utf-8").splitlines()
    assert lines[0] == (
        "event,round,date,white,black,result,white_name,black_name,white_rating,black_rating"
    )
    assert lines[1] == (
        "Autumn Open 2026,1,2026-11-07,4100018,4100050,1-0,"
        '"Kowalski, Adam","Silva, Tiago",2712,1650'
    )
    assert len(lines) == 1 + 25  # every game of the TRF, no bye


def test_xlsx_ids_stay_text_and_ratings_are_numbers(tmp_path):
    from openpyxl import load_workbook

    games = tmp_path / "event.xlsx"
    run_cli("convert", SAMPLE / "event.trf", "--to", "xlsx", "-o", games, "--players", PLAYERS)
    with closing(load_workbook(games, read_only=True)) as book:  # read-only: open until closed
        rows = list(book["Games"].iter_rows(values_only=True))
    assert rows[1][:6] == ("Autumn Open 2026", 1, "2026-11-07", "4100018", "4100050", "1-0")
    assert rows[1][8:] == (2712, 1650)


def test_byes_are_left_out_and_said_so(tmp_path):
    trf = tmp_path / "bye.trf"
    # Round 5 of player 10 (a draw with 6) becomes a half-point bye of both: no game left there.
    text = (SAMPLE / "event.trf").read_text(encoding="utf-8")
    text = text.replace("   6 w =\n", "0000 - H\n").replace("  10 b =\n", "0000 - H\n")
    trf.write_text(text, encoding="utf-8")
    out = tmp_path / "bye.csv"
    done = run_cli("convert", trf, "--to", "csv", "-o", out)
    assert done.exit_code == 0, done.output
    assert "2 bye(s) or absence(s) left out" in done.stderr
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1 + 24


def test_header_options_have_no_place_in_a_games_file(tmp_path):
    out = tmp_path / "event.csv"
    done = run_cli("convert", SAMPLE / "event.trf", "--to", "csv", "-o", out, "--end", "2026-11-21")
    assert done.exit_code == 2 and "--end" in done.stderr
    assert not out.exists()


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_trf_to_trf_keeps_the_line_endings(tmp_path, newline):
    text = (SAMPLE / "event.trf").read_bytes().replace(b"\r\n", b"\n").replace(b"\n", newline)
    source = tmp_path / "in.trf"
    source.write_bytes(text)
    out = tmp_path / "out.trf"
    assert run_cli("convert", source, "-o", out, "--name", "Renamed").exit_code == 0
    lines = text.split(newline)
    renamed = [b"012 Renamed" if line.startswith(b"012 ") else line for line in lines]
    assert out.read_bytes() == newline.join(renamed)


@pytest.mark.parametrize(
    "options, column",
    [
        (["--start", "2026-11-30", "--end", "2026-11-01"], "--end"),
        (["--end", "2026-11-14"], "--end"),  # before rounds 4 and 5
        (["--start", "2026-11-08"], "--start"),  # after round 1
    ],
)
def test_convert_refuses_dates_out_of_order(tmp_path, options, column):
    out = tmp_path / "out" / "event.trf"
    done = run_cli("convert", SAMPLE / "event.trf", "-o", out, *options)
    assert done.exit_code == 1, done.output
    assert "[date-order]" in done.stderr and f"column {column!r}" in done.stderr
    assert not out.parent.exists() or not any(out.parent.iterdir())


def test_convert_takes_dates_in_order(tmp_path):
    out = tmp_path / "event.trf"
    done = run_cli("convert", SAMPLE / "event.trf", "-o", out, "--end", "2026-11-22")
    assert done.exit_code == 0, done.stderr
    assert run_cli("validate", out).exit_code == 0


@pytest.mark.parametrize(
    "old, new, what",
    [
        (b"052 2026/11/21", b"052 2026/11/01", "before it starts"),
        (b"052 2026/11/21", b"052 2026/11/15", "before 1 of its round dates"),
        (b"042 2026/11/07", b"042 2026/11/08", "after 1 of its round dates"),
    ],
)
def test_validate_refuses_a_trf_whose_dates_are_out_of_order(tmp_path, old, new, what):
    trf = tmp_path / "e.trf"
    trf.write_bytes((SAMPLE / "event.trf").read_bytes().replace(old, new))
    for command in (["validate", trf], ["rate", trf, "--out", tmp_path / "out"]):
        done = run_cli(*command)
        assert done.exit_code == 1 and "date-order" in done.output and what in done.output
    assert not (tmp_path / "out").exists()


def test_rates_own_games_csv_reads_back_with_the_same_changes(tmp_path):
    first = tmp_path / "first"
    run_cli("rate", SAMPLE / "games.csv", "--players", PLAYERS, "--out", first, "-q")
    again = tmp_path / "again"
    done = run_cli("rate", first / "games.csv", "--players", PLAYERS, "--out", again, "-q")
    assert done.exit_code == 0, done.stderr
    assert (again / "rating_list.csv").read_bytes() == (first / "rating_list.csv").read_bytes()
