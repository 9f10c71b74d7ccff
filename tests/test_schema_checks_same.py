"""The schema checks computed more cheaply (schemas/fast_checks.py, issue 13) catch exactly what
pandera's built-in checks caught: the same failure cases (column, check, row, value, in the
same order) for the same frames, so the reports of bad input are unchanged."""

from __future__ import annotations

import functools

import pandas as pd
import pandera.pandas as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas import Games
from schemas.games import DATE_SHAPE, HALF_POINTS
from schemas.sides import ENGINE_COLUMNS, EngineOutput, RatedSides

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
    st.sampled_from([None, 0, 1, 2000, 3500, 3501, -7]),
)


def games(rows: list[tuple]) -> pd.DataFrame:
    n = len(rows)
    date, white, black, white_h, black_h, rating = zip(*rows, strict=True) if rows else ([],) * 6
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
            "white_rating": pd.array(rating, dtype="Int64"),
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


@functools.cache  # built once: the examples only validate with it
def builtin_games() -> pa.DataFrameSchema:
    """Games as it was: pandera's own str_matches, str_length, isin, ge and le on every row."""
    schema = Games.to_schema()
    builtin = {
        "date": [pa.Check.str_matches(DATE_SHAPE)],
        "white": [pa.Check.str_length(min_value=1)],
        "black": [pa.Check.str_length(min_value=1)],
        "white_h": [pa.Check.isin(HALF_POINTS)],
        "black_h": [pa.Check.isin(HALF_POINTS)],
        "white_rating": [pa.Check.ge(1), pa.Check.le(3500)],
        "black_rating": [pa.Check.ge(1), pa.Check.le(3500)],
    }
    return with_checks(schema, builtin)


def with_checks(schema: pa.DataFrameSchema, checks: dict) -> pa.DataFrameSchema:
    for name, replaced in checks.items():
        assert len(schema.columns[name].checks) == len(replaced)  # the cheaper checks
        schema = schema.update_column(name, checks=replaced)
    return schema


# Each example is two lazy pandera validations, whose cost is mostly per call, not per row:
# fewer, longer frames (up to 30 rows) check more rows, and more rows failing together, for
# about a third of the time 150 frames of up to 12 rows took.
@settings(max_examples=60, deadline=None)
@given(st.lists(GAMES, max_size=30))
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
        ("white_rating", 0, "greater_than_or_equal_to(1)"),
        ("white_rating", 3501, "less_than_or_equal_to(3500)"),
    ],
)
def test_a_bad_value_is_reported_under_the_builtin_name(column, value, check):
    frame = games([("2026-11-01", "a", "b", 100, 0, None)] * 3)
    frame.loc[1, column] = value
    if column == "white_h":
        frame.loc[1, "played"] = False  # not the sum-to-one-point check as well
    assert failures(Games, frame) == [(column, check, 1, str(value))]


@functools.cache
def builtin_engine() -> pa.DataFrameSchema:
    """EngineOutput as it was: pandera's own ge(0) on pd_units."""
    return with_checks(EngineOutput.to_schema(), {"pd_units": [pa.Check.ge(0)]})


@functools.cache
def rated_sides_engine_columns() -> pa.DataFrameSchema:
    return RatedSides.to_schema().select_columns(ENGINE_COLUMNS)


ENGINE = st.tuples(st.booleans(), st.sampled_from([None, -1, 0, 5]))


# Eight kinds of row (rated or not, four pd_units): 30 lists of up to 30 of them cover each
# kind at each position many times over (each example is three lazy pandera validations, whose
# cost is per call rather than per row).
@settings(max_examples=30, deadline=None)
@given(st.lists(ENGINE, max_size=30))
def test_pd_units_fail_the_rows_ge_fails(rows):
    rated, units = zip(*rows, strict=True) if rows else ([], [])
    frame = pd.DataFrame(
        {
            "rated": pd.Series(rated, dtype=bool),
            "note": pd.Series(["" if r else "why" for r in rated], dtype=str),
            "diff": pd.array(units, dtype="Int64"),
            "pd_units": pd.array(units, dtype="Int64"),
            "dev_units": pd.array(units, dtype="Int64"),
        }
    )
    expected = failures(builtin_engine(), frame)
    assert failures(EngineOutput, frame) == expected
    assert failures(rated_sides_engine_columns(), frame) == expected
