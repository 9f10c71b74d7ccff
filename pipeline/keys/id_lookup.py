"""One id look-up per list, built once and asked many times (issue 13).

``keys.frame_lookup.positions`` hashes the whole list on every call (Arrow's ``index_in`` keeps no
table between calls): a period of 200 events against FIDE's 1.9 M-player list built the same
hash set 400 times (212 s). ``IdLookup`` is built once per list and answers each event's ids in
time proportional to the event.

FIDE ids are whole numbers written without leading zeros. When every id of the list is written
that way (``0`` or ``[1-9][0-9]{0,17}``: below 2**63), the ids are parsed to int64 once and sorted;
a look-up parses the asked ids the same way and binary-searches them. Two such texts are equal
exactly when their numbers are (no leading zeros, no sign, no spaces), and an asked id written
any other way cannot be on such a list: it is absent. Any other list falls back to the Arrow hash
look-up per call.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import arrow_text, factorize_text
from pipeline.arrays.order import stable_order

CANONICAL_NUMBER = r"^(0|[1-9][0-9]{0,17})$"


def canonical_numbers(text: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray]:
    """(int64 value, whether the text is a canonical number) per cell; value 0 where it is not.

    Exact: a canonical text has at most 18 digits, so its value is below 10**18 < 2**63."""
    ok = pc.fill_null(pc.match_substring_regex(text, CANONICAL_NUMBER), False)
    digits = pc.if_else(ok, text, pa.scalar("0", type=text.type))
    values = pc.cast(digits, pa.int64()).to_numpy(zero_copy_only=False)
    return np.asarray(values, dtype=np.int64), ok.to_numpy(zero_copy_only=False)


def sorted_search(table: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``np.searchsorted(table, values)``, the values searched in increasing order: numpy starts
    each search from the previous answer then, so a million look-ups into a 1.9 M table take
    about a third of the time (random ones miss the cache at every step). Same answers: each
    value's position does not depend on the order they are asked in."""
    if len(values) < 2:
        return np.searchsorted(table, values)
    order = np.argsort(values, kind="stable")
    at = np.empty(len(values), dtype=np.int64)
    at[order] = np.searchsorted(table, values[order])
    return at


class IdLookup:
    """Each asked id's row in ``ids`` (the first, if an id repeats), -1 where absent."""

    def __init__(self, ids: pd.Series) -> None:
        self._ids = ids
        self._sorted: np.ndarray | None = None
        self._rows: np.ndarray | None = None
        text = arrow_text(ids)
        values, ok = canonical_numbers(text)
        if len(ok) and ok.all():
            # Stable: equal values keep their row order, so a search lands on the first row.
            self._rows = np.argsort(values, kind="stable")
            self._sorted = values[self._rows]

    def positions(self, asked: pd.Series) -> np.ndarray:
        if self._sorted is None or self._rows is None:
            from pipeline.keys.frame_lookup import positions

            return positions(asked, self._ids)
        values, ok = canonical_numbers(arrow_text(asked))
        at = sorted_search(self._sorted, values)
        at = np.minimum(at, len(self._sorted) - 1)
        found = ok & (self._sorted[at] == values)
        return np.where(found, self._rows[at], -1).astype(np.int64)

    def distinct(self) -> int:
        """How many different ids the list holds: counted on the sorted numbers when the look-up
        has them (equal numbers are equal texts there), else by hashing the ids."""
        if self._sorted is None:
            return int(self._ids.nunique(dropna=False))
        if not len(self._sorted):
            return 0
        return 1 + int(np.count_nonzero(self._sorted[1:] != self._sorted[:-1]))


def take_rows(column: pd.Series, rows: np.ndarray) -> pd.Series:
    """``column``'s values at ``rows`` (-1: missing), exactly as ``reindex`` by id gives them
    (same dtype, NA where missing), without building a hash table of the ids per column: a
    reindex on the row numbers is arithmetic."""
    return column.reset_index(drop=True).reindex(rows)


def same_ids(ids: pd.Series | pd.Index, other: pd.Series | pd.Index) -> bool:
    """Whether two id columns list the same ids in the same order (then a row of one is the
    same player's row of the other, and no look-up is needed)."""
    import pyarrow.compute as pc

    if len(ids) != len(other):
        return False
    equal = pc.equal(arrow_text(pd.Series(ids)), arrow_text(pd.Series(other)))
    return bool(pc.all(pc.fill_null(equal, False)).as_py())


def natural_order(ids: pd.Series) -> np.ndarray:
    """Numeric ids in numeric order first, then other ids alphabetically (a stable order: rows
    of the same id keep their order)."""
    values, canonical = canonical_numbers(arrow_text(pd.Series(ids)))
    if canonical.all():
        # Every id written as FIDE writes them (no leading zero): "length, then text" is the
        # numbers' order, so the ids' int64 values sort the same (a list already in that order,
        # as a period's is, is checked in one pass and not sorted at all).
        if len(values) < 2 or bool((values[1:] >= values[:-1]).all()):
            return np.arange(len(values), dtype=np.int64)
        return np.argsort(values, kind="stable")
    # Sort the distinct ids only, then spread their ranks back over the rows: a million sides
    # of a hundred thousand players sort as integers, not as a million strings.
    codes, text = factorize_text(pd.Series(ids))
    uniques = text
    digits = text.str.fullmatch(r"\d+").to_numpy(dtype=bool)
    lengths = np.where(digits, text.str.len().to_numpy(), 0)
    unique_order = np.lexsort((text.to_numpy(), lengths, ~digits))
    rank = np.empty(len(uniques), dtype=np.int64)
    rank[unique_order] = np.arange(len(uniques))
    return stable_order(rank[codes])
