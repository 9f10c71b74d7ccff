"""A list month's downloads, as bytes: CSV (reads back as a ``--list``), XLSX, and FIDE's TXT
and XML layouts (../shared/fide/RATING_LISTS.md). The CSV, TXT and XLSX are the period run's own
writers; the XML is :func:`fide_xml_bytes` (single-type layout), from the TXT's cells.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.lists.list_columns import LIST_TEXT_COLUMNS
from pipeline.rules.months import fide_month_label
from pipeline.writers.list_text_files import write_list_text_files
from pipeline.writers.table_files import write_list_xlsx
from pipeline.writers.text.fide_txt import fide_txt_cells
from pipeline.writers.text.list_text import list_text_table

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
    if len(text) == 0:
        return b"<playerslist>\n</playerslist>\n"
    cells = fide_txt_cells(text)
    pieces: list[pa.Array | str] = ["<player>"]
    for tag, column in XML_FIELDS:
        pieces += [f"<{tag}>", _escaped(cells[column]), f"</{tag}>"]
    # Arrow's element-wise join: a Python string a cell was most of this file's time.
    line = pc.binary_join_element_wise(*pieces, "</player>\n", "")
    return b"<playerslist>\n" + "".join(line.to_pylist()).encode() + b"</playerslist>\n"


def _escaped(values: pd.Series) -> pa.Array:
    """XML text of ``values``: ``&``, ``<`` and ``>`` as entities (column-wise kernels)."""
    text = pa.array(values.astype(str), pa.string())
    for raw, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")):
        text = pc.replace_substring(text, raw, entity)
    return text


def list_downloads(frame: pd.DataFrame, month: str) -> dict[str, bytes]:
    """Layout -> the bytes of the list ``frame`` (a month's list, its columns
    ``LIST_TEXT_COLUMNS``) for the month ``month``."""
    rows = frame[list(LIST_TEXT_COLUMNS)]
    text = list_text_table(rows)
    with tempfile.TemporaryDirectory(prefix="fiderate-site-") as folder:
        where = Path(folder)
        # The text table made once for all four (the period run's writer makes its own, a
        # block at a time: the same bytes, tests/jobs/test_list_blocks.py).
        write_list_text_files(LIST_TEXT_COLUMNS, [text], where / "l.csv", where / "l.txt",
                              fide_month_label(month))  # fmt: skip
        write_list_xlsx(text, where / "l.xlsx")
        found = {x: (where / f"l.{x}").read_bytes() for x in ("csv", "xlsx", "txt")}
    found["xml"] = fide_xml_bytes(text)
    return found
