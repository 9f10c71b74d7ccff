"""Start-up cost: building the pandera models must not import dask.dataframe (2 s), and the
rate command must not import openpyxl unless a spreadsheet is written (checked in a fresh
process, where nothing else has loaded them)."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

CODE = """
import sys
import pipeline.cli
from schemas import Games, Players, RatedSides, RatingList, Sides
for model in (Games, Players, RatedSides, RatingList, Sides):
    model.to_schema()
print("dask.dataframe" in sys.modules, "openpyxl" in sys.modules)
"""


def two_players(**columns: object) -> pd.DataFrame:
    """Two players' rows with ``columns`` as given and the others blank."""
    blank = pd.array([None, None], dtype="Int64")
    return pd.DataFrame(
        {**columns, "k": blank, "birth_year": blank, "games": blank, "ever_2400": [False, False]}
    )


def test_models_build_without_dask_and_cli_without_openpyxl():
    out = subprocess.run(
        [sys.executable, "-c", CODE], check=True, capture_output=True, text=True
    ).stdout.split()
    assert out == ["False", "False"]


def test_schema_still_rejects_bad_values_after_the_shortcut():
    import pandas as pd

    from pipeline.errors import InputError
    from schemas import Players, validate

    frame = two_players(
        id=["1", "1"], name=["A", "B"], rating=pd.array([1500, 4000], dtype="Int64")
    )
    with pytest.raises(InputError) as info:
        validate(frame, Players, "players.csv")
    columns = {p.column for p in info.value.problems}
    assert {"id", "rating"} <= columns


def _columns():
    """Columns a ``Series[str]`` field may meet: pandas' text dtypes (passing, with and
    without missing values, empty), and what must fail (numbers, bools, objects holding a
    non-text value, objects holding text only)."""
    import numpy as np
    import pandas as pd

    return [
        pd.Series(["a", "b"], dtype=str),
        pd.Series(["a", None], dtype=str),
        pd.Series([], dtype=str),
        pd.Series(["2026-11-01", None], dtype="string"),
        pd.Series(["a"], dtype=pd.StringDtype("python")),
        pd.Series([1, 2], dtype="int64"),
        pd.Series([1, None], dtype="Int64"),
        pd.Series([1.5, np.nan]),
        pd.Series([True, False]),
        pd.Series(["a", 1], dtype=object),
        pd.Series(["a", "b"], dtype=object),
        pd.Series([], dtype=object),
        pd.Series(pd.to_datetime(["2026-11-01"])),
    ]


@pytest.mark.parametrize("column", _columns(), ids=lambda c: str(c.dtype))
def test_text_dtype_check_gives_pandera_verdict(column):
    """The whole-column answer (schemas/check.py) passes and fails exactly the columns
    pandera's own check passes and fails, with the same failing rows."""
    import numpy as np
    from pandera.engines.pandas_engine import STRING, Engine

    import schemas  # noqa: F401  (installs the whole-column answer)

    text = Engine.dtype(str)
    assert isinstance(text, STRING)
    found = Engine.dtype(column.dtype)
    ours = STRING.check(text, found, column)
    pandera_s = STRING.check.__wrapped__(text, found, column)
    if isinstance(pandera_s, np.ndarray) and pandera_s.all():
        assert ours is True  # one True per row: the column passes
    else:  # any other answer is pandera's own, rows and all
        assert type(ours) is type(pandera_s)
        assert np.array_equal(np.asarray(ours), np.asarray(pandera_s))


def test_text_column_that_passes_gets_one_verdict():
    """A text column of pandas' text dtype passes with one ``True``: pandera then builds no
    failure report for it (a frame and its print, for each text column at each boundary)."""
    import pandas as pd
    from pandera.engines.pandas_engine import Engine

    import schemas  # noqa: F401

    for column in (pd.Series(["a", None], dtype=str), pd.Series(["a"], dtype="string")):
        assert Engine.dtype(str).check(Engine.dtype(column.dtype), column) is True


def test_text_column_of_wrong_dtype_still_fails_validation():
    import pandas as pd

    from pipeline.errors import InputError
    from schemas import Players, validate

    frame = two_players(
        id=pd.Series(["1", 2], dtype=object),
        name=pd.Series([1, 2], dtype="int64"),
        rating=pd.array([1500, 1600], dtype="Int64"),
    )
    with pytest.raises(InputError) as info:
        validate(frame, Players, "players.csv")
    failed = {(p.column, p.value) for p in info.value.problems}
    assert ("id", "2") in failed
    assert {("name", "1"), ("name", "2")} <= failed
