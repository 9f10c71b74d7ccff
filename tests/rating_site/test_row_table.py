"""A list page's rows made by columns (pipeline/site/row_table.py) are the bytes of making them a
row at a time: the JSON array is ``json.dumps`` of the rows as dicts, each HTML cell Jinja's
autoescape (``markupsafe.escape``), each link :func:`addresses.player_page`, on any text
(quotes, backslashes, control characters, markup, accents, characters beyond the BMP)."""

from __future__ import annotations

import json

import pandas as pd
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import escape

from pipeline.site.addresses import player_page
from pipeline.site.history_data import plain
from pipeline.site.row_table import RowTable, html_text, json_array, number_text, player_pages

TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("\"\\'<>&/\x00\x01\x1f\x7f\u2028 é0a-_.")),
        st.characters(exclude_categories=["Cs"]),  # no lone surrogate: lists are UTF-8
    ),
    max_size=8,
)
ROW = st.fixed_dictionaries({
    "id": TEXT,
    "name": st.one_of(st.none(), TEXT),
    "rating": st.one_of(st.none(), st.integers(-(2**40), 2**40)),
    "new": st.booleans(),
})  # fmt: skip


def _frame(rows: list[dict[str, object]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["id", "name", "rating", "new"])
    return frame.astype({"id": "str", "name": "str", "rating": "Int64", "new": bool})


@settings(max_examples=300, deadline=None)
@given(st.lists(ROW, max_size=6))
def test_the_json_array_is_json_dumps_of_the_rows(rows):
    frame = _frame(rows)
    expected = json.dumps(plain(frame, list(frame.columns)), ensure_ascii=False,
                          separators=(",", ":"))  # fmt: skip
    assert json_array(RowTable(pa.Table.from_pandas(frame, preserve_index=False))) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(ROW, max_size=6))
def test_html_cells_are_jinja_autoescape_and_links_player_page(rows):
    frame = _frame(rows)
    names = frame["name"].astype(object).where(frame["name"].notna(), None)
    assert html_text(frame["name"]).to_pylist() == [str(escape(v)) for v in names]
    assert html_text(frame["id"]).to_pylist() == [str(escape(v)) for v in frame["id"]]
    ratings = frame["rating"].astype(object).where(frame["rating"].notna(), None)
    assert number_text(frame["rating"]).to_pylist() == ["" if v is None else str(v)
                                                       for v in ratings]  # fmt: skip
    assert player_pages(frame["id"]).tolist() == [player_page(v) for v in frame["id"]]
