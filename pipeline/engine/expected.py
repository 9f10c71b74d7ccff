"""Expected scores, as exact integers in units of 1/scale.

FIDE method: table 8.1.2 in hundredths (scale 100), so every later sum is exact.
Formula method (not FIDE): the logistic expectation quantized to millionths (scale 10**6),
which keeps the same integer pipeline; the quantization is far below the 0.01 shown anywhere.
"""

from __future__ import annotations

import numpy as np

from pipeline.rules.fide_tables import expectancy_table
from pipeline.rules.methods import SCALES


def expected_units(diff: np.ndarray, method: str) -> np.ndarray:
    """Expected score of the side whose (capped) difference own - opponent is ``diff``."""
    if method == "fide":
        return expectancy_table().lookup_h(diff)
    if method == "formula":
        scale = SCALES["formula"]
        e = 1.0 / (1.0 + np.power(10.0, -np.asarray(diff, dtype=np.float64) / 400.0))
        return np.floor(e * scale + 0.5).astype(np.int64)
    raise ValueError(f"unknown method {method!r}")
