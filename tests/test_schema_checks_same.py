"""The schema checks computed more cheaply (schemas/fast_checks.py, issue 13) catch exactly what
pandera's built-in checks caught: the same failure cases (column, check, row, value, in the
same order) for the same frames, so the reports of bad input are unchanged."""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas import Games
from schemas.games import DATE_SHAPE, HALF_POINTS

DATES = st.one_of(
    st.none(),
    st.sampled_from(["2026-11-01", "2026-1-01", "2026-11-01\n", "x2026-11-01", "٢٠٢٦-١١-٠١"]),
    st.text(alphabet="0123456789-٢\n é", max_size=11),
)
GAMES = st.tuples(
    DATES,
    st.sampled_from(["a", "b", "", "é", None]),
    st.sampled_from(["a", "b", "", None]),
    st.sampled_from([0, 50, 100, 30, -50, 150]),
    st.sampled_from([0, 50, 100, 1]),
)


def games(rows: list[tuple]) -> pd.DataFrame:
    n = len(rows)
    date, white, black, white_h, black_h = zip(*rows, strict=True) if rows else ([],) * 5
    return pd.DataFrame(
        {
            "event": pd.Series(["e"] * n, dtype=str),
            "round": pd.Series(["1"] * n, dtype=str),
            "date": pd.Series(date, dtype="string"),
            "white": pd.Series(white, dtype=str),
            "black": pd.Series(black, dtype=str),
            "result": pd.Series(["1-0"] * n, dtype=str),
            "white_h": pd.Series(white_h, dtype="int64"),
            "black_h": pd.Series(black_h, dtype="int64"),
            "played": pd.Series([True] * n, dtype=bool),
            "white_rating": pd.array([None] * n, dtype="Int64"),
            "black_rating": pd.array([None] * n, dtype="Int64"),
            "line": pd.Series(range(2, n + 2), dtype="int64"),
        }
    )


def failures(schema: pa.DataFrameSchema | type[pa.DataFrameModel], frame: pd.DataFrame) -> list:
    try:
        schema.validate(frame, lazy=True)
    except pa.errors.SchemaErrors as exc:
        cases = exc.failure_cases
        return list(
            zip(
                cases["column"],
                cases["check"],
                cases["index"],
                cases["failure_case"].astype(str),
                strict=True,
            )
        )
    return []


def builtin_games() -> pa.DataFrameSchema:
    """Games as it was: pandera's own str_matches, str_length and isin on every row."""
    schema = Games.to_schema()
    builtin = {
        "date": pa.Check.str_matches(DATE_SHAPE),
        "white": pa.Check.str_length(min_value=1),
        "black": pa.Check.str_length(min_value=1),
        "white_h": pa.Check.isin(HALF_POINTS),
        "black_h": pa.Check.isin(HALF_POINTS),
    }
    for name, check in builtin.items():
        assert len(schema.columns[name].checks) == 1  # the cheaper check it replaces
        schema = schema.update_column(name, checks=[check])
    return schema


@settings(max_examples=150, deadline=None)
@given(st.lists(GAMES, max_size=12))
def test_cheaper_checks_fail_the_rows_the_builtin_checks_fail(rows):
    frame = games(rows)
    assert failures(Games, frame) == failures(builtin_games(), frame)


@pytest.mark.parametrize(
    ("column", "value", "check"),
    [
        ("date", "2026-1-01", "str_matches('^\\d{4}-\\d{2}-\\d{2}$')"),
        ("date", "", "str_matches('^\\d{4}-\\d{2}-\\d{2}$')"),
        ("white", "", "str_length(1, None)"),
        ("white_h", 30, "isin([0, 50, 100])"),
    ],
)
def test_a_bad_value_is_reported_under_the_builtin_name(column, value, check):
    frame = games([("2026-11-01", "a", "b", 100, 0)] * 3)
    frame.loc[1, column] = value
    if column == "white_h":
        frame.loc[1, "played"] = False  # not the sum-to-one-point check as well
    assert failures(Games, frame) == [(column, check, 1, str(value))]
