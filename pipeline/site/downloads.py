"""A list month's downloads, as bytes: CSV (reads back as a ``--list``), XLSX, and FIDE's TXT
and XML layouts (../shared/fide/RATING_LISTS.md). The CSV, TXT and XLSX are the period run's own
writers; the XML is :func:`fide_xml_bytes` (single-type layout), from the TXT's cells.
"""

from __future__ import annotations

import io

import pandas as pd
import pyarrow as pa

from pipeline.arrays.arrow_text import arrow_text, join_pieces, replace_held, string_array
from pipeline.lists.list_columns import LIST_TEXT_COLUMNS
from pipeline.rules.months import fide_month_label
from pipeline.writers.list_text_files import csv_blocks, csv_head, fide_txt_head
from pipeline.writers.text.csvtext import block_bytes
from pipeline.writers.text.fide_txt import fide_txt_body_of_cells, fide_txt_cells
from pipeline.writers.text.list_text import list_text_table
from pipeline.writers.xlsx.workbooks import write_rating_list_xlsx

# The single-type XML layout: (tag, column of FIDE's TXT cells), in FIDE's order.
XML_FIELDS = (
    ("fideid", "id"),
    ("name", "name"),
    ("country", "federation"),
    ("sex", "sex"),
    ("title", "title"),
    ("w_title", "w_title"),
    ("o_title", "o_title"),
    ("foa_title", "foa_title"),
    ("rating", "rating"),
    ("games", "period_games"),
    ("k", "k"),
    ("birthday", "birth_year"),
    ("flag", "flags"),
)


def fide_xml_bytes(text: pd.DataFrame) -> bytes:
    """The list's text table in FIDE's XML layout: ``<playerslist>`` of ``<player>``s, no
    declaration, every value escaped (a name is text from a file: ``<``, ``&``)."""
    return fide_xml_of_cells(fide_txt_cells(text))


def fide_xml_of_cells(cells: pd.DataFrame) -> bytes:
    """:func:`fide_xml_bytes` of the cells :func:`fide_txt_cells` made (once for the TXT and
    the XML)."""
    if len(cells) == 0:
        return b"<playerslist>\n</playerslist>\n"
    pieces: list[pa.Array | str] = ["<player>"]
    for tag, column in XML_FIELDS:
        pieces += [f"<{tag}>", _escaped(cells[column]), f"</{tag}>"]
    # Arrow's element-wise join: a Python string a cell was most of this file's time.
    line = join_pieces([*pieces, "</player>\n"])
    if line.null_count:  # no blank cell reaches here (fide_txt_cells): the lines as before
        return b"<playerslist>\n" + "".join(line.to_pylist()).encode() + b"</playerslist>\n"
    return b"".join((b"<playerslist>\n", block_bytes(line), b"</playerslist>\n"))


_XML_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"))


def _escaped(values: pd.Series) -> pa.Array:
    """XML text of ``values``: ``&``, ``<`` and ``>`` as entities (column-wise kernels, each
    only over a column that holds the character: most hold none)."""
    text = string_array(arrow_text(values.astype(str)))
    return replace_held(text, _XML_ESCAPES)


def list_downloads(frame: pd.DataFrame, month: str) -> dict[str, bytes]:
    """Layout -> the bytes of the list ``frame`` (a month's list, its columns
    ``LIST_TEXT_COLUMNS``) for the month ``month``: the period run's writers, in memory."""
    # The text table made once for all four (of the list's columns: no copy of the frame's
    # others taken first), and FIDE's cells once for the TXT and the XML. The period run's
    # writer makes them a block at a time: the same bytes, tests/writers/test_list_blocks.py.
    text = list_text_table(frame)
    cells = fide_txt_cells(text)
    csv = b"".join([csv_head(LIST_TEXT_COLUMNS), *csv_blocks(LIST_TEXT_COLUMNS, text)])
    txt = fide_txt_head(fide_month_label(month)) + bytes(block_bytes(fide_txt_body_of_cells(cells)))
    xlsx = io.BytesIO()
    write_rating_list_xlsx(text, xlsx)
    return {"csv": csv, "xlsx": xlsx.getvalue(), "txt": txt, "xml": fide_xml_of_cells(cells)}
