"""FIDE tables 8.1.2 (difference -> expected score) and 8.1.1 (score -> difference), as data.

The tables are read from the CSV files shipped in ``pipeline/rules/data`` (copies of
../shared/fide/*.csv; a test checks they are identical). Table 8.1.2 is expanded once into an
array indexed by |D| so the engine looks PD up with plain integer indexing.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from importlib import resources

import numpy as np


def _rows(name: str) -> list[dict[str, str]]:
    text = resources.files("pipeline.rules.data").joinpath(name).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


def _hundredths(text: str) -> int:
    # Decimal, not float: "0.57" must become exactly 57.
    return int(Decimal(text) * 100)


@dataclass(frozen=True)
class ExpectancyTable:
    """Table 8.1.2. ``pd_higher_h[d]`` is the higher-rated side's PD in hundredths for |D| = d."""

    pd_higher_h: np.ndarray  # int64, index 0..max_diff+1 (last entry: beyond the table)
    max_diff: int  # the largest |D| listed in a band (735)
    bands: tuple[tuple[int, int, int, int], ...]  # (d_min, d_max, pd_higher_h, pd_lower_h)

    def lookup_h(self, diff: np.ndarray) -> np.ndarray:
        """PD in hundredths for the side whose difference (own - opponent) is ``diff``."""
        diff = np.asarray(diff, dtype=np.int64)
        idx = np.minimum(np.abs(diff), self.max_diff + 1)
        higher = self.pd_higher_h[idx]
        return np.where(diff >= 0, higher, 100 - higher)


@cache
def expectancy_table() -> ExpectancyTable:
    bands = []
    beyond_h = 100  # the open-ended last row ("736," -> 1.00 / 0.00)
    for row in _rows("table_8_1_2.csv"):
        if not row["d_max"].strip():
            beyond_h = _hundredths(row["pd_higher"])
            continue
        bands.append(
            (
                int(row["d_min"]),
                int(row["d_max"]),
                _hundredths(row["pd_higher"]),
                _hundredths(row["pd_lower"]),
            )
        )
    bands.sort()
    max_diff = bands[-1][1]
    table = np.full(max_diff + 2, beyond_h, dtype=np.int64)
    expected_start = 0
    for d_min, d_max, high, low in bands:
        if d_min != expected_start or high + low != 100:
            raise ValueError(f"table 8.1.2 is not contiguous at {d_min}..{d_max}")
        table[d_min : d_max + 1] = high
        expected_start = d_max + 1
    table.setflags(write=False)
    return ExpectancyTable(table, max_diff, tuple(bands))


@dataclass(frozen=True)
class DpTable:
    """Table 8.1.1: fractional score p (hundredths 0..100) -> rating difference dp."""

    dp_by_p_h: np.ndarray  # index p in hundredths, 0..100

    def dp(self, p_h: int | np.ndarray) -> np.ndarray:
        return self.dp_by_p_h[np.asarray(p_h, dtype=np.int64)]


@cache
def dp_table() -> DpTable:
    values = np.zeros(101, dtype=np.int64)
    seen = set()
    for row in _rows("table_8_1_1.csv"):
        p_h = _hundredths(row["p"])
        values[p_h] = int(row["dp"])
        seen.add(p_h)
    if seen != set(range(101)):
        raise ValueError("table 8.1.1 must list every p from 0.00 to 1.00")
    values.setflags(write=False)
    return DpTable(values)
