"""Cheaper ways to compute some of pandera's built-in column checks (issue 13: on a million
games each cost 0.01-0.1 s). Each gives the same bool per row as the built-in check it stands
for; the models register them under the built-in check's name and error text (``same_as``), so
a failure is reported exactly as before (tests/test_schema_checks_same.py compares the two)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pandas as pd
import pandera.pandas as pa


def same_as(builtin: pa.Check, *, missing_pass: bool = False) -> dict[str, Any]:
    """The ``pa.check`` arguments that name a custom check as ``builtin`` is named in reports.
    ``missing_pass``: the check gets the missing values too, and passes them itself."""
    return {"name": builtin.name, "error": builtin.error, "ignore_na": not missing_pass}


def per_distinct(column: pd.Series, check: Callable[[pd.Series], pd.Series]) -> pd.Series:
    """``check(column)`` (a bool per value, a function of the value alone), computed on the
    distinct values and taken back to every row, same index: a date column of a million games
    holds a few dozen dates, and a regular expression cost 0.07-0.1 s on every row.

    Exact: ``factorize`` gives each row the position of its value among the distinct values
    (a missing value is one of them, ``use_na_sentinel=False``), so row i gets check(value i)."""
    codes, distinct = pd.factorize(column, use_na_sentinel=False)
    verdict = check(pd.Series(distinct, dtype=column.dtype)).to_numpy(dtype=bool)
    return pd.Series(verdict[codes], index=column.index, name=column.name)


def one_of(column: pd.Series, allowed: Iterable[int]) -> pd.Series:
    """``column.isin(allowed)`` for a column of int64 and a few allowed integers: one equality
    pass per allowed value (1.4 ms a million rows) instead of a hash table (12 ms)."""
    values = column.to_numpy()
    found = np.zeros(len(values), dtype=bool)
    for value in allowed:
        found |= values == value
    return pd.Series(found, index=column.index, name=column.name)


def not_empty(column: pd.Series) -> pd.Series:
    """``column.str.len() >= 1`` (pandera's ``str_length(1, None)``): a text has a character
    exactly when it is not the empty text. Missing values never get here (pandera drops them
    before a check that ignores them, the default)."""
    return column != ""


def bound(column: pd.Series, low: int | None = None, high: int | None = None) -> pd.Series:
    """pandera's ``ge(low)`` (or ``le(high)``) for a column of integers that may be missing,
    without first copying the column without its missing rows (0.03 s on 2 M sides): a missing
    value passes, as it does when pandera drops it (run with ``ignore_na=False``, see
    ``same_as``). Exact: a missing value is read as the bound itself, which passes."""
    if high is None:
        return pd.Series(column.to_numpy(dtype=np.int64, na_value=low) >= low, index=column.index)
    return pd.Series(column.to_numpy(dtype=np.int64, na_value=high) <= high, index=column.index)
