"""The table every tabular reader hands on: text cells plus the row numbers a person sees."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass
class RawTable:
    """A table of text cells. ``rows`` holds each data row's 1-based number in the file."""

    frame: pd.DataFrame
    rows: np.ndarray
    source: str
    sheet: str | None = None
    decimal: str = "."  # the decimal mark of numbers in the file ("," in European CSV)


def normalize_header(name: object) -> str:
    text = str(name).strip().lower().replace("½", "half")
    return re.sub(r"[^0-9a-z]+", "_", text).strip("_")
