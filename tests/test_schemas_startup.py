"""Start-up cost: building the pandera models must not import dask.dataframe (2 s), and the
rate command must not import openpyxl unless a spreadsheet is written (checked in a fresh
process, where nothing else has loaded them)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CODE = """
import sys
import pipeline.cli
from schemas import Games, Players, RatedSides, RatingList, Sides
for model in (Games, Players, RatedSides, RatingList, Sides):
    model.to_schema()
print("dask.dataframe" in sys.modules, "openpyxl" in sys.modules)
"""


def test_models_build_without_dask_and_cli_without_openpyxl():
    out = subprocess.run(
        [sys.executable, "-c", CODE], check=True, capture_output=True, text=True
    ).stdout.split()
    assert out == ["False", "False"]


def test_schema_still_rejects_bad_values_after_the_shortcut():
    import pandas as pd

    from pipeline.errors import InputError
    from schemas import Players, validate

    frame = pd.DataFrame(
        {
            "id": ["1", "1"],
            "name": ["A", "B"],
            "rating": pd.array([1500, 4000], dtype="Int64"),
            "k": pd.array([None, None], dtype="Int64"),
            "birth_year": pd.array([None, None], dtype="Int64"),
            "games": pd.array([None, None], dtype="Int64"),
            "ever_2400": [False, False],
        }
    )
    with pytest.raises(InputError) as info:
        validate(frame, Players, "players.csv")
    columns = {p.column for p in info.value.problems}
    assert {"id", "rating"} <= columns
