"""Load CSV and XLSX files into a frame of text cells, with the row numbers a person sees.

Everything is read as text: ids must never become floats, and each later parse reports the exact
cell it could not understand. Header names are matched case-insensitively after folding spaces and
punctuation to underscores.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.errors import InputError, Problem
from pipeline.readers.fastcsv import read_plain_csv, simple_lines


@dataclass
class RawTable:
    """A table of text cells. ``rows`` holds each data row's 1-based number in the file."""

    frame: pd.DataFrame
    rows: np.ndarray
    source: str
    sheet: str | None = None


def normalize_header(name: object) -> str:
    text = str(name).strip().lower().replace("½", "half")
    return re.sub(r"[^0-9a-z]+", "_", text).strip("_")


def _problem(path: Path, code: str, message: str, fix: str) -> InputError:
    return InputError([Problem(code, message, file=str(path), fix=fix)])


def _decode(path: Path, data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    # Windows-1252 is what European Excel saves; it decodes any byte except five unused ones.
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _sniff_delimiter(sample: str) -> str:
    first = sample.splitlines()[0] if sample else ""
    counts = {d: first.count(d) for d in (",", ";", "\t", "|")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def read_csv_text(path: Path) -> RawTable:
    data = path.read_bytes()
    if not data.strip():
        raise _problem(path, "not-a-table", "the file is empty", "export the table again")
    if b"\x00" in data[:4096]:
        raise _problem(
            path,
            "not-a-table",
            "the file holds binary data, not a CSV table",
            "give a CSV, XLSX or TRF file",
        )
    text = _decode(path, data)
    delimiter = _sniff_delimiter(text[:65536])
    frame = read_plain_csv(text, delimiter, normalize_header)
    try:
        if frame is None:
            frame = pd.read_csv(
                io.StringIO(text),
                sep=delimiter,
                dtype=str,
                keep_default_na=False,
                skipinitialspace=True,
                quoting=csv.QUOTE_MINIMAL,
                skip_blank_lines=True,
            )
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as exc:
        raise _problem(
            path, "not-a-table", f"cannot read the file as a table: {exc}", "check the file"
        ) from None
    frame.columns = [normalize_header(c) for c in frame.columns]
    frame = strip_cells(frame)
    # Row numbers as a person sees them: the header is line 1. Blank lines were skipped by the
    # parser, so count them back in for exact line numbers.
    line_numbers = _data_line_numbers(text)
    rows = line_numbers[: len(frame)] if len(line_numbers) >= len(frame) else np.arange(2, len(frame) + 2)
    return RawTable(frame.reset_index(drop=True), rows, str(path))


def strip_cells(frame: pd.DataFrame) -> pd.DataFrame:
    """Trim white space around every cell; columns whose bytes hold no white space at all
    (ids, results, ratings: most of a games file) are left as they are, without a pass."""
    out = {}
    for i in range(frame.shape[1]):
        values = frame.iloc[:, i]
        out[i] = values.str.strip() if _may_hold_space(values) else values
    stripped = pd.DataFrame(out)
    stripped.columns = frame.columns
    return stripped


def _may_hold_space(values: pd.Series) -> bool:
    """False only when no cell can hold white space: no byte 9..32 (ASCII white space and
    control characters), and no 0xC2/0xE1..0xE3 (the UTF-8 lead bytes of Unicode spaces)."""
    if not isinstance(values.array, pd.arrays.ArrowStringArray):
        return True
    for chunk in values.array._pa_array.chunks:
        data = chunk.buffers()[2]
        if data is None:
            continue
        raw = np.frombuffer(data, dtype=np.uint8)
        if ((raw - np.uint8(9)) <= 23).any() or ((raw - np.uint8(0xE1)) <= 2).any() or (raw == 0xC2).any():
            return True
    return False


def _data_line_numbers(text: str) -> np.ndarray:
    if simple_lines(text):
        # The usual file: no blank line, so line k + 1 holds data row k.
        return np.arange(2, text.rstrip("\n").count("\n") + 2, dtype=np.int64)
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


def read_xlsx_sheets(path: Path) -> list[RawTable]:
    """Every non-empty sheet of a workbook as a RawTable (header = first non-empty row)."""
    import zipfile

    from openpyxl import load_workbook

    try:
        workbook = load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise _problem(
            path,
            "not-a-table",
            f"cannot open the workbook ({type(exc).__name__}): the file is damaged or not XLSX",
            "save the workbook again from Excel or LibreOffice as .xlsx",
        ) from None
    tables = []
    try:
        for sheet in workbook.worksheets:
            header: list[str] | None = None
            records: list[list[str]] = []
            numbers: list[int] = []
            for number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
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
            tables.append(RawTable(frame, np.asarray(numbers, dtype=np.int64), str(path), sheet.title))
    except (zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise _problem(
            path,
            "not-a-table",
            f"the workbook is damaged ({type(exc).__name__})",
            "save the workbook again from Excel or LibreOffice as .xlsx",
        ) from None
    finally:
        workbook.close()
    if not tables:
        raise _problem(path, "not-a-table", "the workbook has no data", "fill in the first sheet")
    return tables


def read_tables(path: Path) -> list[RawTable]:
    """All tables in a file: one for CSV, one per non-empty sheet for XLSX."""
    if not path.exists():
        raise _problem(path, "not-a-table", "the file does not exist", "check the path")
    with path.open("rb") as fh:
        magic = fh.read(4)
    if magic == b"PAR1" or path.suffix.lower() in {".parquet", ".pq"}:
        from pipeline.readers.parquet import read_parquet_table

        return [read_parquet_table(path)]
    if magic == b"PK\x03\x04" or path.suffix.lower() in {".xlsx", ".xlsm"}:
        return read_xlsx_sheets(path)
    return [read_csv_text(path)]
