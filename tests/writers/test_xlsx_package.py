"""The small XLSX writer (issue 13) read back with openpyxl: text kept as text whatever it holds
(XML specials, spaces at the ends, formula- and number-like strings, control characters), numbers
as numbers with their formats, widths, frozen header, autofilter, sheet names with quotes, and
the same bytes for the same data."""

from __future__ import annotations

import warnings

import openpyxl
import pandas as pd

from pipeline.writers.xlsx.cell_types import Number
from pipeline.writers.xlsx.workbooks import Book, new_sheet, write_table

TRICKY = [
    "<b>&amp;</b>",
    "  two spaces",
    "trailing ",
    "=SUM(A1:A2)",
    "0042",
    "http://x.y",
    "tab\there",
    "bell\x07",
    "Ünïcödé 漢字",
    "'quoted'",
    "",
]


def build(path):
    book = Book(path)
    table = pd.DataFrame(
        {
            "name": pd.Series(TRICKY, dtype=str),
            "rating": pd.Series(
                [str(1500 + i) if i % 3 else "" for i in range(len(TRICKY))], dtype=str
            ),
            "pd": pd.Series([f"0.{i:02d}" for i in range(len(TRICKY))], dtype=str),
        }
    )
    sheet = new_sheet(book, "Summary")
    write_table(sheet, table)
    sheet.append([])
    sheet.append(["total", Number("1.50", "+0.00;-0.00;0.00"), None, Number("7", "")])
    new_sheet(book, "O'Brien ~2")
    book.save()


def test_read_back_with_openpyxl(tmp_path):
    path = tmp_path / "book.xlsx"
    build(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Summary", "O'Brien ~2"]
    ws = wb["Summary"]
    rows = [r[:3] for r in ws.iter_rows(values_only=True)]
    assert rows[0] == ("name", "rating", "pd")
    names = [r[0] for r in rows[1 : len(TRICKY) + 1]]
    # An empty text cell is not written (blank), as before; a character XML cannot hold shows
    # as U+FFFD, and text that starts like a formula carries the quote prefix (text_cells).
    assert names == [t if t else None for t in TRICKY[:7]] + ["bell\ufffd", *TRICKY[8:10], None]
    quoted = {c.value: c.quotePrefix for c in ws["A"][1 : len(TRICKY) + 1] if c.value}
    assert quoted["=SUM(A1:A2)"] and not quoted["0042"] and not quoted["<b>&amp;</b>"]
    assert [r[1] for r in rows[1:4]] == [None, 1501, 1502]
    assert isinstance(rows[2][1], int) and rows[2][2] == 0.01
    assert ws.cell(2, 3).number_format == "0.00"
    assert ws.cell(1, 1).font.b
    assert ws.freeze_panes == "A2"
    assert ws.auto_filter.ref == f"A1:C{len(TRICKY) + 1}"
    assert ws.column_dimensions["A"].width >= len("  two spaces")
    total = next(ws.iter_rows(min_row=len(TRICKY) + 3, values_only=True))
    assert total == ("total", 1.5, None, 7)
    assert ws.cell(len(TRICKY) + 3, 2).number_format == "+0.00;-0.00;0.00"


def test_same_data_same_bytes(tmp_path):
    build(tmp_path / "a.xlsx")
    build(tmp_path / "b.xlsx")
    assert (tmp_path / "a.xlsx").read_bytes() == (tmp_path / "b.xlsx").read_bytes()


def test_xml_safe_replaces_exactly_openpyxls_illegal_characters_and_the_two_non_characters():
    """Every code point: the one-class pattern matches what openpyxl's four alternatives match
    (plus U+FFFE, U+FFFF), and text without any is returned as it is."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE as OPENPYXL_ILLEGAL

    from pipeline.writers.xlsx.text_cells import xml_safe

    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue  # surrogates: no text holds them alone
        char = chr(code)
        illegal = OPENPYXL_ILLEGAL.match(char) is not None or char in "\ufffe\uffff"
        assert xml_safe(f"a{char}b") == ("a\ufffdb" if illegal else f"a{char}b"), hex(code)


def test_parts_are_deflated_by_isal_at_its_level_1(tmp_path):
    """Each part is raw deflate at ISA-L's level 1 (zip_container.ISAL_LEVEL): a rating list's
    sheet of 10,000 players is 4.5 MB of XML, which zlib's fastest level took three times as
    long to compress, into a larger stream. Compressing the part's text again gives the stored
    bytes exactly."""
    import zipfile

    from pipeline.writers.xlsx.zip_container import isal_deflate

    build(tmp_path / "a.xlsx")
    raw = (tmp_path / "a.xlsx").read_bytes()
    with zipfile.ZipFile(tmp_path / "a.xlsx") as zf:
        assert zf.testzip() is None  # every part's CRC right
        for info in zf.infolist():
            assert info.compress_type == zipfile.ZIP_DEFLATED
            # The stored stream: after the local header (30 bytes, the name, the extra field).
            name_len = int.from_bytes(
                raw[info.header_offset + 26 : info.header_offset + 28], "little"
            )
            extra_len = int.from_bytes(
                raw[info.header_offset + 28 : info.header_offset + 30], "little"
            )
            start = info.header_offset + 30 + name_len + extra_len
            stored = raw[start : start + info.compress_size]
            assert isal_deflate(zf.read(info)) == stored, info.filename
