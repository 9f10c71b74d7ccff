"""CSV as people save it (encodings, separators, decimal commas, quotes) and multi-sheet XLSX.

Every dialect file is written here from the same rows and must read back equal to the plain UTF-8
comma-separated version.
"""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.errors import InputError
from pipeline.readers import read_event_file, read_players
from pipeline.readers.tables.cells import integer_text
from tests.conftest import rate_sample, run_cli

GAMES = [
    ["event", "round", "white", "black", "result", "white_rating"],
    ["Schach-Open München", "1", "4100018", "4100050", "1-0", "2712"],
    ["Schach-Open München", "1", "4100034", "4100107", "½-½", ""],
    ["Café; Échecs", "2", "4100050", "4100018", "0-1", "1650"],
]


def write(path, rows, sep=",", encoding="utf-8", newline="\n", quote_all=False):
    def cell(value):
        if quote_all or sep in value or '"' in value:
            return '"' + value.replace('"', '""') + '"'
        return value

    text = newline.join(sep.join(cell(v) for v in row) for row in rows) + newline
    path.write_bytes(text.encode(encoding))
    return path


def games_frame(path):
    return read_event_file(path).games.drop(columns=["source"])


@pytest.mark.parametrize(
    "sep, encoding, newline, quote_all",
    [
        (",", "utf-8-sig", "\r\n", False),  # Excel "CSV UTF-8"
        (";", "cp1252", "\r\n", False),  # European Excel "CSV"
        (";", "latin-1", "\n", True),
        ("\t", "utf-16", "\r\n", False),  # Excel "Unicode text"
        ("\t", "utf-8", "\n", False),
    ],
)
def test_games_dialects_read_equal(tmp_path, sep, encoding, newline, quote_all):
    reference = games_frame(write(tmp_path / "ref.csv", GAMES))
    rows = GAMES
    if encoding in ("cp1252", "latin-1"):  # no ½ in Latin-1: the spelling Excel users type
        rows = [[v.replace("½-½", "0,5-0,5") for v in row] for row in GAMES]
    other = games_frame(write(tmp_path / "d.csv", rows, sep, encoding, newline, quote_all))
    pd.testing.assert_frame_equal(other, reference)


def test_decimal_comma_individual_file(tmp_path):
    plain = [
        ["player", "rating", "opponent_rating", "result", "k"],
        ["4100018", "2712", "1650", "1", "10"],
        ["4100018", "2712", "2205", "0.5", "10"],
        ["4100018", "2712", "1987", "0", "10"],
    ]
    european = [
        ["player", "rating", "opponent_rating", "result", "k"],
        ["4100018", "2.712", "1.650", "1", "10"],
        ["4100018", "2712,0", "2.205", "0,5", "10,0"],
        ["4100018", "2.712", "1987", "0", "10"],
    ]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()  # same file name: the event defaults to it
    a = read_event_file(write(tmp_path / "a" / "f.csv", plain)).sides.drop(columns=["source"])
    b = read_event_file(write(tmp_path / "b" / "f.csv", european, ";", "cp1252")).sides.drop(
        columns=["source"]
    )
    pd.testing.assert_frame_equal(b, a)
    assert list(b["opponent_rating"]) == [1650, 2205, 1987]


def test_players_cp1252_semicolon_with_thousands(tmp_path):
    rows = [
        ["id", "name", "rating", "birth_year"],
        ["4100040", "Müller, Jürgen", "1.800", "1970"],
        ["4100041", "Øster, Åse", "", ""],
    ]
    utf = [
        ["id", "name", "rating", "birth_year"],
        ["4100040", "Müller, Jürgen", "1800", "1970"],
        ["4100041", "Øster, Åse", "", ""],
    ]
    a = read_players(write(tmp_path / "a.csv", utf)).players
    b = read_players(write(tmp_path / "b.csv", rows, ";", "cp1252", "\r\n")).players
    pd.testing.assert_frame_equal(b, a)


def test_a_fraction_in_a_rating_is_an_error_not_rounded(tmp_path):
    rows = [["id", "name", "rating"], ["1", "A", "1650.5"], ["2", "B", "1,650.0"]]
    with pytest.raises(InputError) as info:
        read_players(write(tmp_path / "p.csv", rows))
    assert [(p.code, p.row, p.value) for p in info.value.problems] == [("bad-rating", 2, "1650.5")]


@given(st.integers(min_value=0, max_value=3500), st.sampled_from(["plain", "float", "group"]))
def test_integer_spellings_round_trip(number, style):
    """Any spreadsheet spelling of a whole number reads back as that number, in either locale."""
    point = {"plain": f"{number}", "float": f"{number}.0", "group": f"{number:,}"}[style]
    european = f"{number:,}".replace(",", ".")
    comma = {"plain": f"{number}", "float": f"{number},0", "group": european}[style]
    assert integer_text(pd.Series([point], dtype=str), ".").iloc[0] == str(number)
    assert integer_text(pd.Series([comma], dtype=str), ",").iloc[0] == str(number)


def test_undecodable_bytes_are_bad_encoding_with_the_line(tmp_path):
    path = tmp_path / "g.csv"
    path.write_bytes(b"white,black,result\n1,2,1-0\n3,4,\x81\x90\n")
    with pytest.raises(InputError) as info:
        read_event_file(path)
    (problem,) = info.value.problems
    assert (problem.code, problem.row) == ("bad-encoding", 3)


def workbook(path, sheets):
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    for title, rows in sheets:
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


NOTES = [["Autumn Open 2026 - results"], ["exported by hand"]]


def test_xlsx_sheet_found_by_header_and_by_option(tmp_path, sample):
    titled = [["Autumn Open 2026"], [], *GAMES]  # a title row above the header
    found = read_event_file(
        workbook(tmp_path / "titled.xlsx", [("Notes", NOTES), ("Games", titled)])
    )
    reference = games_frame(write(tmp_path / "ref.csv", GAMES))
    found = found.games.drop(columns=["source"])
    pd.testing.assert_frame_equal(found.drop(columns=["line"]), reference.drop(columns=["line"]))
    assert list(found["line"]) == [4, 5, 6]  # rows as Excel numbers them
    book = workbook(
        tmp_path / "event.xlsx", [("Notes", NOTES), ("Games", titled), ("Old", GAMES[:2])]
    )
    by_name = read_event_file(book, sheet="Old").games
    assert len(by_name) == 1
    by_number = read_event_file(book, sheet="3").games
    assert len(by_number) == 1
    with pytest.raises(InputError) as info:
        read_event_file(book, sheet="Missing")
    assert info.value.problems[0].code == "not-a-table"


def test_sheet_option_on_rate_and_validate(tmp_path, sample):
    games = pd.read_csv(sample / "games.csv", dtype=str, keep_default_na=False)
    rows = [list(games.columns), *games.to_numpy().tolist()]
    book = workbook(tmp_path / "event.xlsx", [("Round 1 only", rows[:6]), ("All", rows)])
    ok = run_cli("validate", str(book), "--sheet", "All", "--players", str(sample / "players.csv"))
    assert ok.exit_code == 0, ok.output
    out = tmp_path / "out"
    rated = run_cli(
        "rate",
        str(book),
        "--sheet",
        "All",
        "--players",
        str(sample / "players.csv"),
        "--period",
        "2026-11",
        "--out",
        str(out),
        "-q",
        "--no-html",
        "--no-xlsx",
    )
    assert rated.exit_code == 0, rated.output
    reference = tmp_path / "ref"
    rate_sample(reference, "-q", "--no-html", "--no-xlsx")
    assert (out / "rating_list.csv").read_bytes() == (reference / "rating_list.csv").read_bytes()


def test_players_workbook_with_a_title_row(tmp_path):
    rows = [["Rating list November 2026"], ["id", "name", "rating"], ["4100018", "Kowalski", 2712]]
    book = workbook(tmp_path / "players.xlsx", [("Notes", NOTES), ("List", rows)])
    players = read_players(book).players
    assert list(players["id"]) == ["4100018"]
    assert list(players["rating"]) == [2712]
    assert list(players["line"]) == [3]


@pytest.mark.parametrize(("sep", "shown"), [(",", "','"), (";", "';'"), ("\t", "a tab")])
def test_a_row_longer_than_the_header_is_named_with_its_row_and_fix(tmp_path, sep, shown):
    # A blank line before it: the row is still the file's line, as a person counts it.
    text = sep.join(["white", "black", "result"]) + "\n1" + sep + "2" + sep + "1-0\n\n"
    text += sep.join(["3", "4", "1-0", "x"]) + "\n"
    path = tmp_path / "games.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_event_file(path)
    (problem,) = info.value.problems
    assert (problem.code, problem.file, problem.row) == ("not-a-table", str(path), 4)
    assert problem.message == (
        f"row 4 has 4 fields separated by {shown}, but the header (row 1) names 3 column(s)"
    )
    assert f"give row 4 the header's 3 column(s), or put a field that holds {shown}" in problem.fix
