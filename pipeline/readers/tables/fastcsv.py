"""The fast way to read a plain CSV file: Arrow's multithreaded parser, every column as text.

It is taken only when the file is one the careful reader (pandas' C parser in
:mod:`pipeline.readers.tables.tabular`) would read the same way: "\\n" or "\\r\\n" line ends,
no blank lines, no spaces before a quoted field, a header of distinct non-empty names, and every
row as wide as the header (Arrow stops at the first ragged row). Anything else returns None and the
careful reader decides, with its own messages. A test reads files of every such kind both ways.
"""

from __future__ import annotations

import csv
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

# Line breaks for str.splitlines other than "\n" (a "\r" is allowed only inside "\r\n").
_OTHER_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
# The same in UTF-8, by lead byte.
_OTHER_BREAK_BYTES: dict[int, list[bytes]] = {}
for _break in map(str.encode, _OTHER_BREAKS):
    _OTHER_BREAK_BYTES.setdefault(_break[0], []).append(_break)
# First bytes of a line that make it blank or start with white space: "\n", "\r", space, tab,
# and the UTF-8 lead bytes of U+00A0 (0xC2) and U+3000 (0xE3) (over-cautious: then pandas reads).
_LINE_START_SPACE = np.array([10, 13, 32, 9, 0xC2, 0xE3], dtype=np.uint8)
_LINE_START = np.zeros(256, dtype=bool)  # byte -> in _LINE_START_SPACE
_LINE_START[_LINE_START_SPACE] = True
_SCAN_BYTES = 1 << 22  # bytes scanned at a time by ``simple_line_breaks``
_INITIAL_SPACE_QUOTE = '(?:^|[{delim}\\n])[ \\t]+"'


def utf8_bytes(data: bytes, text: str) -> bytes | None:
    """``text`` in UTF-8 without encoding it again, when ``text`` was decoded from the file's
    bytes ``data`` as UTF-8 or Windows-1252 (``tabular``'s reader): the bytes after a BOM.

    Proof: Windows-1252 decodes one byte to one character, so fewer characters than bytes means
    the bytes were read as UTF-8; as many characters as bytes is an ASCII file (then both
    readings give the same text, whose UTF-8 is those bytes) or a Windows-1252 one (None)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16
        return None
    body = data.removeprefix(b"\xef\xbb\xbf")
    return body if len(text) < len(body) or body.isascii() else None


def simple_lines(text: str, encoded: bytes | None = None) -> bool:
    """True when every line of ``text`` is a non-blank line ended by "\n" or "\r\n" (the last
    line may lack its end): then data row k is on line k + 1. ``encoded``: ``text`` in UTF-8
    when the caller has it (the file's own bytes), so it is not encoded again."""
    return simple_line_breaks(text, encoded) is not None


def simple_line_breaks(text: str, encoded: bytes | None = None) -> int | None:
    """The number of "\n" before the last line of ``text`` when its lines are simple
    (``simple_lines``), else None. Scanned as UTF-8 bytes, without copying them: a character
    is in ``text`` exactly when its UTF-8 bytes are in the bytes (UTF-8 is self-synchronizing),
    and "\n", "\r" and ASCII white space are single bytes no other character's bytes hold."""
    data = text.encode("utf-8") if encoded is None else encoded
    raw = np.frombuffer(data, dtype=np.uint8)
    end = len(raw) - (len(raw) > 0 and raw[-1] == 10)
    end -= end > 0 and raw[end - 1] == 13
    if not end or text[0].isspace() or raw[end - 1] in (10, 13) or _other_breaks(data):
        return None
    body = raw[:end]
    carriage = b"\r" in data
    newlines = 0
    # Slice by slice: the masks and positions of a slice stay in the cache and their memory is
    # reused, where masks of the whole file would be fresh pages (50 MB for 1 M games).
    for start in range(0, end, _SCAN_BYTES):
        part = body[start : start + _SCAN_BYTES]
        after = np.flatnonzero(part == 10) + (start + 1)  # the body does not end with "\n"
        # A blank line, or a line that starts with white space (maybe whitespace-only).
        if _LINE_START[body[after]].any():
            return None
        newlines += len(after)
        # Every "\r" must be the start of a "\r\n" (the body does not end with "\r").
        if carriage and not (body[np.flatnonzero(part == 13) + (start + 1)] == 10).all():
            return None
    return newlines


def _other_breaks(data: bytes) -> bool:
    """Whether the UTF-8 ``data`` holds a line break of ``str.splitlines`` other than "\n" and
    "\r": one-byte searches first, the slower searches of longer ones only when their lead
    byte is there at all."""
    return any(
        bytes([lead]) in data and any(b in data for b in breaks)
        for lead, breaks in _OTHER_BREAK_BYTES.items()
    )


def read_plain_csv(
    text: str, delimiter: str, normalize, simple: bool | None = None, encoded: bytes | None = None
) -> pd.DataFrame | None:  # type: ignore[no-untyped-def]
    """The table of a plain CSV file (all text, columns named by ``normalize``), or None.
    ``simple``: ``simple_lines(text)`` when the caller has it already (a pass over the file);
    ``encoded``: ``text`` in UTF-8 when the caller has it (see ``utf8_bytes``)."""
    if not (simple_lines(text) if simple is None else simple):
        return None
    quoted = '"' in text
    if quoted and re.search(_INITIAL_SPACE_QUOTE.format(delim=re.escape(delimiter)), text):
        return None
    line_end = text.find("\n")  # the header line, without splitting off (copying) the rest
    first_line = (text if line_end < 0 else text[:line_end]).rstrip("\r")
    header = next(csv.reader([first_line], delimiter=delimiter, skipinitialspace=True))
    if any(not h.strip() for h in header) or len({normalize(h) for h in header}) != len(header):
        return None
    try:
        table = pacsv.read_csv(
            pa.py_buffer(text.encode("utf-8") if encoded is None else encoded),
            read_options=pacsv.ReadOptions(column_names=header, skip_rows=1),
            parse_options=pacsv.ParseOptions(
                delimiter=delimiter, newlines_in_values=quoted, ignore_empty_lines=False
            ),
            convert_options=pacsv.ConvertOptions(
                # large_string, pandas' own type for str: no cast of every column's offsets
                # (100 MB of fresh memory for 1 M games) when the table becomes a frame.
                column_types={h: pa.large_string() for h in header},
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except (pa.ArrowInvalid, UnicodeError):
        return None
    return strip_arrow(table).to_pandas()


def may_hold_space(chunks: list[pa.Array]) -> bool:
    """False only when no cell can hold white space: no byte 9..32 (ASCII white space and
    control characters), and no 0xC2/0xE1..0xE3 (the UTF-8 lead bytes of Unicode spaces)."""
    for chunk in chunks:
        data = chunk.buffers()[2]
        if data is None:
            continue
        raw = np.frombuffer(data, dtype=np.uint8)
        if (
            ((raw - np.uint8(9)) <= 23).any()
            or ((raw - np.uint8(0xE1)) <= 2).any()
            or (raw == 0xC2).any()
        ):
            return True
    return False


def strip_arrow(table: pa.Table) -> pa.Table:
    """Every text cell trimmed of white space, as ``tabular.strip_cells`` trims a frame (pandas'
    ``str.strip`` of Arrow strings is this very kernel), before the table becomes a frame;
    columns without white space are left as they are."""
    import pyarrow.compute as pc

    for i, column in enumerate(table.columns):
        if may_hold_space(column.chunks):
            table = table.set_column(i, table.field(i), pc.utf8_trim_whitespace(column))
    return table
