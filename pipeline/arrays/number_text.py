"""Exact text for exact numbers: integers in units of 1/scale shown with fixed decimals.

No float ever sits between the engine's integers and the text in a file. The text is built with
Arrow's string kernels on whole columns (a million cells in milliseconds): the arithmetic stays
in int64 numpy, only the digits are joined as strings.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import STR_DTYPE, arrow_ints, arrow_text, str_series
from pipeline.arrays.coded_text import TextColumn, coded_ints
from pipeline.rules.rounding import rescale_half_away
from pipeline.rules.signs import POSITIVE_DECIMAL

__all__ = [
    "STR_DTYPE",
    "arrow_ints",
    "arrow_text",
    "int_arrow",
    "int_text",
    "pd_decimals",
    "plain_text",
    "signed_text",
    "str_series",
    "units_arrow",
    "units_text",
]


def _units_digits(values: np.ndarray, scale: int, decimals: int) -> pa.Array:
    step = 10**decimals
    rescaled = rescale_half_away(values, scale, step)
    mag = np.abs(rescaled)
    text = pc.cast(pa.array(mag // step), pa.string())
    if decimals:
        frac = pc.utf8_lpad(pc.cast(pa.array(mag % step), pa.string()), decimals, "0")
        text = pc.binary_join_element_wise(text, frac, ".")
    return pc.if_else(pa.array(rescaled < 0), pc.binary_join_element_wise("-", text, ""), text)


def _nullable(values: pd.Series | np.ndarray | pa.Array) -> tuple[np.ndarray, np.ndarray | None]:
    """(int64 values with 0 for <NA>, the <NA> mask or None when there is none)."""
    if isinstance(values, pd.Series) and isinstance(values.array, pd.arrays.IntegerArray):
        # Nullable integers (the engine's columns) straight from their values and mask: no
        # Arrow copy, then a filled copy of it.
        missing = values.isna().to_numpy(dtype=bool)
        filled = values.to_numpy(dtype=np.int64, na_value=0)
        return filled, missing if missing.any() else None
    ints = arrow_ints(values)
    filled = ints.fill_null(0).to_numpy(zero_copy_only=False)
    missing = ints.is_null().to_numpy(zero_copy_only=False) if ints.null_count else None
    return filled, missing


def units_coded(units: pd.Series | np.ndarray | pa.Array, scale: int, decimals: int) -> TextColumn:
    """``units_arrow`` as codes: PD and deviations span a few hundred values, each formatted
    once."""
    return coded_ints(*_nullable(units), lambda r: _units_digits(r, scale, decimals))


def units_arrow(units: pd.Series | np.ndarray | pa.Array, scale: int, decimals: int) -> pa.Array:
    """'2.17', '-0.50', '13.80' as Arrow strings; <NA> -> ''."""
    return units_coded(units, scale, decimals).full()


def units_text(units: pd.Series | np.ndarray, scale: int, decimals: int) -> pd.Series:
    """'2.17', '-0.50', '13.80'; <NA> -> ''."""
    return str_series(units_arrow(units, scale, decimals), pd.Series(units).index)


def _int_digits(values: np.ndarray) -> pa.Array:
    return pc.cast(pa.array(values), pa.string())


def int_coded(values: pd.Series | np.ndarray | pa.Array) -> TextColumn:
    """``int_arrow`` as codes: ratings and differences span a few thousand values, each
    formatted once."""
    return coded_ints(*_nullable(values), _int_digits)


def int_arrow(values: pd.Series | np.ndarray | pa.Array) -> pa.Array:
    """Nullable integers as Arrow text, blank for <NA> (never '1650.0')."""
    return int_coded(values).full()


def int_text(values: pd.Series) -> pd.Series:
    """Nullable integers as text, blank for <NA> (never '1650.0')."""
    return str_series(int_arrow(values), pd.Series(values).index)


def pd_decimals(scale: int) -> int:
    """Expected scores: two decimals from the FIDE table, four from the formula."""
    return 2 if scale == 100 else 4


def plain_text(text: pa.Array | pa.ChunkedArray) -> pa.Array:
    """One contiguous ``string`` array with no nulls (blank for missing)."""
    if isinstance(text, pa.ChunkedArray):
        text = text.combine_chunks() if text.num_chunks != 1 else text.chunk(0)
    if text.type != pa.string():
        text = text.cast(pa.string())
    return text.fill_null("") if text.null_count else text


def signed_text(text: pd.Series) -> pd.Series:
    """Differences for reading, from a table's exact text (``6.90``, ``-3``, ``0.00``, blank):
    ``+`` before a positive one, zero and negatives as written, words left alone. The column form
    of :func:`pipeline.rules.signs.signed`: every face shows a change or an S - PD as
    the web pages do (``+6.90``, ``+7``, ``0``, ``-3``)."""
    positive = text.str.fullmatch(POSITIVE_DECIMAL).fillna(False).astype(bool)
    return text.mask(positive, "+" + text)
