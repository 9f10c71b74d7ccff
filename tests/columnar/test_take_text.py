"""``take_text`` and ``repeat_text`` build Arrow's buffers themselves: each against Arrow's own
``take`` (the oracle), on every string type, slices and cells of one or of many widths."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.columnar.arrow import repeat_text, take_text

cells = st.text(alphabet=st.sampled_from(list("ab1½é,")), max_size=4)
# One width (the fast path) as often as several: cells drawn from one fixed-size pool.
fixed = st.sampled_from(["", "4100001", "½é", "x"]).flatmap(
    lambda w: st.lists(st.just(w) | st.sampled_from([w[::-1], w.upper()]), min_size=1)
)


@settings(max_examples=80, deadline=None)
@given(
    values=st.one_of(st.lists(cells, min_size=1, max_size=8), fixed),
    kind=st.sampled_from([pa.string(), pa.large_string()]),
    skip=st.integers(0, 2),
    data=st.data(),
)
def test_take_text_is_arrows_take(values, kind, skip, data):
    text = pa.array(values, kind).slice(min(skip, len(values) - 1))
    at = data.draw(st.lists(st.integers(0, len(text) - 1), max_size=20))
    at = np.array(at, dtype=np.int64)
    taken = take_text(text, at)
    taken.validate(full=True)
    assert taken.type == kind
    assert taken.equals(text.take(pa.array(at, pa.int64())))


def test_take_text_of_chunks_and_nulls():
    chunks = pa.chunked_array([["4100001", "4100002"], ["4100003"]])
    assert take_text(chunks, np.array([2, 0])).to_pylist() == ["4100003", "4100001"]
    with_null = pa.array(["ab", None, "cd"])
    assert take_text(with_null, np.array([1, 2])).to_pylist() == [None, "cd"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(cells, st.integers(0, 4)), max_size=6))
def test_repeat_text(parts):
    values, counts = [v for v, _ in parts], [c for _, c in parts]
    got = repeat_text(values, counts)
    assert got.tolist() == [v for v, c in parts for _ in range(c)]
    assert got.dtype == "str"


@pytest.mark.parametrize("width", [0, 3])
def test_take_text_fixed_width_many(width):
    text = pa.array(["abc"[:width], "xyz"[:width]] * 5)
    at = np.arange(1000, dtype=np.int64) % 10
    assert take_text(text, at).equals(text.take(pa.array(at)))
