"""The table every tabular reader hands on: text cells plus the row numbers a person sees."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pipeline.arrays.arrow_text import repeat_text


@dataclass
class RawTable:
    """A table of text cells. ``rows`` holds each data row's 1-based number in the file."""

    frame: pd.DataFrame
    rows: np.ndarray
    source: str
    sheet: str | None = None
    decimal: str = "."  # the decimal mark of numbers in the file ("," in European CSV)
    # Several files' tables one after another (``concat_tables``): each file's name and number
    # of rows, in order; None for one file's table (``source``).
    parts: tuple[tuple[str, int], ...] | None = None

    def sources_at(self, positions: np.ndarray) -> list[str]:
        """The file each of these rows (positions in ``frame``) comes from."""
        if self.parts is None:
            return [self.source] * len(positions)
        names = [name for name, _ in self.parts]
        ends = np.cumsum([rows for _, rows in self.parts])
        return [names[i] for i in np.searchsorted(ends, positions, side="right").tolist()]

    def count_sources(self, positions: np.ndarray) -> dict[str, int]:
        """How many of these rows (positions in ``frame``) each file holds (files without any
        left out)."""
        if not len(positions):
            return {}
        if self.parts is None:
            return {self.source: len(positions)}
        ends = np.cumsum([rows for _, rows in self.parts])
        counts = np.bincount(
            np.searchsorted(ends, positions, side="right"), minlength=len(self.parts)
        )
        found: dict[str, int] = {}
        for (name, _), count in zip(self.parts, counts.tolist(), strict=True):
            if count:
                found[name] = found.get(name, 0) + count
        return found

    def row_sources(self, name: Callable[[str], str] = str) -> pd.Series:
        """``name`` of the file of every row (a str Series)."""
        parts = self.parts or ((self.source, len(self.frame)),)
        return repeat_text([name(source) for source, _ in parts], [rows for _, rows in parts])


def concat_tables(tables: list[RawTable]) -> RawTable:
    """The tables of several files (the same columns and decimal mark) as one table whose rows
    still name their file (``parts``): cells are parsed and checked once for all of them."""
    frame = pd.concat([t.frame for t in tables], ignore_index=True)
    rows = np.concatenate([np.asarray(t.rows, dtype=np.int64) for t in tables])
    parts = tuple((t.source, len(t.frame)) for t in tables)
    return RawTable(frame, rows, tables[0].source, decimal=tables[0].decimal, parts=parts)


def normalize_header(name: object) -> str:
    text = str(name).strip().lower().replace("½", "half")
    return re.sub(r"[^0-9a-z]+", "_", text).strip("_")
