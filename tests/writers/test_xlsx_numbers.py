"""Numbers are numbers in every workbook (issue 35 item 4): ``fiderate period``'s as
``fiderate rate``'s, the Norms sheet and the player workbooks too.

Every workbook the sample runs write is opened with openpyxl and read generically, sheet by sheet:
a cell whose text reads as a plain number is a number unless its column holds ids or names (ids
stay text), and every number equals the CSV output's number, written exactly (the file's ``<v>``
is the CSV's decimal) and shown with the CSV's decimals. Per-player sheets are named "id name".
"""

from __future__ import annotations

import csv
import re
import shutil
import zipfile
from contextlib import closing
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook

from tests.conftest import SAMPLE, SAMPLE_RATE, run_cli

PERIOD_SAMPLE = SAMPLE / "period"
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")
# Columns whose cells are text whatever they hold: ids (a FIDE id is never a number to sum; an
# opponent's id too, so a player sheet's ids look up the Summary's) and names, which may be digits
# (a newcomer with no name is listed under its id).
ID_COLUMNS = {"id", "player", "opponent", "white", "black"}
NAME_COLUMNS = {"name", "opponent_name", "white_name", "black_name", "event", "source", "item"}
# Labels of the lines under a table (a player sheet's totals) whose value is an id or a name.
TEXT_LABELS = {"player", "name"}


def _run(*args: object) -> None:
    result = run_cli(*args)
    assert result.exit_code == 0, result.stderr


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """The folders of a period run, a rate run (with a player workbook) and a rate run of an
    event with title norms (report.xlsx's Norms sheet)."""
    from tests.norms.test_norms import norm_trf

    root = tmp_path_factory.mktemp("numbers")
    events = root / "events"
    shutil.copytree(PERIOD_SAMPLE / "events", events)
    period = root / "period"
    _run(
        "period",
        "--list",
        PERIOD_SAMPLE / "list_2026-11.csv",
        "--events",
        events,
        "--period",
        "2026-11",
        "--out",
        period,
        "-q",
    )
    rate = root / "rate"
    _run(*SAMPLE_RATE, "--out", rate, "--player", "4100085", "--no-html", "-q")
    norms = root / "norms"
    _run("rate", norm_trf(root / "norm.trf"), "--out", norms, "--no-html", "-q")
    return {"period": period, "rate": rate, "norms": norms}


def _workbooks(runs: dict[str, Path]) -> list[Path]:
    books = sorted(p for folder in runs.values() for p in folder.glob("*.xlsx"))
    assert len(books) == 7  # period, rate, norms: list + report each; rate: a player's too
    return books


def _tables(path: Path) -> list[tuple[str, list[str], list[tuple], list[tuple]]]:
    """Each sheet as (name, header, the table's rows, the rows under it): the table ends at the
    first blank row."""
    with closing(load_workbook(path, read_only=True)) as book:
        sheets = []
        for ws in book.worksheets:
            rows = [tuple(r) for r in ws.iter_rows(values_only=True)]
            header = [str(h) for h in rows[0]]
            blank = next((i for i, r in enumerate(rows) if all(v is None for v in r)), len(rows))
            sheets.append((ws.title, header, rows[1:blank], rows[blank + 1 :]))
    return sheets


def test_every_number_in_every_workbook_is_a_number_and_ids_are_text(runs):
    wrong = []
    checked = 0
    for path in _workbooks(runs):
        for sheet, header, body, under in _tables(path):
            for row in body:
                for column, value in zip(header, row, strict=False):
                    if value is None:
                        continue
                    checked += 1
                    where = f"{path.name} {sheet!r} {column}={value!r}"
                    if column in ID_COLUMNS:
                        if not isinstance(value, str):
                            wrong.append(f"{where}: an id must be text")
                    elif column not in NAME_COLUMNS and isinstance(value, str):
                        if PLAIN_NUMBER.fullmatch(value):
                            wrong.append(f"{where}: a number stored as text")
            for label, value, *_ in (r for r in under if len(r) >= 2):
                if isinstance(value, str) and label not in TEXT_LABELS:
                    if PLAIN_NUMBER.fullmatch(value):
                        wrong.append(f"{path.name} {sheet!r} {label}={value!r}: text")
    assert checked > 1000
    columns = sorted({w.partition("=")[0] for w in wrong})  # one line a sheet and column
    assert not wrong, f"{len(wrong)} cells, e.g. {wrong[0]}, in:\n" + "\n".join(columns)


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _sheet_xml(path: Path, sheet: str) -> tuple[str, list[str]]:
    """A sheet's XML (by its name) and the workbook's sheet names."""
    with zipfile.ZipFile(path) as zf:
        workbook = zf.read("xl/workbook.xml").decode()
        names = re.findall(r'<sheet name="([^"]*)"', workbook)
        return zf.read(f"xl/worksheets/sheet{names.index(sheet) + 1}.xml").decode(), names


def _written_numbers(path: Path, sheet: str) -> dict[str, str]:
    """Cell reference -> the text of its ``<v>``, for the sheet's number cells."""
    xml, _ = _sheet_xml(path, sheet)
    return dict(re.findall(r'<c r="([A-Z]+\d+)"(?: s="\d+")?><v>([^<]*)</v></c>', xml))


def _cells_in(sqref: str) -> set[str]:
    """The cell references of an ``sqref`` ("B2:B11 C4"), single-column ranges as written."""
    cells = set()
    for part in sqref.split():
        first, _, last = part.partition(":")
        letter, top = re.fullmatch(r"([A-Z]+)(\d+)", first).groups()
        bottom = int(re.fullmatch(r"[A-Z]+(\d+)", last or first).group(1))
        cells |= {f"{letter}{row}" for row in range(int(top), bottom + 1)}
    return cells


def test_ids_as_text_are_not_flagged_as_numbers_stored_as_text(runs):
    """Issue 26 #3 and issue 35: ids stay text, and Excel is told so. Every id cell that holds
    digits (a FIDE id) lies in the sheet's ``ignoredErrors numberStoredAsText`` ranges, which
    come after the autofilter, as CT_Worksheet orders them."""
    unflagged, checked = [], 0
    for path in _workbooks(runs):
        with closing(load_workbook(path, read_only=True)) as book:
            sheets = book.sheetnames
        for sheet in sheets:
            xml, _ = _sheet_xml(path, sheet)
            ignored = re.findall(r'<ignoredError sqref="([^"]*)" numberStoredAsText="1"/>', xml)
            covered = set().union(*(_cells_in(ref) for ref in ignored))
            if ignored:
                assert xml.index("</sheetData>") < xml.index("<ignoredErrors>")
                assert xml.endswith("</ignoredErrors></worksheet>")
            digits = re.findall(r'<c r="([A-Z]+)(\d+)" t="inlineStr"><is><t>(\d+)</t>', xml)
            header = dict(re.findall(r'<c r="([A-Z]+)1" s="\d+" t="inlineStr"><is><t>([^<]*)', xml))
            # A player sheet's totals: the id beside the label "player" (column B).
            totals = set(re.findall(r'<c r="A(\d+)" t="inlineStr"><is><t>player</t>', xml))
            for letter, row, text in digits:
                label = header.get(letter, "")
                if label in ID_COLUMNS or (letter == "B" and row in totals):
                    checked += 1
                    if f"{letter}{row}" not in covered:
                        unflagged.append(f"{path.name} {sheet!r} {letter}{row}={text}")
    assert checked > 100
    assert not unflagged, unflagged[:5]


def _decimals(number_format: str) -> int:
    """The decimals a number format shows (its first section): 0.00 -> 2, General -> 0."""
    first = number_format.split(";")[0]
    return len(first.split(".")[1]) if "." in first else 0


# (run, workbook, sheet, CSV file): the sheets that are the CSV outputs' tables.
SAME_TABLES = [
    ("period", "rating_list_2026-12.xlsx", "Rating list", "rating_list_2026-12.csv"),
    ("period", "report_2026-11.xlsx", "All changes", "changes_2026-11.csv"),
    ("period", "report_2026-11.xlsx", "Breakdown", "breakdown_2026-11.csv"),
    ("period", "report_2026-11.xlsx", "First ratings", "first_ratings_2026-11.csv"),
    ("rate", "rating_list.xlsx", "Rating list", "rating_list.csv"),
]


@pytest.mark.parametrize(("run", "book", "sheet", "table"), SAME_TABLES)
def test_numbers_equal_the_csv_outputs_exactly(runs, run, book, sheet, table):
    """Each number is the CSV's number: the same value, the same decimal written in the file
    (no binary-float detour) and shown with the CSV's decimals; each text the CSV's text."""
    from openpyxl.utils import get_column_letter

    path = runs[run] / book
    expected = _csv(runs[run] / table)
    written = _written_numbers(path, sheet)
    with closing(load_workbook(path)) as wb:  # not read-only: number formats are read
        ws = wb[sheet]
        header = [c.value for c in ws[1]]
        assert header == list(expected[0])
        assert ws.max_row == len(expected) + 1
        numbers = 0
        for i, want in enumerate(expected, start=2):
            for j, column in enumerate(header, start=1):
                cell, text = ws.cell(i, j), want[column]
                if text == "":
                    assert cell.value is None, (sheet, column, i)
                elif isinstance(cell.value, str):
                    assert cell.value == text, (sheet, column, i)
                else:
                    numbers += 1
                    ref = f"{get_column_letter(j)}{i}"
                    assert written[ref] == text, (sheet, column, ref)  # the CSV's decimal
                    assert Decimal(str(cell.value)) == Decimal(text), (sheet, column, ref)
                    shown = _decimals(cell.number_format)
                    assert shown == len(text.partition(".")[2]), (sheet, column, ref)
    assert numbers > 0


def test_period_summary_counts_are_numbers(runs):
    with closing(load_workbook(runs["period"] / "report_2026-11.xlsx", read_only=True)) as wb:
        items = dict(list(wb["Summary"].iter_rows(values_only=True))[1:])
    assert items["period"] == "2026-11"
    assert items["players on the new list"] == len(_csv(runs["period"] / "rating_list_2026-12.csv"))
    first = [r for r in _csv(runs["period"] / "first_ratings_2026-11.csv")]
    assert items["first ratings"] == sum(r["published"] == "yes" for r in first)


def _sheet_name(player_id: str, name: str) -> str:
    """The documented name of a player's sheet: "id name", Excel's forbidden characters
    removed, at most 31 characters (unique by a ~2 suffix when two collide)."""
    return re.sub(r"[\[\]:*?/\\]", "", f"{player_id} {name}")[:31].strip()


def test_player_sheets_are_named_id_and_name(runs):
    summary = _csv(runs["rate"] / "rating_list.csv")
    with closing(load_workbook(runs["rate"] / "report.xlsx", read_only=True)) as wb:
        names = wb.sheetnames
        for row in summary:
            ws = wb[_sheet_name(row["id"], row["name"])]
            labels = {r[0]: r[1] for r in ws.iter_rows(values_only=True) if len(r) > 1}
            assert (labels["player"], labels["name"]) == (row["id"], row["name"])
    assert names[0] == "Summary" and names[-1] == "About"
    assert len(names) == len(summary) + 2
    with closing(load_workbook(runs["rate"] / "player-4100085.xlsx", read_only=True)) as wb:
        name = next(r["name"] for r in summary if r["id"] == "4100085")
        assert wb.sheetnames == ["Summary", _sheet_name("4100085", name), "About"]


@given(
    units=st.integers(-(10**12), 10**12),
    decimals=st.integers(0, 3),
    column=st.sampled_from(["pd", "dev", "ra", "sum_dev", "score", "rating"]),
)
def test_a_decimal_is_written_as_its_text_and_shown_with_its_decimals(units, decimals, column):
    """The rule for every number column: the value written is the CSV's text itself, and the
    number a spreadsheet reads from it (the nearest double) shows as that text again with the
    format's decimals; differences show their sign."""
    from pipeline.writers.xlsx.cell_types import SIGNED_COLUMNS, Number, cell_value

    text = f"{Decimal(units).scaleb(-decimals):f}"
    cell = cell_value(column, text)
    assert isinstance(cell, Number) and cell.text == text
    assert _decimals(cell.num_format or "General") == decimals
    assert cell.num_format.startswith("+") == (column in SIGNED_COLUMNS)
    assert f"{float(cell.text):.{decimals}f}" == text


@given(text=st.text(max_size=20), column=st.sampled_from(["pd", "round", "opponent", "id", "k"]))
def test_a_cell_keeps_its_text_whatever_it_is(text, column):
    """Typing never changes a cell's text: it is blank, the text itself, or a number whose
    written value is the text (a side's result excepted: ½ is written as 0.5)."""
    from pipeline.writers.xlsx.cell_types import Number, cell_value

    cell = cell_value(column, text)
    if text == "":
        assert cell is None
    elif isinstance(cell, Number):
        assert cell.text == text and column != "id"
        assert Decimal(text) == Decimal(str(float(text)))  # within Excel's 15 digits
    else:
        assert cell == text


def test_the_period_list_workbook_still_reads_back_as_the_csv(runs):
    """rating_list_N.xlsx is a --list: with birth_year and period_games now numbers it reads
    back as the same list as the CSV, column for column."""
    import pandas as pd

    from pipeline.readers.lists.published_list import read_list

    folder = runs["period"]
    from_csv = read_list(folder / "rating_list_2026-12.csv").players
    from_xlsx = read_list(folder / "rating_list_2026-12.xlsx").players
    pd.testing.assert_frame_equal(from_xlsx.reset_index(drop=True), from_csv.reset_index(drop=True))
