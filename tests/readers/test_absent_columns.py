"""A games file without its optional rating columns reads exactly as one whose rating columns
are there and blank (the reader skips parsing a column the file lacks: it must not change the
games it gives, their dtypes or their problems)."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import InputError
from pipeline.readers import read_event_file

HEAD = "event,round,date,white,black,result"
RESULTS = ["1-0", "0-1", "1/2-1/2", "1-O"]  # 1-O: a bad result, so some files have problems


def _read(path):
    try:
        return read_event_file(path).games, []
    except InputError as exc:
        return exc.partial.games if exc.partial is not None else None, exc.problems


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    games=st.lists(
        st.tuples(
            st.integers(1, 3), st.integers(1, 40), st.integers(1, 40), st.sampled_from(RESULTS)
        ),
        min_size=0,
        max_size=12,
    )
)
def test_missing_rating_columns_read_as_blank_ones(tmp_path, games):
    rows = [f"E,{r},2026-11-0{r},{w},{b},{x}" for r, w, b, x in games]
    lacking = tmp_path / "lacking.csv"
    lacking.write_text("\n".join([HEAD, *rows]) + "\n", encoding="utf-8")
    blank = tmp_path / "blank.csv"
    blank.write_text(
        "\n".join([HEAD + ",white_rating,black_rating", *(r + ",," for r in rows)]) + "\n",
        encoding="utf-8",
    )
    got, got_problems = _read(lacking)
    want, want_problems = _read(blank)
    assert [(p.code, p.row, p.column, p.value) for p in got_problems] == [
        (p.code, p.row, p.column, p.value) for p in want_problems
    ]
    if want is None:
        assert got is None
        return
    assert got["white_rating"].dtype == "Int64"
    got = got.assign(source="x")
    want = want.assign(source="x")
    pd.testing.assert_frame_equal(got, want)


def test_a_bad_rating_is_still_reported(tmp_path):
    path = tmp_path / "g.csv"
    path.write_text(HEAD + ",white_rating\nE,1,2026-11-01,1,2,1-0,abc\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_event_file(path)
    [problem] = caught.value.problems
    assert (problem.column, problem.row, problem.value) == ("white_rating", 2, "abc")
