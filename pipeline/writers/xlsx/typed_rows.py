"""A table's rows as worksheet XML, built a column at a time.

A report's sheets hold tens of thousands of cells; building each cell's XML in a Python loop was
most of report.xlsx's time (issue 35). Here a column is typed once per distinct text
(:func:`.cell_types.cell_value`: a report's columns hold few distinct values: ratings, K, PD,
results), each distinct value's cell XML is worked out once (its "tail" after ``<c``), taken for
every row, and the rows are joined by Arrow's element-wise string kernels: per row only C code
runs. Ids and names, nearly all distinct, are not factorized: their cells are made a row each
by the same kernels.

The bytes are those of writing the cells one by one (``workbooks.Sheet.append``): no cell
carries a reference, a blank holds its place as ``<c/>`` but in the last column
(:data:`.package.CELL`), and number formats get their style index on first use in row-major
order (:func:`first_uses` gives that order, so a workbook's styles are numbered as if its cells
had been written one by one).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import arrow_text, join_pieces, replace_held, string_array
from pipeline.writers.text.csvtext import block_bytes
from pipeline.writers.xlsx.cell_types import ID_COLUMNS, Number, cell_value, is_text_column
from pipeline.writers.xlsx.package import (
    Book,
    column_letter,
    number_cell_tail,
    string_cell_tail,
)

Cell = str | Number | None  # a value written: text, a number, or None for a blank cell


# Excel column widths: from the header and the first 2,000 values, 6 to 45 characters.
WIDTH_ROWS = 2000
MIN_WIDTH, MAX_WIDTH = 6, 45


class TypedColumn(NamedTuple):
    """A column as written: ``cells`` its distinct values typed, ``codes`` each row's index
    into ``cells``, ``width`` its Excel column width; ``text``: every cell is text or blank
    (:func:`.cell_types.is_text_column`), so no cell needs a look at its type. ``row_texts``:
    instead of ``cells`` and ``codes``, a column of ids or names as it is (Arrow strings, null
    for a blank): nearly every value distinct, so nothing to share by factorizing it."""

    name: str
    cells: list[Cell]
    codes: np.ndarray
    width: int
    text: bool = False
    row_texts: pa.Array | None = None


# Columns whose values are nearly all distinct (a list's ids and names): taken a row each.
DISTINCT_COLUMNS = ID_COLUMNS | {"name"}


def typed_columns(table: pd.DataFrame) -> list[TypedColumn]:
    """Each column of a text table typed (:func:`.cell_types.cell_value`), once per distinct
    text (ids and names of a long table: a row each, ``row_texts``)."""
    typed = []
    for column in table.columns:
        if column in DISTINCT_COLUMNS and len(table) >= MANY_TEXTS:
            texts = string_array(arrow_text(table[column]))
            longest = pc.max(pc.utf8_length(texts.slice(0, WIDTH_ROWS))).as_py() or 0
            width = _fitted(max(len(column), longest))
            blank = pc.equal(texts, "")
            row_texts = pc.if_else(blank, None, texts) if pc.any(blank).as_py() else texts
            typed.append(TypedColumn(column, [], np.arange(0), width, True, row_texts))
            continue
        codes, uniques = pd.factorize(table[column], use_na_sentinel=False)
        texts = uniques.tolist()
        text = is_text_column(column)
        if text:  # a list's ids and names: thousands of distinct texts
            cells: list[Cell] = [None if value == "" else value for value in texts]
        else:
            cells = [cell_value(column, value) for value in texts]
        typed.append(TypedColumn(column, cells, codes, _width(column, texts, codes), text))
    return typed


def _width(column: str, texts: list[str], codes: np.ndarray) -> int:
    """The column's width: its longest text (header included) among the first rows, plus 2
    (only the texts of those rows measured: a list's ids are all distinct)."""
    shown = np.unique(codes[:WIDTH_ROWS]).tolist()
    return _fitted(max([len(column), *(len(texts[i]) for i in shown)]))


def _fitted(longest: int) -> int:
    """The width of a column whose longest text (header included) has ``longest`` characters."""
    return min(max(longest + 2, MIN_WIDTH), MAX_WIDTH)


def _format_ids(column: TypedColumn, formats: dict[str, int]) -> np.ndarray:
    """Per distinct value of ``column``, the index of its number format in ``formats`` (added
    on first sight), -1 for text, blanks and General numbers (which need no style)."""
    if column.text:
        return np.full(len(column.cells), -1, dtype=np.int64)
    ids = [
        formats.setdefault(c.num_format, len(formats))
        if isinstance(c, Number) and c.num_format
        else -1
        for c in column.cells
    ]
    return np.array(ids, dtype=np.int64)


def first_uses(columns: list[TypedColumn], rows: np.ndarray) -> list[tuple[int, int, str]]:
    """(position in ``rows``, column index, number format) of each number format's first cell
    in each column, the rows taken in the order ``rows`` gives, sorted: the order in which
    writing the cells one by one (row by row, left to right) first meets each format."""
    formats: dict[str, int] = {}
    uses: list[tuple[int, int, str]] = []
    for j, column in enumerate(columns):
        ids = _format_ids(column, formats)
        if not (ids >= 0).any():
            continue
        per_row = ids[column.codes[rows]]
        found, first = np.unique(per_row, return_index=True)
        names = list(formats)
        uses.extend(
            (int(at), j, names[f]) for f, at in zip(found.tolist(), first, strict=True) if f >= 0
        )
    return sorted(uses)


def rows_xml(
    book: Book, columns: list[TypedColumn], rows: np.ndarray, numbers: np.ndarray
) -> list[str]:
    """The XML of table rows ``rows`` (positions in the columns), numbered ``numbers`` (the
    sheet's 1-based row numbers). Every number format they use must have its style already
    (:func:`first_uses`), so the styles keep their row-major numbering."""
    return rows_array(book, columns, rows, numbers).to_pylist()


def rows_block(
    book: Book, columns: list[TypedColumn], rows: np.ndarray, numbers: np.ndarray
) -> memoryview:
    """:func:`rows_xml` one after another, as UTF-8: a view of Arrow's buffer (no Python
    string a row, no copy: the sheet's XML is joined from it once), for a sheet that takes
    its rows whole."""
    return block_bytes(rows_array(book, columns, rows, numbers))


def rows_array(
    book: Book, columns: list[TypedColumn], rows: np.ndarray, numbers: np.ndarray
) -> pa.Array:
    """:func:`rows_xml` as an Arrow array of text, a row each."""
    number_text = pa.array(numbers, type=pa.int64()).cast(pa.string())
    pieces: list[pa.Array | str] = ['<row r="', number_text, '">']
    for j, column in enumerate(columns):
        # Each distinct value's tail made once (:func:`_tails`) and taken for every row by
        # Arrow; ids and names (nearly all distinct) made a row each by kernels.
        if column.row_texts is None:
            tails = _tails(book, column.cells, column.text).take(pa.array(column.codes[rows]))
        else:
            tails = _row_tails(book, column.row_texts.take(pa.array(rows)))
        pieces += _cell_pieces(f'<c r="{column_letter(j)}', number_text, tails)
    return join_pieces([*pieces, "</row>"], skip_nulls=True)


def _cell_pieces(prefix: str, number_text: pa.Array, tails: pa.Array) -> list[pa.Array | str]:
    """A column's cells as pieces of its rows' join: the reference's ``prefix``, the row's
    number, ``"`` and the tail; a blank (null tail) has no cell: its prefix and number null
    too, left out of the row's join."""
    if not tails.null_count:
        return [prefix, number_text, '"', tails]
    written = pc.is_valid(tails)
    blanked = pa.scalar(None, pa.string())
    return [
        pc.if_else(written, prefix, blanked),
        pc.if_else(written, number_text, blanked),
        pc.if_else(written, '"', blanked),
        tails,
    ]


def _row_tails(book: Book, texts: pa.Array) -> pa.Array:
    """:func:`_tails` of a column's texts (null: a blank), a row each: by kernels when every
    text is plain (nearly always), else through :func:`_tails`."""
    tails = _plain_tails(texts) if len(texts) >= MANY_TEXTS else None
    return tails if tails is not None else _tails(book, texts.to_pylist(), True)


# A text whose tail is not the plain one (:func:`.package.string_cell_tail`): a first or last
# character that is not printable ASCII (it may be a space: ``xml:space``), a formula's first
# character (the quote prefix), a character XML cannot hold (``text_cells.xml_safe``).
_NOT_PLAIN = "^[^!-~]|[^!-~]$|^[=+@-]|[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x{fffe}\\x{ffff}]"
MANY_TEXTS = 256  # distinct texts in a column from which their tails are made by kernels


def _tails(book: Book, cells: list[Cell], text_only: bool = False) -> pa.Array:
    """:func:`_tail` of each distinct cell of a column (a blank: null). A column of many
    distinct texts (a list's ids and names: a Python call each was most of a 50,000-player
    list's workbook) has its plain texts' tails made by Arrow kernels: escaped as
    ``text_xml`` does (``&``, ``<``, ``>``) between the plain tail's fixed parts.
    ``text_only``: every cell is text or None (a blank: null through the kernels)."""
    if text_only and len(cells) >= MANY_TEXTS:
        tails = _plain_tails(pa.array(cells, type=pa.string()))
        if tails is not None:
            return tails
    texts = [i for i, c in enumerate(cells) if type(c) is str]
    if len(texts) < MANY_TEXTS:
        return pa.array([_tail(book, c) for c in cells], type=pa.string())
    text = pa.array([cells[i] for i in texts], type=pa.string())
    odd = pc.match_substring_regex(text, _NOT_PLAIN)
    made = _escaped_tails(text)
    if len(texts) == len(cells) and not pc.any(odd).as_py():
        return made  # every distinct cell a plain text (a list's ids and names)
    tails = np.empty(len(cells), dtype=object)
    plain = np.zeros(len(cells), dtype=bool)
    keep = ~odd.to_numpy(zero_copy_only=False)
    at = np.array(texts, dtype=np.int64)[keep]
    tails[at] = np.array(made.filter(pa.array(keep)).to_pylist(), dtype=object)
    plain[at] = True
    for i in np.flatnonzero(~plain).tolist():
        tails[i] = _tail(book, cells[i])
    return pa.array(tails, type=pa.string())


def _escaped_tails(text: pa.Array) -> pa.Array:
    """The plain tail of each text (a null: null): escaped as ``text_xml`` does."""
    text = replace_held(text, (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")))
    return pc.binary_join_element_wise(' t="inlineStr"><is><t>', text, "</t></is></c>", "")


def _plain_tails(text: pa.Array) -> pa.Array | None:
    """The tails of texts (a null, a blank: null) when every one is plain, else None."""
    if pc.any(pc.match_substring_regex(text, _NOT_PLAIN)).as_py():
        return None
    return _escaped_tails(text)


def _tail(book: Book, value: Cell) -> str | None:
    """A cell's XML after its reference; None for a blank (no cell written)."""
    if value is None:
        return None
    if isinstance(value, Number):
        style = book.number_format(value.num_format) if value.num_format else 0
        return number_cell_tail(value.text, style)
    return string_cell_tail(value)
