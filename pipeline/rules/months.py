"""Rating periods are calendar months written ``YYYY-MM``; arithmetic on them as month numbers."""

from __future__ import annotations

import numpy as np
import pandas as pd


def month_index(period: str) -> int:
    """``2026-11`` -> 2026 * 12 + 10: consecutive months are consecutive integers."""
    return int(period[:4]) * 12 + int(period[5:7]) - 1


def month_text(index: int) -> str:
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def add_months(period: str, months: int) -> str:
    return month_text(month_index(period) + months)


def month_indexes(periods: pd.Series) -> np.ndarray:
    """Vectorized :func:`month_index`; blank or missing -> -1. Computed once per distinct
    text (a list's 1.9 M players share a few hundred months) and taken for every row."""
    codes, uniques = pd.factorize(periods.astype("string").fillna(""))
    return _month_indexes(pd.Series(uniques, dtype="string"))[codes].astype(np.int64)


def _month_indexes(text: pd.Series) -> np.ndarray:
    ok = text.str.fullmatch(r"[0-9]{4}-[0-9]{2}").fillna(False).to_numpy(dtype=bool)
    out = np.full(len(text), -1, dtype=np.int64)
    if ok.any():
        valid = text[ok]
        out[ok] = (
            valid.str[:4].astype(int).to_numpy() * 12 + valid.str[5:7].astype(int).to_numpy() - 1
        )
    return out


def fide_month_label(period: str) -> str:
    """``2026-12`` -> ``DEC26``, the rating column's header in FIDE's single-type TXT lists."""
    names = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
    return f"{names[int(period[5:7]) - 1]}{period[2:4]}"
