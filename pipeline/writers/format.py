"""Exact text for exact numbers: integers in units of 1/scale shown with fixed decimals.

No float ever sits between the engine's integers and the text in a file.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.rounding import rescale_half_away


def units_text(units: pd.Series | np.ndarray, scale: int, decimals: int) -> pd.Series:
    """'2.17', '-0.50', '13.80'; <NA> -> ''."""
    series = pd.Series(units).astype("Int64")
    missing = series.isna().to_numpy()
    values = rescale_half_away(series.fillna(0).to_numpy(dtype=np.int64), scale, 10**decimals)
    sign = np.where(values < 0, "-", "")
    mag = np.abs(values)
    whole = (mag // 10**decimals).astype(str)
    if decimals:
        frac = pd.Series((mag % 10**decimals).astype(str)).str.zfill(decimals).to_numpy()
        text = pd.Series(sign) + whole + "." + frac
    else:
        text = pd.Series(sign) + whole
    return text.where(~missing, "").astype(str).set_axis(pd.Series(units).index)


def int_text(values: pd.Series) -> pd.Series:
    """Nullable integers as text, blank for <NA> (never '1650.0')."""
    series = pd.Series(values).astype("Int64")
    return series.astype(str).where(series.notna(), "").astype(str)


def pd_decimals(scale: int) -> int:
    """Expected scores: two decimals from the FIDE table, four from the formula."""
    return 2 if scale == 100 else 4
