"""Swiss crosstables and round-robin grids (CSV and real XLSX files), and format detection."""

from __future__ import annotations

import csv

import pytest
from openpyxl import Workbook

from pipeline.errors import FiderateError, InputError
from pipeline.readers import read_event_file
from pipeline.readers.events.crosstable import CELL_BYES, CELL_RESULTS, GAME_CELL
from pipeline.readers.events.crosstable_columns import round_number
from pipeline.readers.formats import detect_format
from tests.conftest import run_cli


def write_csv(path, rows):
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)
    return path


def write_xlsx(path, sheets):
    book = Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


# Three players, two rounds: 1 beats 2 (r1), 2 gets a bye (r2)... see each test.
HEADER = ["No", "Name", "Rtg", "Pts", "R1", "R2"]


@pytest.mark.parametrize(
    "cell, opp, colour, code",
    [
        ("12w1", "12", "w", "1"),
        ("5b½", "5", "b", "="),
        ("5b0.5", "5", "b", "="),
        ("7w=", "7", "w", "="),
        ("3b0", "3", "b", "0"),
        ("8w+", "8", "w", "+"),
        ("8b-", "8", "b", "-"),
        ("12 w 1", "12", "w", "1"),
        ("4s1", "4", "s", "1"),
        ("4b1/2", "4", "b", "="),
    ],
)
def test_cell_spellings(cell, opp, colour, code):
    match = GAME_CELL.match(cell.lower().replace(" ", ""))
    assert match and (match["opp"], match["colour"], CELL_RESULTS[match["res"]]) == (
        opp,
        colour,
        code,
    )


@pytest.mark.parametrize("cell, code", [("-", "Z"), ("bye", "U"), ("+", "F"), ("bye½", "H")])
def test_bye_spellings(cell, code):
    assert GAME_CELL.match(cell) is None and CELL_BYES[cell] == code


@pytest.mark.parametrize(
    "header, number",
    [
        ("1", 1),
        ("r1", 1),
        ("rd1", 1),
        ("rd_1", 1),
        ("1_rd", 1),
        ("runde_3", 3),
        ("round_12", 12),
        ("ronda_2", 2),
        ("name", None),
        ("rtg", None),
        ("1_2", None),
    ],
)
def test_round_headers(header, number):
    assert round_number(header) == number


def test_swiss_crosstable_with_byes_forfeits_and_absence(tmp_path):
    path = write_csv(
        tmp_path / "ct.csv",
        [
            ["SNo", "Name", "Rtg", "FIDE ID", "Pts", "Rd.1", "Rd.2", "Rd.3"],
            ["1", "Ann", "2000", "111", "2.5", "2w1", "3b½", "bye"],
            ["2", "Bob", "1900", "", "1", "1b0", "+", "3w-"],
            ["3", "Cid", "", "333", "1.5", "-", "1w½", "2b+"],
        ],
    )
    event = read_event_file(path)
    games = event.games.sort_values("round")
    assert list(
        games[["round", "white", "black", "result", "played"]].itertuples(index=False, name=None)
    ) == [
        ("1", "111", "ct#2", "1-0", True),
        ("2", "333", "111", "1/2-1/2", True),
        ("3", "ct#2", "333", "-+", False),
    ]
    byes = event.byes.sort_values("round")
    assert list(
        byes[["player", "round", "code", "score_h"]].itertuples(index=False, name=None)
    ) == [
        ("333", "1", "Z", 0),
        ("ct#2", "2", "F", 100),
        ("111", "3", "U", 100),
    ]
    assert event.players.players["rating"].isna().tolist() == [False, False, True]


def test_points_and_result_mismatch(tmp_path):
    path = write_csv(
        tmp_path / "ct.csv",
        [
            HEADER,
            ["1", "Ann", "2000", "2", "2w1", "3b1"],
            ["2", "Bob", "1900", "0", "1b1", ""],  # claims the win Ann also claims
            ["3", "Cid", "1800", "0", "", "1w0"],
        ],
    )
    with pytest.raises(InputError) as exc:
        read_event_file(path)
    problems = {p.code: p for p in exc.value.problems}
    assert problems["result-mismatch"].row == 2 and "line 3" in problems["result-mismatch"].message
    assert problems["points-mismatch"].row == 3 and problems["points-mismatch"].value == "0"


def test_column_override_and_unknown_header(tmp_path):
    rows = [
        ["Start", "Spieler", "Wertung", "A", "B"],
        ["1", "Ann", "2000", "2w1", ""],
        ["2", "Bob", "1900", "1b0", ""],
    ]
    path = write_csv(tmp_path / "ct.csv", rows)
    with pytest.raises(InputError) as exc:
        read_event_file(path, input_format="crosstable")
    assert {p.code for p in exc.value.problems} == {"missing-column"}
    event = read_event_file(
        path, columns=["Start=number", "Spieler=name", "Wertung=rating", "A=round", "B=round"]
    )
    assert len(event.games) == 1 and event.players.players["rating"].tolist() == [2000, 1900]
    with pytest.raises(FiderateError):
        read_event_file(path, columns=["Start=nummer"])


def test_xlsx_with_title_rows_and_several_sheets(tmp_path):
    path = write_xlsx(
        tmp_path / "ct.xlsx",
        {
            "Notes": [["nothing to see"], ["here"]],
            "Kreuztabelle": [
                ["Autumn Open - Kreuztabelle"],
                [],
                ["Nr.", "Teilnehmer", "Elo", "Runde 1", "Punkte"],
                [1, "Ann", 2000, "2w1", 1],
                [2, "Bob", 1900, "1b0", 0],
            ],
        },
    )
    event = read_event_file(path)
    assert event.games["result"].tolist() == ["1-0"]
    assert event.games["line"].tolist() == [4]  # the row number as Excel shows it
    event = read_event_file(path, sheet="Kreuztabelle")
    assert len(event.games) == 1
    with pytest.raises(InputError):
        read_event_file(path, sheet="Notes")


def test_round_robin_grid_double(tmp_path):
    path = write_csv(
        tmp_path / "rr.csv",
        [
            ["No", "Name", "Rating", "1", "2", "3", "Pts"],
            ["1", "Ann", "2000", "x", "1½", "11", "3.5"],
            ["2", "Bob", "1900", "0½", "*", "½ ½", "1.5"],
            ["3", "Cid", "1800", "00", "½½", "", "1"],
        ],
    )
    event = read_event_file(path)
    games = event.games
    assert len(games) == 6 and set(games["round"]) == {""}
    ann_bob = games[(games["white"] == "rr#1") & (games["black"] == "rr#2")]["result"]
    assert sorted(ann_bob) == ["1-0", "1/2-1/2"]


def test_grid_mismatch(tmp_path):
    path = write_csv(
        tmp_path / "rr.csv",
        [
            ["No", "Name", "Rating", "1", "2"],
            ["1", "Ann", "2000", "x", "1"],
            ["2", "Bob", "1900", "1", "x"],
        ],
    )
    with pytest.raises(InputError) as exc:
        read_event_file(path, input_format="grid")
    assert [p.code for p in exc.value.problems] == ["result-mismatch"]


def test_detection_by_content_and_forcing(tmp_path, sample):
    trf_as_txt = tmp_path / "export.txt"
    trf_as_txt.write_bytes((sample / "event.trf").read_bytes())
    assert detect_format(trf_as_txt) == "trf"
    assert detect_format(sample / "crosstable.csv") == "table"
    assert len(read_event_file(trf_as_txt).games) == 25
    # Forcing the wrong format is refused with a clear problem, not a crash.
    with pytest.raises(InputError) as exc:
        read_event_file(sample / "games.csv", input_format="crosstable")
    assert exc.value.problems[0].code == "missing-column"
    with pytest.raises(InputError) as exc:
        read_event_file(sample / "crosstable.csv", input_format="trf")
    assert exc.value.problems[0].code == "not-a-table"


def test_broken_samples_fail_with_their_codes(sample):
    with pytest.raises(InputError) as exc:
        read_event_file(sample / "broken" / "crosstable-points.csv")
    assert {p.code for p in exc.value.problems} == {
        "bad-result",
        "points-mismatch",
        "result-mismatch",
    }
    with pytest.raises(InputError) as exc:
        read_event_file(sample / "broken" / "result-mismatch.trf")
    assert {p.code for p in exc.value.problems} == {"result-mismatch", "points-mismatch"}


def test_rate_options_reach_the_readers(tmp_path):
    """--column, --input-format and --sheet on `fiderate rate` (CLI, real XLSX)."""
    path = write_xlsx(
        tmp_path / "ct.xlsx",
        {
            "Other": [
                ["Start", "Spieler", "Wertung", "A"],
                [1, "Ann", 1900, "2w1"],
                [2, "Bob", 1700, "1b0"],
            ],
            "Wanted": [
                ["Start", "Spieler", "Wertung", "A"],
                [1, "Ann", 2000, "2w1"],
                [2, "Bob", 1800, "1b0"],
            ],
        },
    )
    args = [
        "rate",
        str(path),
        "--out",
        str(tmp_path / "o"),
        "--no-xlsx",
        "-q",
        "--period",
        "2026-11",
    ]
    result = run_cli(*args)
    assert result.exit_code == 1 and "[missing-column]" in result.stderr
    columns = [
        "--column",
        "Start=number",
        "--column",
        "Spieler=name",
        "--column",
        "Wertung=rating",
        "--column",
        "A=round",
    ]
    result = run_cli(*args, *columns, "--sheet", "Wanted", "--input-format", "crosstable")
    assert result.exit_code == 0, result.stderr
    rows = (tmp_path / "o" / "rating_list.csv").read_text(encoding="utf-8").splitlines()
    # 2000 beats 1800 (PD 0.76 at K 20): +4.8 -> +5; the sheet "Other" (1900/1700) was not read.
    assert rows[1].startswith("ct#1,Ann,2000,20,1,1.0,0.76,4.80,5,2005")
    result = run_cli(*args, "--input-format", "nonsense")
    assert result.exit_code == 2
