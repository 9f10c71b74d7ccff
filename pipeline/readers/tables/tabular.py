"""Load CSV and XLSX files into a frame of text cells, with the row numbers a person sees.

Everything is read as text: ids must never become floats, and each later parse reports the exact
cell it could not understand. Header names are matched case-insensitively after folding spaces and
punctuation to underscores.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, Literal

import numpy as np
import pandas as pd

from pipeline.arrays.arrow_text import arrow_storage
from pipeline.errors import Code, InputError, Problem
from pipeline.readers import limits
from pipeline.readers.limits import Source
from pipeline.readers.tables.fastcsv import (
    may_hold_space,
    read_plain_csv,
    simple_line_breaks,
    utf8_bytes,
)
from pipeline.readers.tables.raw import RawTable, normalize_header

__all__ = ["RawTable", "normalize_header", "read_tables"]


def _problem(path: Source, code: Code, message: str, fix: str) -> InputError:
    return InputError([Problem(code, message, file=str(path), fix=fix)])


# A blank line (LF or CRLF). Starting with a literal "\n" lets the scan skip ahead quickly.
_BLANK_LINE = re.compile(r"\n[ \t]*\r?\n")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _decode(path: Source, data: bytes) -> str:
    """The file's text: UTF-8 (with or without BOM), UTF-16 with a BOM (Excel's "Unicode text"),
    else Windows-1252, which European Excel writes and which reads Latin-1 text alike.

    Bytes that are none of these are ``bad-encoding`` (with the line of the first one); text
    full of control characters is binary data, ``not-a-table``.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise _problem(
                path,
                Code.BAD_ENCODING,
                "the file starts like UTF-16 but is not",
                "save the file again as CSV UTF-8",
            ) from None
    if b"\x00" in data[:4096]:
        raise _problem(
            path,
            Code.NOT_A_TABLE,
            "the file holds binary data, not a CSV table",
            "give a CSV, XLSX or TRF file",
        )
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            if _looks_binary(data.decode("latin-1")):
                raise _problem(
                    path,
                    Code.NOT_A_TABLE,
                    "the file holds binary data, not a table",
                    "give a CSV, XLSX or TRF file",
                ) from None
            raise InputError(
                [
                    Problem(
                        Code.BAD_ENCODING,
                        f"byte {data[exc.start]:#04x} at line {line} is neither UTF-8 nor "
                        "Windows-1252 (Western European) text",
                        file=str(path),
                        row=line,
                        value=repr(data[max(0, exc.start - 10) : exc.start + 10])[2:-1],
                        fix="save the file again as 'CSV UTF-8' (Excel) or 'Text CSV, UTF-8'",
                    )
                ]
            ) from None
    if _looks_binary(text):
        raise _problem(
            path,
            Code.NOT_A_TABLE,
            "the file holds binary data, not a table",
            "give a CSV, XLSX or TRF file",
        )
    return text


def _looks_binary(text: str) -> bool:
    """More than 1 in 100 characters are control characters no table contains."""
    sample = text[:65536]
    return len(_CONTROL.findall(sample)) * 100 > max(len(sample), 1)


def _sniff_delimiter(sample: str) -> str:
    first = sample.splitlines()[0] if sample else ""
    counts = {d: first.count(d) for d in (",", ";", "\t", "|")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _decimal_mark(frame: pd.DataFrame, delimiter: str) -> str:
    """',' when numbers use a decimal comma: European Excel separates fields with ';' because ','
    is its decimal mark; a tab-separated file decides by its cells (a '0,5' somewhere)."""
    if delimiter == ";":
        return ","
    if delimiter == ",":
        return "."
    head = frame.head(1000)
    for column in head.columns:
        if head[column].astype(str).str.fullmatch(r"-?[0-9]+,[0-9]+").any():
            return ","
    return "."


def read_csv_text(path: Source) -> RawTable:
    data = limits.read_input(path)
    if not data or data.isspace():  # only white space (as data.strip() would say, uncopied)
        raise _problem(path, Code.NOT_A_TABLE, "the file is empty", "export the table again")
    text = _decode(path, data)
    delimiter = _sniff_delimiter(text[:65536])
    header_end = text.find("\n")
    header_end = header_end if header_end >= 0 else len(text)
    if header_end > limits.MAX_HEADER_CHARS:  # before any parser meets it
        raise limits.header_too_long(str(path), header_end)
    width = text.count(delimiter, 0, header_end) + 1
    if width > limits.MAX_COLUMNS:
        raise limits.too_wide(str(path), width)
    encoded = utf8_bytes(data, text)
    breaks = simple_line_breaks(text, encoded)
    frame = read_plain_csv(text, delimiter, normalize_header, breaks is not None, encoded)
    try:
        if frame is None:
            frame = strip_cells(pandas_read_csv(text, delimiter))
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as exc:
        raise InputError([_unreadable(path, str(exc), delimiter)]) from None
    frame.columns = [normalize_header(c) for c in frame.columns]
    # Row numbers as a person sees them: the header is line 1. Blank lines were skipped by the
    # parser, so count them back in for exact line numbers.
    line_numbers = _data_line_numbers(text, breaks)
    rows = (
        line_numbers[: len(frame)]
        if len(line_numbers) >= len(frame)
        else np.arange(2, len(frame) + 2)
    )
    frame = frame.reset_index(drop=True)
    return RawTable(frame, rows, str(path), decimal=_decimal_mark(frame, delimiter))


# pandas' C parser on a row longer than the header; its line is the file's line (header = 1).
_RAGGED = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
_WHAT_WE_READ = (
    "fiderate reads tables (CSV or TSV with a header row, .xlsx, .parquet) and FIDE TRF files"
)


def _unreadable(path: Source, error: str, delimiter: str) -> Problem:
    """The parser's failure said as a person fixes it: which row, how many fields, what to do."""
    ragged = _RAGGED.search(error)
    if ragged is None:
        return Problem(
            Code.NOT_A_TABLE,
            f"cannot read the file as a table: {error}",
            file=str(path),
            fix=f"check that this is the file you meant; {_WHAT_WE_READ}",
        )
    header, line, seen = (int(n) for n in ragged.groups())
    shown = {"\t": "a tab", ",": "','", ";": "';'", "|": "'|'"}[delimiter]
    return Problem(
        Code.NOT_A_TABLE,
        f"row {line} has {seen} fields separated by {shown}, but the header (row 1) names "
        f"{header} column(s)",
        file=str(path),
        row=line,
        fix=f"give row {line} the header's {header} column(s), or put a field that holds "
        f"{shown} in double quotes; if this is not a table, check the path ({_WHAT_WE_READ})",
    )


def strip_cells(frame: pd.DataFrame) -> pd.DataFrame:
    """Trim white space around every cell; columns whose bytes hold no white space at all
    (ids, results, ratings: most of a games file) are left as they are, without a pass."""
    stripped = frame
    for i in range(frame.shape[1]):
        values = frame.iloc[:, i]
        if _may_hold_space(values):
            if stripped is frame:  # copy-on-write: the other columns are shared, not copied
                stripped = frame.copy(deep=False)
            stripped.isetitem(i, values.str.strip())
    return stripped


def _may_hold_space(values: pd.Series) -> bool:
    """False only when no cell can hold white space (``fastcsv.may_hold_space``)."""
    if not isinstance(values.array, pd.arrays.ArrowStringArray):
        return True
    return may_hold_space(arrow_storage(values.array).chunks)


def _data_line_numbers(
    text: str, breaks: int | None | Literal["unknown"] = "unknown"
) -> np.ndarray:
    """The line of each data row. ``breaks``: ``simple_line_breaks(text)`` when the caller has
    it (a pass over the file)."""
    if breaks == "unknown":
        breaks = simple_line_breaks(text)
    if breaks is not None:
        # The usual file: no blank line, so line k + 1 holds data row k.
        return np.arange(2, breaks + 2, dtype=np.int64)
    lines = text.splitlines()
    numbers = [i + 1 for i, line in enumerate(lines) if line.strip()]
    return np.asarray(numbers[1:], dtype=np.int64)


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return repr(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()[:10]
    return str(value).strip()


def pandas_read_csv(text: str, delimiter: str) -> pd.DataFrame:
    """Any CSV text as cells of text: pandas' parser, for what ``read_plain_csv`` does not take."""
    return pd.read_csv(
        io.StringIO(text),
        sep=delimiter,
        dtype=str,
        keep_default_na=False,
        skipinitialspace=True,
        quoting=csv.QUOTE_MINIMAL,
        skip_blank_lines=True,
    )


def _damaged(path: Source, message: str) -> InputError:
    """A workbook openpyxl cannot read (zlib, XML or openpyxl errors)."""
    fix = "save the workbook again from Excel or LibreOffice as .xlsx"
    return _problem(path, Code.NOT_A_TABLE, message, fix)


@contextmanager
def open_workbook(path: Source) -> Iterator[Any]:
    """The workbook at ``path``, read-only (cell values), closed on the way out together with
    the file under it; any error of opening or reading it (zlib, XML, openpyxl) is the file's
    problem: a damaged workbook. The file is opened here, not by openpyxl: when loading fails
    half-way, openpyxl leaves its zip archive open, and the archive's file, freed later by the
    garbage collector, warns "unclosed file" wherever the program is then (under pytest's
    ``filterwarnings = error``, a failure of whichever test ran next)."""
    from openpyxl import load_workbook

    with ExitStack() as stack:
        try:
            handle = stack.enter_context(limits.open_input(path))
            workbook = load_workbook(handle, read_only=True, data_only=True)
        except Exception as exc:  # noqa: BLE001 - zlib, XML and openpyxl errors of a damaged file
            raise _damaged(
                path,
                f"cannot open the workbook ({type(exc).__name__}): the file is damaged or not XLSX",
            ) from None
        stack.callback(workbook.close)
        try:
            yield workbook
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - the same errors met while reading the cells
            raise _damaged(path, f"the workbook is damaged ({type(exc).__name__})") from None


def read_xlsx_sheets(path: Source) -> list[RawTable]:
    """Every non-empty sheet of a workbook as a RawTable (header = first non-empty row)."""
    limits.check_zip(path, str(path))  # a shared-strings bomb is refused before it inflates
    tables = []
    with open_workbook(path) as workbook:
        for sheet in workbook.worksheets:
            # The declared dimension (say A1:XFD1048576) would pad every row to 16,384 cells
            # and add a million empty rows: read the cells the sheet really holds.
            sheet.reset_dimensions()  # type: ignore[union-attr]
            header: list[str] | None = None
            records: list[list[str]] = []
            numbers: list[int] = []
            for number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
                if len(row) > limits.MAX_COLUMNS:
                    raise limits.too_wide(str(path), len(row), number)
                cells = [_cell_text(v) for v in row]
                if not any(cells):
                    continue
                if header is None:
                    header = [normalize_header(c) for c in cells]
                    continue
                records.append(cells)
                numbers.append(number)
            if header is None:
                continue
            width = len(header)
            records = [(r + [""] * width)[:width] for r in records]
            frame = pd.DataFrame(records, columns=header, dtype=str)
            frame = frame.loc[:, [c != "" for c in frame.columns]]
            tables.append(
                RawTable(frame, np.asarray(numbers, dtype=np.int64), str(path), sheet.title)
            )
    if not tables:
        raise _problem(
            path, Code.NOT_A_TABLE, "the workbook has no data", "fill in the first sheet"
        )
    return tables


def read_tables(path: Source) -> list[RawTable]:
    """All tables in a file: one for CSV, one per non-empty sheet for XLSX."""
    limits.check_input(path)  # a folder, FIFO or device: refused before it is opened
    magic = limits.input_head(path, 4)
    if magic == b"PAR1" or path.suffix.lower() in {".parquet", ".pq"}:
        from pipeline.readers.tables.parquet_tables import read_parquet_table

        return [read_parquet_table(path)]
    if magic == b"PK\x03\x04" or path.suffix.lower() in {".xlsx", ".xlsm"}:
        return read_xlsx_sheets(path)
    return [read_csv_text(path)]
