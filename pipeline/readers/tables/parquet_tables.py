"""Parquet inputs: a games file or a players list with the same columns as the CSV, typed or not.

Each column is turned into the text a CSV would hold (ints as digits, booleans as true/false,
dates as YYYY-MM-DD, nulls as blank), so the same cell parsers check every value and report
every bad cell the same way. Row numbers count as in a CSV export: the first data row is row 2.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.arrays.arrow_text import str_series
from pipeline.errors import Code, InputError, Problem
from pipeline.readers.limits import MAX_COLUMNS, Source, open_input, too_wide
from pipeline.readers.tables.raw import RawTable, normalize_header


def _column_problem(path: Source, column: str, what: str) -> Problem:
    utf8 = "utf8" in what.lower() or "utf-8" in what.lower()
    return Problem(
        Code.BAD_ENCODING if utf8 else Code.BAD_VALUE,
        f"the column {what}",
        file=str(path),
        column=column,
        fix="write this column as plain text or numbers (valid UTF-8, one value per cell)",
    )


def column_text(column: pa.ChunkedArray) -> pa.Array:
    kind = column.type
    if pa.types.is_timestamp(kind) or pa.types.is_date(kind):
        text = pc.strftime(column, format="%Y-%m-%d")
    elif pa.types.is_boolean(kind):
        text = pc.if_else(column, "true", "false")
    elif pa.types.is_floating(kind):
        # 1650.0 -> "1650" (a spreadsheet's whole number); anything else as Python prints it.
        # Only floats that hold an integer exactly (|x| < 2**53) become digits: 1e20 stays
        # "1e+20" (a bad rating, reported) instead of wrapping around int64.
        exact = pc.less(pc.abs(column), 2.0**53)
        whole = pc.and_(pc.equal(column, pc.floor(column)), exact)
        text = pc.if_else(
            whole,
            pc.cast(pc.cast(column, pa.int64(), safe=False), pa.string()),
            pc.cast(column, pa.string()),
        )
    elif pa.types.is_dictionary(kind):
        text = pc.cast(column, kind.value_type).cast(pa.large_string())
    else:
        text = pc.cast(column, pa.large_string())
    return pc.utf8_trim_whitespace(pa.chunked_array(text).fill_null("")).combine_chunks()


def read_parquet_table(path: Source) -> RawTable:
    try:
        with open_input(path) as stream:
            table = pq.read_table(stream)
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(
            [
                Problem(
                    Code.NOT_A_TABLE,
                    f"cannot read the Parquet file: {exc}",
                    file=str(path),
                    fix="write the file again as Parquet, or give a CSV/XLSX file",
                )
            ]
        ) from None
    names = [normalize_header(n) for n in table.column_names]
    if len(names) > MAX_COLUMNS:
        raise too_wide(str(path), len(names))
    frame = {}
    problems = []
    for i, (raw_name, name) in enumerate(zip(table.column_names, names, strict=True)):
        column = table.column(i)
        if pa.types.is_nested(column.type):
            problems.append(_column_problem(path, raw_name, f"holds nested values ({column.type})"))
            continue
        try:
            frame[name] = str_series(column_text(column))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError) as exc:
            problems.append(_column_problem(path, raw_name, f"cannot be read as text ({exc})"))
    if problems:
        raise InputError(problems)
    import pandas as pd

    return RawTable(
        pd.DataFrame(frame), np.arange(2, table.num_rows + 2, dtype=np.int64), str(path)
    )
