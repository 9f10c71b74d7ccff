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

from pipeline.rounding import rescale_half_away

# pandas 3's default string dtype ("str"): Arrow storage, NaN for missing.
STR_DTYPE = pd.StringDtype("pyarrow", na_value=np.nan)


def arrow_ints(values: pd.Series | np.ndarray) -> pa.Array:
    """Nullable integers as an Arrow int64 array (<NA> -> null)."""
    if isinstance(values, pa.Array):
        return values.cast(pa.int64())
    series = pd.Series(values)
    if isinstance(series.dtype, np.dtype) and series.dtype.kind in "iub":
        return pa.array(series.to_numpy(dtype=np.int64))
    return pa.array(series.astype("Int64").array, type=pa.int64())


def arrow_text(values: pd.Series) -> pa.Array | pa.ChunkedArray:
    """A text column as Arrow strings without copying when it is already Arrow-backed."""
    if isinstance(values.array, pd.arrays.ArrowStringArray):
        return values.array._pa_array
    return values.astype(STR_DTYPE).array._pa_array


def str_series(text: pa.Array | pa.ChunkedArray, index: pd.Index | None = None) -> pd.Series:
    """Arrow strings as a pandas ``str`` Series (no copy)."""
    if isinstance(text, pa.ChunkedArray):
        text = text.combine_chunks() if text.num_chunks != 1 else text.chunk(0)
    if text.type != pa.large_string() and text.type != pa.string():
        text = text.cast(pa.string())
    return pd.Series(pd.arrays.ArrowStringArray(text, dtype=STR_DTYPE), index=index)


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
