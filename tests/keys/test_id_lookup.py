"""The id look-up built once per list (issue 13) gives exactly the rows the per-call Arrow hash
look-up gives, for numeric lists (the fast path) and any other list (the fallback)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.arrays.arrow_text import arrow_text
from pipeline.keys.frame_lookup import positions
from pipeline.keys.id_lookup import IdLookup, canonical_numbers, take_rows
from pipeline.model import PlayerList

# Ids that look alike as numbers but are different texts: a look-up must never confuse them.
numeric = st.integers(0, 10**18 - 1).map(str)
tricky = st.sampled_from(
    [
        "",
        "0",
        "00",
        "007",
        "7",
        "-7",
        "+7",
        " 7",
        "7 ",
        "1e3",
        "1000",
        "9" * 18,
        "9" * 19,
        "99999999999999999999",
        "x",
        "é",
    ]
)
anything = st.text(alphabet="0123456789ab -", max_size=6)


def series(values: list[str]) -> pd.Series:
    return pd.Series(values, dtype=str)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(numeric | tricky, min_size=1, max_size=40),
    st.lists(numeric | tricky | anything, max_size=40),
)
def test_same_rows_as_the_arrow_lookup(listed, asked):
    listed = list(dict.fromkeys(listed))  # a list's ids are unique
    want = positions(series(asked), series(listed))
    got = IdLookup(series(listed)).positions(series(asked))
    assert got.dtype == np.int64
    assert got.tolist() == want.tolist()


def test_numeric_list_takes_the_sorted_path_and_repeats_answer_alike():
    listed = series(["4100018", "25", "0", "999999999999999999", "1503014"])
    lookup = IdLookup(listed)
    assert lookup._sorted is not None  # every id canonical: parsed once, binary search
    asked = series(["25", "025", "1503014", "4100018.0", "", "999999999999999999", "7", "0"])
    assert lookup.positions(asked).tolist() == [1, -1, 4, -1, -1, 3, -1, 2]
    assert lookup.positions(asked).tolist() == lookup.positions(asked).tolist()


def test_canonical_numbers_are_exact():
    values, ok = canonical_numbers(
        arrow_text(series(["0", "12", "012", "999999999999999999", "-1"]))
    )
    assert ok.tolist() == [True, True, False, True, False]
    assert values.tolist() == [0, 12, 0, 999_999_999_999_999_999, 0]


def test_player_list_builds_its_lookup_once_per_frame():
    frame = pd.DataFrame({"id": series(["10", "20", "30"])})
    players = PlayerList("list.csv", frame)
    assert players.positions(series(["30", "10", "40"])).tolist() == [2, 0, -1]
    first = players._lookup
    players.positions(series(["20"]))
    assert players._lookup is first  # reused
    players.players = pd.DataFrame({"id": series(["30", "10"])})
    assert players.positions(series(["30", "10", "20"])).tolist() == [0, 1, -1]  # rebuilt


@settings(max_examples=100, deadline=None)
@given(
    st.lists(numeric | tricky, min_size=1, max_size=20, unique=True),
    st.lists(numeric | tricky, max_size=20),
    st.sampled_from(["int64", "Int64", "str", "float64"]),
)
def test_take_rows_is_reindex_by_id(listed, asked, dtype):
    values = pd.Series([i * 7 for i in range(len(listed))]).astype(dtype)
    if dtype == "Int64":
        values.iloc[0] = pd.NA
    frame = pd.DataFrame({"id": series(listed), "value": values})
    want = frame.set_index("id")["value"].reindex(pd.Index(asked, dtype=str))
    got = take_rows(frame["value"], IdLookup(frame["id"]).positions(pd.Series(asked, dtype=str)))
    assert got.dtype == want.dtype
    assert got.astype(str).tolist() == want.astype(str).tolist()


def test_same_ids_only_for_the_same_ids_in_the_same_order():
    from pipeline.keys.id_lookup import same_ids

    ids = pd.Series(["5", "12", "7"], dtype=str)
    assert same_ids(ids, pd.Index(["5", "12", "7"]))
    assert not same_ids(ids, pd.Series(["5", "7", "12"], dtype=str))
    assert not same_ids(ids, pd.Series(["5", "12"], dtype=str))
    assert not same_ids(ids, pd.Series(["5", "12", None], dtype=str))


@settings(max_examples=200, deadline=None)
@given(st.lists(numeric | tricky, max_size=40))
def test_distinct_counts_what_nunique_counts(listed):
    # Repeats allowed here: a list read before its duplicate check may hold some.
    assert IdLookup(series(listed)).distinct() == series(listed).nunique(dropna=False)
