"""report.xlsx written a column at a time (issue 35) gives the bytes of writing it cell by cell
(tests/writers/xlsx_cells_reference.py): references, blanks left out, text and numbers typed by
column, and the number formats' styles numbered in the order the cells first use them, across
the summary, the breakdowns and the totals of every player sheet."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.writers.xlsx.workbooks import write_report_xlsx
from tests.writers import xlsx_cells_reference as reference

# Texts that type differently by column: decimals with 0-3 decimals (a number format each, signed
# in the difference columns), whole numbers, blanks, results, formula-like and spaced text.
DECIMAL = st.builds(
    lambda whole, decimals, sign: f"{sign}{whole}" + (f".{'7' * decimals}" if decimals else ""),
    st.integers(0, 3000),
    st.integers(0, 3),
    st.sampled_from(["", "-"]),
)
TEXT = st.sampled_from(["", "=SUM(A1)", " x ", "a&b<c>", "1.10", "0042", "+", "½", "1", "0"])
CELL = st.one_of(DECIMAL, TEXT)
BODY_COLUMNS = ["round", "opponent", "result", "pd", "dev", "k_dev", "name", "cum_score"]
SUMMARY_COLUMNS = [key for _, key in reference.PLAYER_TOTALS if key not in ("id", "name")]


@st.composite
def reports(draw: st.DrawFn) -> tuple[pd.DataFrame, pd.DataFrame]:
    players = draw(st.integers(1, 6))
    ids = [str(1000 + i) for i in range(players)]
    summary = {
        "id": ids,
        "name": [draw(st.sampled_from(["", "Ann", "=Bob", "Ann"])) for _ in ids],
        **{c: [draw(CELL) for _ in ids] for c in SUMMARY_COLUMNS},
    }
    games = draw(st.integers(0, 25))
    body = {
        "player": [draw(st.sampled_from(ids)) for _ in range(games)],
        **{c: [draw(CELL) for _ in range(games)] for c in BODY_COLUMNS},
    }
    return (
        pd.DataFrame(summary, dtype=str),
        pd.DataFrame(body, columns=list(body), dtype=str),
    )


@settings(max_examples=60, deadline=None)
@given(reports(), st.sampled_from(["", "not FIDE"]))
def test_columnar_report_is_the_cell_by_cell_bytes(tables, note):
    summary, games = tables
    columnar, cell_by_cell = io.BytesIO(), io.BytesIO()
    write_report_xlsx(summary, games, columnar, per_player=True, note=note)
    reference.write_report_xlsx(summary, games, cell_by_cell, note=note)
    assert columnar.getvalue() == cell_by_cell.getvalue()


LIST_COLUMNS = ["id", "name", "title", "birth_year", "rating", "flags", "last_played"]
LIST_TEXT = st.sampled_from(["", "2150", "x", "=y", "1.5", " y", "a&b"])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.fixed_dictionaries({c: LIST_TEXT for c in LIST_COLUMNS}), min_size=1, max_size=12),
    # Repeated past MANY_TEXTS: ids and names made a row each (row_texts), not factorized.
    st.sampled_from([1, 40]),
)
def test_every_written_cell_carries_its_reference_and_blanks_are_left_out(rows, repeat):
    """A rating list's sheet (the site writes 72 of them): every written cell carries its
    reference (``r="B7"``: some readers place cells by it alone), a blank cell is not written
    at all, whichever columns around it are blank: the cell-by-cell writer's bytes, and
    openpyxl finds every cell where the table has it, typed as its column types it."""
    import re
    import zipfile

    import openpyxl

    from pipeline.writers.xlsx.cell_types import Number, cell_value

    rows = rows * repeat
    table = pd.DataFrame(rows, columns=LIST_COLUMNS, dtype=str)
    written_bytes, cell_by_cell = reference.rating_list_both_ways(table)
    assert written_bytes == cell_by_cell
    columnar = io.BytesIO(written_bytes)
    xml = zipfile.ZipFile(columnar).read("xl/worksheets/sheet1.xml").decode()
    written = sum(row[c] != "" for row in rows for c in LIST_COLUMNS)
    assert xml.count('<c r="') == len(LIST_COLUMNS) + written
    assert len(re.findall("<c[ />]", xml)) == xml.count('<c r="')  # no <c/>, no <c> without r
    sheet = openpyxl.load_workbook(columnar).active
    assert [c.value for c in sheet[1]] == LIST_COLUMNS
    for i, row in enumerate(rows[:30], start=2):
        for j, column in enumerate(LIST_COLUMNS, start=1):
            want = cell_value(column, row[column])
            if isinstance(want, Number):
                want = float(want.text) if "." in want.text else int(want.text)
            assert sheet.cell(i, j).value == want, (i, column)


@pytest.mark.parametrize("seed", range(3))
def test_a_long_report_is_the_cell_by_cell_bytes(seed):
    """A report of more games than ``MANY_TEXTS``: the opponents' ids (and the summary's ids
    and names) are made a row each and taken in the sheets' order, not the table's: still
    the cell-by-cell writer's bytes."""
    import random

    from pipeline.writers.xlsx.typed_rows import MANY_TEXTS

    rnd = random.Random(seed)
    texts = ["", "=SUM(A1)", " x ", "a&b<c>", "1.10", "0042", "+", "½", "1", "0.5", "-3.25"]
    players = 300
    ids = [str(1000 + i) for i in range(players)]
    summary = pd.DataFrame(
        {
            "id": ids,
            "name": [rnd.choice(["", "Ann", "=Bob", " Cy"]) for _ in ids],
            **{c: [rnd.choice(texts) for _ in ids] for c in SUMMARY_COLUMNS},
        },
        dtype=str,
    )
    games = MANY_TEXTS + 50
    body = {
        "player": [rnd.choice(ids[:20]) for _ in range(games)],
        **{c: [rnd.choice(texts) for _ in range(games)] for c in BODY_COLUMNS},
    }
    body["opponent"] = [rnd.choice([*ids, "", " 7"]) for _ in range(games)]
    games_table = pd.DataFrame(body, dtype=str)
    columnar, cell_by_cell = io.BytesIO(), io.BytesIO()
    write_report_xlsx(summary, games_table, columnar, per_player=True)
    reference.write_report_xlsx(summary, games_table, cell_by_cell)
    assert columnar.getvalue() == cell_by_cell.getvalue()
