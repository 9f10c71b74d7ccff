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

from pipeline.columns import STR_DTYPE, arrow_ints, arrow_text, str_series
from pipeline.rounding import rescale_half_away

__all__ = [
    "STR_DTYPE",
    "arrow_ints",
    "arrow_text",
    "int_arrow",
    "int_text",
    "pd_decimals",
    "str_series",
    "units_arrow",
    "units_text",
]

def units_arrow(units: pd.Series | np.ndarray | pa.Array, scale: int, decimals: int) -> pa.Array:
    """'2.17', '-0.50', '13.80' as Arrow strings; <NA> -> ''."""
    ints = arrow_ints(units)
    missing = ints.is_null()
    step = 10**decimals
    values = rescale_half_away(ints.fill_null(0).to_numpy(zero_copy_only=False), scale, step)
    mag = np.abs(values)
    text = pc.cast(pa.array(mag // step), pa.string())
    if decimals:
        frac = pc.utf8_lpad(pc.cast(pa.array(mag % step), pa.string()), decimals, "0")
        text = pc.binary_join_element_wise(text, frac, ".")
    negative = pa.array(values < 0)
    text = pc.if_else(negative, pc.binary_join_element_wise("-", text, ""), text)
    if missing.null_count or pc.any(missing).as_py():
        text = pc.if_else(missing, "", text)
    return text


def units_text(units: pd.Series | np.ndarray, scale: int, decimals: int) -> pd.Series:
    """'2.17', '-0.50', '13.80'; <NA> -> ''."""
    return str_series(units_arrow(units, scale, decimals), pd.Series(units).index)


def int_arrow(values: pd.Series | np.ndarray | pa.Array) -> pa.Array:
    """Nullable integers as Arrow text, blank for <NA> (never '1650.0')."""
    return pc.cast(arrow_ints(values), pa.string()).fill_null("")


def int_text(values: pd.Series) -> pd.Series:
    """Nullable integers as text, blank for <NA> (never '1650.0')."""
    return str_series(int_arrow(values), pd.Series(values).index)


def pd_decimals(scale: int) -> int:
    """Expected scores: two decimals from the FIDE table, four from the formula."""
    return 2 if scale == 100 else 4
