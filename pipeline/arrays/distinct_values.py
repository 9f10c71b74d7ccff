"""A function of a row's values, worked out once per distinct combination of them.

Report tables repeat few values (a norm table of hundreds of rows holds a few dozen margins,
a handful of statuses and events): formatting or escaping each distinct value once, then
taking the results back to every row, costs a few microseconds a distinct value instead of a
pandas operation per column and step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd


def per_distinct(text: Callable[..., str], *columns: pd.Series | np.ndarray) -> np.ndarray:
    """``text(*values)`` for every row's values (one value from each of ``columns``, all of the
    same length), called once per distinct combination: an object array of str, row order.

    Exact: each column's ``factorize`` codes are folded into one key per row, column by column:
    key * n + code (n: the column's count of distinct values, every code below it) is unique per
    (key, code) pair, and the key is numbered again (``factorize``) before the next column, so it
    stays below the number of rows and never overflows. ``np.unique`` then gives each row the
    position of its key among the distinct keys, so row i gets ``text`` of its own values. A
    missing value is a value of its own (``use_na_sentinel=False``)."""
    size = len(columns[0])
    key = np.zeros(size, dtype=np.int64)
    coded: list[tuple[np.ndarray, list[Any]]] = []
    for column in columns:
        codes, uniques = pd.factorize(column, use_na_sentinel=False)
        key, _ = pd.factorize(key * max(len(uniques), 1) + codes)
        coded.append((codes, list(uniques)))
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    made = np.empty(len(first), dtype=object)
    made[:] = [text(*(uniques[codes[i]] for codes, uniques in coded)) for i in first]
    return made[inverse.reshape(-1)]
