"""The fast CSV path reuses the file's own bytes as UTF-8 only when they are exactly that."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.problem_list import ProblemList
from pipeline.readers.tables import fastcsv
from pipeline.readers.tables.cells import _may_contain, parse_ids
from pipeline.readers.tables.fastcsv import simple_line_breaks, simple_lines, utf8_bytes
from pipeline.readers.tables.raw import RawTable

TEXT = st.text(alphabet=st.sampled_from(list('ab,1\n\r"é€ÿ½ ') + ["\u2028", "日"]), max_size=40)


@settings(max_examples=200, deadline=None)
@given(TEXT, st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16"]))
def test_utf8_bytes_are_the_text_in_utf8_or_none(text, encoding):
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        return
    # What the reader decodes: UTF-16 by its BOM, else UTF-8 (after a BOM), else Windows-1252.
    body = data.removeprefix(b"\xef\xbb\xbf")
    if encoding == "utf-16":
        decoded = data.decode("utf-16")
    else:
        try:
            decoded = body.decode("utf-8")
        except UnicodeDecodeError:
            decoded = body.decode("cp1252")
    found = utf8_bytes(data, decoded)
    assert found is None or found == decoded.encode("utf-8")
    if encoding in ("utf-8", "utf-8-sig"):
        assert found == text.encode("utf-8")  # a UTF-8 file is never encoded again


def _simple_oracle(text: str) -> int | None:
    """``simple_line_breaks`` the plain way, line by line (``str.splitlines``): each line ends
    with "\n" or "\r\n" (the last may end with nothing or "\r") and is not blank; the first does not
    start with white space, and no other starts with a space, a tab or a character whose UTF-8
    lead byte is 0xC2 or 0xE3 (U+0080..U+00BF, U+3000..U+3FFF: over-cautious, by design)."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        content = line.splitlines()[0]
        end = line[len(content) :]
        last = i == len(lines) - 1
        if end not in ("\n", "\r\n") and not (last and end in ("", "\r")):
            return None
        if not content or (
            content[0].isspace() if i == 0 else content[0].encode()[0] in b" \t\xc2\xe3"
        ):
            return None
    return text.count("\n") - text.endswith("\n") if lines else None


LINES = st.text(
    alphabet=st.sampled_from(list("ab,\n\r \t\x0b\x1c\x85\xa0é") + ["\u2028", "\u3000", "日"]),
    max_size=30,
)


@settings(max_examples=400, deadline=None)
@given(LINES)
def test_simple_line_breaks_are_the_lines_of_splitlines(text):
    expected = _simple_oracle(text)
    assert simple_line_breaks(text) == expected
    assert simple_line_breaks(text, text.encode("utf-8")) == expected
    assert simple_lines(text) == (expected is not None)
    scan = fastcsv._SCAN_BYTES
    try:  # slices of a few bytes: line starts and "\r\n" across the slices' edges
        for fastcsv._SCAN_BYTES in (1, 2, 3):
            assert simple_line_breaks(text) == expected
    finally:
        fastcsv._SCAN_BYTES = scan


CELLS = st.lists(st.text(alphabet=st.sampled_from(list("12.a é,")), max_size=4), max_size=8)


@settings(max_examples=200, deadline=None)
@given(CELLS, st.integers(0, 8), st.sampled_from([b".", b","]))
def test_may_contain_misses_no_cell_holding_the_character(cells, start, char):
    """The byte scan may say yes wrongly (bytes of cells sliced away), never no wrongly; and
    parse_ids reads a spreadsheet's "4100018.0" as 4100018 through it."""
    values = pd.Series(cells, dtype=str).iloc[min(start, len(cells)) :]
    if any(char.decode() in cell for cell in values):
        assert _may_contain(values, char)
    frame = pd.DataFrame({"white": ["4100018.0", *cells]}, dtype=str)
    ids = parse_ids(ProblemList(), RawTable(frame, np.arange(2, len(frame) + 2), "t.csv"), "white")
    assert ids.iloc[0] == "4100018"
