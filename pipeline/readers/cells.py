"""Vectorized parsing of text cells, reporting every bad cell as a Problem.

Each parser returns the parsed column and records one Problem per bad cell (file, row, column,
value, fix). Nothing loops over good rows; only the bad ones are visited to build messages.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.columns import factorize_text
from pipeline.errors import ProblemList
from pipeline.readers.tabular import RawTable

MAX_RATING = 3500
_INT_RE = r"^[+]?\d+(?:\.0*)?$"


def report(
    problems: ProblemList,
    table: RawTable,
    bad: np.ndarray | pd.Series,
    column: str,
    code: str,
    message: str,
    fix: str,
    values: pd.Series | None = None,
) -> None:
    mask = np.asarray(bad, dtype=bool)
    if not mask.any():
        return
    cells = table.frame[column] if values is None else values
    for pos in np.flatnonzero(mask):
        problems.add(
            code,
            message,
            file=table.source,
            row=int(table.rows[pos]),
            column=column,
            value=str(cells.iloc[pos]),
            fix=fix,
        )


def text(table: RawTable, column: str) -> pd.Series:
    if column in table.frame.columns:
        return table.frame[column].astype(str).fillna("")
    return pd.Series([""] * len(table.frame), dtype=str)


def distinct(raw: pd.Series) -> tuple[np.ndarray, pd.Series]:
    """(code of each cell, the distinct values as a str Series). Parsers work on the distinct
    values, of which a column of a million cells (dates, ratings, results) has a handful, and
    spread the answers back with the codes: each cell's answer depends only on its text."""
    return factorize_text(raw)


def spread(values: pd.Series, codes: np.ndarray, like: pd.Series) -> pd.Series:
    """The answers for the distinct values, back on every cell of ``like``."""
    return pd.Series(values.array.take(codes), index=like.index)


def parse_ids(problems: ProblemList, table: RawTable, column: str, required: bool = True) -> pd.Series:
    raw = text(table, column)
    # A spreadsheet that stored an id as a number shows it as "4100018.0": take the digits.
    ids = raw
    if raw.str.contains(".", regex=False).any():
        ids = raw.str.replace(r"^(\d+)\.0+$", r"\1", regex=True)
    if required:
        report(
            problems,
            table,
            ids.eq("").to_numpy(),
            column,
            "bad-id",
            "the player id is blank",
            "give every player an id (a FIDE id or any unique text)",
        )
    return ids


def parse_int(
    problems: ProblemList,
    table: RawTable,
    column: str,
    *,
    low: int,
    high: int,
    code: str = "bad-value",
    what: str = "a whole number",
    zero_is_blank: bool = False,
) -> pd.Series:
    """Optional integer column: blank -> <NA>; anything else must be a whole number in range."""
    raw = text(table, column)
    codes, values = distinct(raw)
    blank = values.eq("")
    looks_int = values.str.match(_INT_RE)
    numbers = pd.to_numeric(values.where(looks_int & ~blank), errors="coerce")
    bad = (~blank & (~looks_int | (numbers < low) | (numbers > high))).fillna(True)
    report(
        problems,
        table,
        bad.to_numpy(dtype=bool)[codes],
        column,
        code,
        f"expected {what} from {low} to {high}",
        f"write {what} from {low} to {high}, or leave the cell blank",
    )
    result = numbers.where(~bad).round().astype("Int64")
    if zero_is_blank:
        result = result.mask(result.eq(0))
    return spread(result, codes, raw)


def parse_rating(problems: ProblemList, table: RawTable, column: str) -> pd.Series:
    """Ratings: blank or 0 = unrated (<NA>); otherwise a whole number up to 3500."""
    return parse_int(
        problems,
        table,
        column,
        low=0,
        high=MAX_RATING,
        code="bad-rating",
        what="a rating (whole number)",
        zero_is_blank=True,
    )


_TRUE = {"true", "yes", "y", "1", "x", "t", "wahr", "ja", "si", "oui"}
_FALSE = {"false", "no", "n", "0", "", "f", "falsch", "nein", "non"}


def parse_bool(problems: ProblemList, table: RawTable, column: str) -> pd.Series:
    raw = text(table, column).str.lower()
    is_true = raw.isin(_TRUE)
    bad = ~is_true & ~raw.isin(_FALSE)
    report(
        problems,
        table,
        bad.to_numpy(),
        column,
        "bad-value",
        "expected true or false",
        "write true or false (yes/no and 1/0 are read too)",
    )
    return is_true.astype(bool)


def parse_date(problems: ProblemList, table: RawTable, column: str) -> pd.Series:
    raw = text(table, column)
    codes, values = distinct(raw)
    blank = values.eq("")
    parsed = pd.to_datetime(values.where(~blank), format="%Y-%m-%d", errors="coerce")
    bad = ~blank & parsed.isna()
    report(
        problems,
        table,
        bad.to_numpy(dtype=bool)[codes],
        column,
        "bad-value",
        "expected a date as YYYY-MM-DD",
        "write the date as YYYY-MM-DD, e.g. 2026-11-14",
    )
    # Valid cells are already in the canonical YYYY-MM-DD form; blanks and bad cells become <NA>.
    return spread(values.astype("string").where(~(bad | blank)), codes, raw)
