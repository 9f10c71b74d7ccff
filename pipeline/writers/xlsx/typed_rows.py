"""A table's rows as worksheet XML, built a column at a time.

A report's sheets hold tens of thousands of cells; building each cell's XML in a Python loop was
most of report.xlsx's time (issue 35). Here a column is typed once per distinct text
(:func:`.cell_types.cell_value`: a report's columns hold few distinct values: ratings, K, PD,
results), each distinct value's XML after its reference (the cell's "tail") is worked out once,
taken for every row, and the rows are joined by Arrow's element-wise string kernels
(:func:`rows_array`): per row only C code runs. Ids and names, nearly all distinct, are not
factorized: their cells are made a row each by the same kernels.

The bytes are those of writing the cells one by one (``workbooks.Sheet.append``): every written
cell carries its reference (column letter and row number: some readers place a cell by it
alone), a blank cell (None) is left out, and number formats get their style index on first use
in row-major order (:func:`first_uses` gives that order, so a workbook's styles are numbered as
if its cells had been written one by one).
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
    """:func:`rows_xml` as an Arrow array of text, a row each.

    A row is joined from pieces by Arrow, and the join costs about the same for each piece
    of each row, whatever its length (0.1 ms a piece at 10,000 rows), so a written cell is
    two pieces: the row's number (its text made once a row and shared by the columns; null
    where the cell is blank, so the join leaves it out) and the cell's "run": ``"``, its
    tail, then the next cell's reference up to its row number (``<c r="C``), or ``</row>``
    after the last column. Each distinct value's run is made once and taken (:func:`_runs`);
    a next reference that a run cannot hold is a piece of its own."""
    number_text = pa.array(numbers, type=pa.int64()).cast(pa.string())
    sources = [_source(column, rows) for column in columns]
    written = [_written(column, source) for column, source in zip(columns, sources, strict=True)]
    starts = [f'<c r="{column_letter(j)}' for j in range(len(columns))]
    ends = [*starts[1:], "</row>"]
    pieces: list[pa.Array | str] = ['<row r="', number_text, '">']
    started = False  # the cell's reference start already in the pieces (the previous run's)
    for j, column in enumerate(columns):
        if not started:
            pieces.append(_where_written(starts[j], written[j]))
        pieces.append(_masked(number_text, written[j]))
        following = written[j + 1] if j + 1 < len(columns) else None
        run, started = _runs(book, column, sources[j], ends[j], following)
        pieces.append(run)
    if not started:
        pieces.append("</row>")
    return join_pieces(pieces, skip_nulls=True)


def _source(column: TypedColumn, rows: np.ndarray) -> pa.Array | np.ndarray:
    """The column's values in ``rows``: codes into ``column.cells``, or ids and names as text."""
    if column.row_texts is None:
        return column.codes[rows]
    return column.row_texts.take(pa.array(rows))


def _written(column: TypedColumn, source: pa.Array | np.ndarray) -> pa.BooleanArray | None:
    """Which rows of ``source`` (:func:`_source`) have a cell written; None: all of them."""
    if isinstance(source, pa.Array):
        return pc.is_valid(source) if source.null_count else None
    blank = np.array([cell is None for cell in column.cells], dtype=bool)
    if not blank.any():
        return None
    written = ~blank[source]
    return None if written.all() else pa.array(written)


def _where_written(text: str, written: pa.BooleanArray | None) -> pa.Array | str:
    """``text`` in each row where a cell is written, null elsewhere (the join leaves it out)."""
    if written is None:
        return text
    return pc.if_else(written, text, pa.scalar(None, pa.string()))


def _masked(text: pa.Array, written: pa.BooleanArray | None) -> pa.Array:
    """``text`` made null where no cell is written, without a copy of its characters.

    Proof: a boolean array with no nulls holds its values as a bitmap in buffer 1, bit i for
    row i from its ``offset``; a string array's validity is a bitmap of the same layout in
    buffer 0 (bit set: valid). ``text`` and ``written`` as made here start at offset 0 (a
    cast and ``is_valid``/``pa.array`` make fresh arrays), so ``written``'s values buffer is
    ``text``'s validity where a cell is written."""
    if written is None:
        return text
    assert text.offset == 0 and written.offset == 0 and not text.null_count
    assert not written.null_count
    offsets, data = text.buffers()[1:]
    return pa.StringArray.from_buffers(len(text), offsets, data, written.buffers()[1])


def _runs(
    book: Book,
    column: TypedColumn,
    source: pa.Array | np.ndarray,
    end: str,
    following: pa.BooleanArray | None,
) -> tuple[pa.Array, bool]:
    """The column's cells after the row number (``"`` and the tail; a blank: none), each with
    ``end`` (the next cell's reference start, or ``</row>``) where it follows: in every row
    when the next column's cells are all written (``following`` None), else where they are
    (``following``). Returned with whether ``end`` is in the runs: a column of ids or names
    holds it only when the next column's cells and its own are all written."""
    if isinstance(source, pa.Array):  # ids and names, a row each
        if source.null_count or following is not None:
            return _row_tails(book, source, '"'), False
        return _row_tails(book, source, '"', end), True
    tails = _tails(book, column.cells, column.text)
    ended = pc.binary_join_element_wise('"', tails, end, "", null_handling="emit_null")
    ended = ended.fill_null(end)  # a blank: the next reference alone
    if following is None:
        return ended.take(pa.array(source)), True
    unended = pc.binary_join_element_wise('"', tails, "", null_handling="emit_null")
    both = pa.concat_arrays([unended, ended])
    at = source + len(column.cells) * following.to_numpy(zero_copy_only=False)
    return both.take(pa.array(at)), True


def _row_tails(book: Book, texts: pa.Array, lead: str, trail: str = "") -> pa.Array:
    """:func:`_tails` of a column's texts (null: a blank), a row each, each between ``lead``
    and ``trail``: by kernels when every text is plain (nearly always), else through
    :func:`_tails`."""
    tails = _plain_tails(texts, lead, trail) if len(texts) >= MANY_TEXTS else None
    if tails is not None:
        return tails
    tails = _tails(book, texts.to_pylist(), True)
    return pc.binary_join_element_wise(lead, tails, trail, "", null_handling="emit_null")


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


def _escaped_tails(text: pa.Array, lead: str = "", trail: str = "") -> pa.Array:
    """The plain tail of each text (a null: null), escaped as ``text_xml`` does, between
    ``lead`` and ``trail``."""
    text = replace_held(text, (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")))
    return pc.binary_join_element_wise(
        lead + ' t="inlineStr"><is><t>', text, "</t></is></c>" + trail, ""
    )


def _plain_tails(text: pa.Array, lead: str = "", trail: str = "") -> pa.Array | None:
    """The tails of texts (a null, a blank: null) between ``lead`` and ``trail`` when every
    one is plain, else None."""
    if pc.any(pc.match_substring_regex(text, _NOT_PLAIN)).as_py():
        return None
    return _escaped_tails(text, lead, trail)


def _tail(book: Book, value: Cell) -> str | None:
    """A cell's XML after its reference; None for a blank (no cell written)."""
    if value is None:
        return None
    if isinstance(value, Number):
        style = book.number_format(value.num_format) if value.num_format else 0
        return number_cell_tail(value.text, style)
    return string_cell_tail(value)
