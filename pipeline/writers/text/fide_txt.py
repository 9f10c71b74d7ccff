"""FIDE's fixed-width TXT layout for a single-type list (``standard_rating_list.txt``).

Layout (../shared/fide/RATING_LISTS.md): 136 characters a line, CRLF, one header line whose tokens
start at the field offsets; unrated is written as 0. The layout is data: (header, width, column)
per field. Values are left-aligned in their field and cut to fit, like FIDE's own files.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import STR_DTYPE, arrow_text, str_series
from pipeline.rules import sexes
from pipeline.writers.text.csvtext import ROWS_PER_BLOCK, block_bytes

# (header token, width, column of the text table), left to right from column 0; the rating
# header is the month label. Each field starts where the one before it ends.
SINGLE_TYPE_WIDTHS: list[tuple[str, int, str]] = [
    ("ID Number", 15, "id"),
    ("Name", 61, "name"),
    ("Fed", 4, "federation"),
    ("Sex", 4, "sex"),
    ("Tit", 5, "title"),
    ("WTit", 5, "w_title"),
    ("OTit", 15, "o_title"),
    ("FOA", 4, "foa_title"),
    ("{month}", 6, "rating"),
    ("Gms", 4, "period_games"),
    ("K", 3, "k"),
    ("B-day", 6, "birth_year"),
    ("Flag", 4, "flags"),
]


def _placed(widths: list[tuple[str, int, str]]) -> list[tuple[str, int, int, str]]:
    """(token, start, end, column) of fields laid side by side."""
    ends = list(itertools.accumulate(width for _, width, _ in widths))
    return [
        (token, end - width, end, column)
        for (token, width, column), end in zip(widths, ends, strict=True)
    ]


SINGLE_TYPE_FIELDS = _placed(SINGLE_TYPE_WIDTHS)
LINE_WIDTH = SINGLE_TYPE_FIELDS[-1][2]

WOMEN_TITLES = {"WGM", "WIM", "WFM", "WCM", "WH"}


# Fields of a few distinct values (federations, titles, ratings, K, years, flags): each value is
# cut and padded once and the cells taken by code; the others cell by cell.
FEW_VALUES = {"id": False, "name": False}


def _field(values: pd.Series, width: int, few: bool = True) -> pa.Array | pa.ChunkedArray:
    """Each value cut to ``width - 1`` characters and padded with spaces to ``width`` (Arrow
    kernels over the whole column: no Python string per cell)."""
    text = arrow_text(values.astype(str))
    if few and len(text):
        coded = pc.dictionary_encode(text)
        chunks = coded.chunks if isinstance(coded, pa.ChunkedArray) else [coded]
        return pa.chunked_array([_fit(c.dictionary, width).take(c.indices) for c in chunks])
    return _fit(text, width)


def _fit(text: pa.Array | pa.ChunkedArray, width: int) -> pa.Array | pa.ChunkedArray:
    longest = pc.max(pc.utf8_length(text)).as_py() or 0
    if longest >= width:  # cut only when some value is too long
        text = pc.utf8_slice_codeunits(text, 0, width - 1)
    return pc.utf8_rpad(text, width=width, padding=" ")


def fide_txt_header(month_label: str) -> str:
    header = ""
    for token, start, _end, _ in SINGLE_TYPE_FIELDS:
        header = header.ljust(start) + token.format(month=month_label)
    return header.ljust(LINE_WIDTH)


def fide_txt_body(table: pd.DataFrame) -> pa.Array:
    """One line per player, each ending in CRLF, as one Arrow string array. ``table`` is the
    text table of the list (:func:`pipeline.writers.text.list_text.list_text_table`)."""
    return fide_txt_body_of_cells(fide_txt_cells(table))


def fide_txt_body_of_cells(t: pd.DataFrame) -> pa.Array:
    """:func:`fide_txt_body` of the cells :func:`fide_txt_cells` made (the site's downloads
    make them once for the TXT and the XML)."""
    fields = [
        _field(t[column], end - start, FEW_VALUES.get(column, True))
        for _, start, end, column in SINGLE_TYPE_FIELDS
    ]
    fixed = _fixed_width_lines([_one_array(f) for f in fields])
    if fixed is not None:
        return fixed
    kind = fields[0].type
    # The line end rides on the last field (a pass over one column, not over the lines).
    fields[-1] = pc.binary_join_element_wise(
        fields[-1], pa.scalar("\r\n", kind), pa.scalar("", kind)
    )
    line = pc.binary_join_element_wise(*fields, pa.scalar("", kind))
    return line.combine_chunks() if isinstance(line, pa.ChunkedArray) else line


def _one_array(field: pa.Array | pa.ChunkedArray) -> pa.Array:
    if isinstance(field, pa.ChunkedArray):
        return field.chunk(0) if field.num_chunks == 1 else field.combine_chunks()
    return field


def _cell_bytes(field: pa.Array) -> np.ndarray | None:
    """The bytes of a string array's cells, back to back (no copy; as ``block_bytes``), or
    None when it has nulls."""
    if field.null_count:
        return None
    kind = np.int64 if pa.types.is_large_string(field.type) else np.int32
    offsets = np.frombuffer(field.buffers()[1], dtype=kind)
    start, end = offsets[field.offset], offsets[field.offset + len(field)]
    return np.frombuffer(field.buffers()[2], dtype=np.uint8)[start:end]


def _fixed_width_lines(fields: list[pa.Array]) -> pa.Array | None:
    """The lines (CRLF) when every cell is ASCII: each field's cells are then exactly its width
    in bytes, so the lines are a matrix of bytes with one column block per field, filled by one
    copy per field (joining 13 fields cell by cell took most of the TXT's time). None when some
    cell is not ASCII (or is null): the caller joins the fields.

    Exact: a field's cells are ``width`` characters each (cut, then padded), and a character is
    at least one byte, so a field whose cells hold ``rows x width`` bytes in all has every cell
    of exactly ``width`` one-byte characters; the row-major matrix then holds each line's
    fields in order, which is what the join writes."""
    rows = len(fields[0])
    if rows * (LINE_WIDTH + 2) >= 2**31:  # beyond 32-bit offsets: joined instead
        return None
    out = np.empty((rows, LINE_WIDTH + 2), dtype=np.uint8)
    for (_, start, end, _), field in zip(SINGLE_TYPE_FIELDS, fields, strict=True):
        cells = _cell_bytes(field)
        if cells is None or len(cells) != rows * (end - start):
            return None
        out[:, start:end] = cells.reshape(rows, end - start)
    out[:, LINE_WIDTH:] = np.frombuffer(b"\r\n", dtype=np.uint8)
    step = np.arange(rows + 1, dtype=np.int32) * np.int32(LINE_WIDTH + 2)
    return pa.Array.from_buffers(pa.string(), rows, [None, pa.py_buffer(step), pa.py_buffer(out)])


def fide_txt_cells(table: pd.DataFrame) -> pd.DataFrame:
    """The list's text table as FIDE prints it, a column per field of ``SINGLE_TYPE_FIELDS``:
    titles split into Tit and WTit, sex as F or M, blank numbers as 0 (not yet cut to width).
    The TXT and the XML of a list take the same cells: make them once for both."""
    index = table.index
    cells = {column: table[column] for column in table.columns}
    titles = table["title"].astype(str)
    women = titles.str.upper().isin(WOMEN_TITLES)
    # FIDE prints a women's title in WTit and the open title in Tit.
    cells["title"] = titles.where(~women, "")
    cells["w_title"] = titles.where(women, "")
    cells["o_title"] = cells["foa_title"] = pd.Series("", index=index, dtype=STR_DTYPE)
    sex = table["sex"].astype(str).str.lower()
    known = [sex.isin(sexes.FEMALE), sex.isin(sexes.MALE)]
    cells["sex"] = pd.Series(np.select(known, ["F", "M"], ""), index=index)
    for column in ("rating", "period_games", "k", "birth_year"):
        # A blank is 0: one kernel over the column (pandas' replace was most of this function).
        text = arrow_text(table[column].astype(str))
        cells[column] = str_series(pc.if_else(pc.equal(text, ""), "0", text), index)
    return pd.DataFrame(cells, index=index)


def fide_txt_lines(table: pd.DataFrame, month_label: str) -> list[str]:
    """The header and one line per player (without line ends)."""
    if len(table) == 0:
        return [fide_txt_header(month_label)]
    body = fide_txt_body(table).to_pylist()
    return [fide_txt_header(month_label), *(line[:-2] for line in body)]


def write_fide_txt(table: pd.DataFrame, path: Path, month_label: str) -> None:
    """The header and the lines, CRLF, written from the Arrow lines in blocks."""
    with path.open("wb") as fh:
        fh.write((fide_txt_header(month_label) + "\r\n").encode("utf-8"))
        if len(table) == 0:
            return
        body = fide_txt_body(table)
        for start in range(0, len(body), ROWS_PER_BLOCK):
            fh.write(block_bytes(body.slice(start, ROWS_PER_BLOCK)))
