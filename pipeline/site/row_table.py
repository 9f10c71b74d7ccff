"""A page's table of players held as columns (:class:`RowTable`), and its two renderings made by
columns: a JSON array of objects (:func:`json_array`) and HTML text cells (:func:`html_text`).

A list month holds every player of the list (50,000 rows a page, 72 pages at 24 months of three
kinds): a dict a row, a ``json.dumps`` and a ``markupsafe.escape`` a cell were most of the
static site's time. Here each column is turned into text once, with Arrow's string kernels, and
the rows are joined element-wise; the bytes are those of ``json.dumps(rows, ensure_ascii=False,
separators=(",", ":"))`` and of Jinja's autoescape, cell for cell (``tests/rating_site/
test_row_table.py`` checks both against them on hostile text).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import join_pieces, may_contain, replace_held, string_array
from pipeline.site.addresses import KEPT, KEPT_CLASS, id_token
from pipeline.writers.text.csvtext import block_bytes

# What json's encoder escapes in a string with ensure_ascii=False: the quote, the backslash and
# the control characters. A value holding none of them is its text between quotes.
_JSON_SPECIAL = '[\\\\"\\x00-\\x1f]'
# Jinja's autoescape (markupsafe.escape) of a text: these five, ``&`` first.
HTML_ENTITIES = (("&", "&amp;"), (">", "&gt;"), ("<", "&lt;"), ("'", "&#39;"), ('"', "&#34;"))
# The same as bytes: a column none of whose cells holds one of these needs no escape. ASCII
# bytes in UTF-8 stand only for themselves (arrow_text.may_contain's proof).
_JSON_ESCAPED = bytes(range(0x20)) + b'"\\'
_TOKEN_KEPT = f"^{KEPT_CLASS}*$"  # an id that id_token keeps as it is
_TOKEN_BYTES = KEPT.encode()  # the same characters, as bytes


@dataclass(frozen=True)
class RowTable:
    """Rows of a page's table: ``table``'s columns are the rows' fields in the JSON objects'
    key order (text, integers, booleans; a blank is a null); its length is the number of
    rows."""

    table: pa.Table

    def __len__(self) -> int:
        return self.table.num_rows

    def column(self, name: str) -> pa.Array:
        """One column as one array (the element-wise kernels take arrays of one chunk; Arrow's
        ``combine_chunks`` copies even a single chunk)."""
        column = self.table.column(name)
        return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()


def _json_values(column: pa.Array) -> pa.Array:
    """Each value of ``column`` as JSON text (``null`` for a blank)."""
    kind = column.type
    if pa.types.is_null(kind):
        return pa.array(["null"] * len(column), pa.string())
    if pa.types.is_boolean(kind):
        found = pc.if_else(column, "true", "false")
    elif pa.types.is_integer(kind):
        found = pc.cast(column, pa.string())
    elif pa.types.is_string(kind) or pa.types.is_large_string(kind):
        text = string_array(column)
        found = pc.binary_join_element_wise('"', text, '"', "")
        special = pc.fill_null(pc.match_substring_regex(text, _JSON_SPECIAL), False)
        if pc.any(special).as_py():  # rare (a hostile name): json's own encoder for those
            odd = pc.filter(text, special).to_pylist()
            texts = pa.array([json.dumps(v, ensure_ascii=False) for v in odd], pa.string())
            found = pc.replace_with_mask(found, special, texts)
    else:
        raise TypeError(f"no JSON text for a column of {kind}")
    return pc.fill_null(string_array(found), "null")


def _json_pieces(column: pa.Array) -> list[pa.Array | str]:
    """The pieces of a row's JSON text of ``column``'s value: a text column with no blank and
    nothing json escapes (nearly every column) is its text between literal quotes, which join
    the row's other literals (no quoted copy of the column made apart)."""
    if (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)) and not (
        column.null_count or may_contain(column, _JSON_ESCAPED)
    ):
        return ['"', string_array(column), '"']
    return [_json_values(column)]


def json_array(table: RowTable) -> str:
    """The rows as ``json.dumps`` writes a list of dicts (``separators=(",", ":")``)."""
    return json_array_bytes(table).decode("utf-8")


def json_array_bytes(table: RowTable) -> bytes:
    """:func:`json_array` as UTF-8."""
    return b"".join(json_array_pieces(table))


def json_array_pieces(table: RowTable) -> list[bytes | memoryview]:
    """:func:`json_array` as pieces of UTF-8, to be joined: the rows are joined by Arrow and
    its buffer is one piece, not copied (no Python string a row)."""
    if len(table) == 0:
        return [b"[]"]
    pieces: list[pa.Array | str] = []
    for n, name in enumerate(table.table.column_names):
        pieces.append(("{" if n == 0 else ",") + json.dumps(name) + ":")
        pieces += _json_pieces(table.column(name))
    rows = join_pieces([*pieces, "},"])  # every row with a comma after it: the last one cut
    if rows.null_count:
        raise ValueError("a blank JSON row")
    text = block_bytes(rows)
    return [b"[", text[: len(text) - 1], b"]"]


def html_text(values: pd.Series) -> pa.Array:
    """Text cells as Jinja's autoescape writes them (``markupsafe.escape``): the five
    characters as entities; a blank as ``None``, which is what ``escape(None)`` writes. A
    character no cell holds costs no pass (most columns hold none of the five)."""
    text = string_array(pa.array(values, from_pandas=True))
    return pc.fill_null(replace_held(text, HTML_ENTITIES), "None")


def joined_text(rows: pa.Array) -> str:
    """The cells of a string array with no blank, one after another, as one string (from
    Arrow's buffer: no Python string a cell)."""
    if rows.null_count:
        raise ValueError("a blank where every row has its text")
    return bytes(block_bytes(rows)).decode("utf-8")


def number_text(values: pd.Series) -> pa.Array:
    """Whole numbers as text, a blank as nothing."""
    return pc.fill_null(string_array(pc.cast(pa.array(values, from_pandas=True), pa.int64())), "")


def player_pages(ids: pd.Series) -> pd.Series:
    """:func:`page_array` of a Series of ids, as a Series on its index."""
    tokens = page_array(pa.array(ids, pa.string(), from_pandas=True))
    return pd.Series(tokens.to_pandas().array, index=ids.index)


def _only(text: pa.Array, kept: bytes) -> bool:
    """Whether every byte of ``text``'s character buffer is one of the ASCII ``kept`` (one
    bytes.translate pass deleting them leaves nothing). Exact for the cells: a UTF-8
    character beyond ASCII has only bytes >= 0x80, none kept; bytes of cells sliced away can
    only make it False, which asks each cell."""
    data = text.buffers()[2]
    return data is None or not data.to_pybytes().translate(None, kept)


def page_array(ids: pa.Array | pa.ChunkedArray) -> pa.Array:
    """:func:`addresses.player_page` of each id: an id of the kept characters (the digits of
    every FIDE id) is its own token; any other through :func:`addresses.id_token`."""
    text = string_array(ids)
    tokens = pc.binary_join_element_wise("players/p-", text, ".html", "")
    if not text.null_count and _only(text, _TOKEN_BYTES):
        return tokens  # every id kept as it is (FIDE's: digits), no cell asked apart
    plain = pc.fill_null(pc.match_substring_regex(text, _TOKEN_KEPT), False)
    if not pc.all(plain).as_py():
        odd = pc.filter(text, pc.invert(plain)).to_pylist()
        pages = pa.array([f"players/{id_token(v)}.html" for v in odd], pa.string())
        tokens = pc.replace_with_mask(tokens, pc.invert(plain), pages)
    return tokens
