"""report.html's rows built column-wise (issue 35) are the rows built one by one with
``html.escape``: any text, the five HTML specials, blanks, unrated games."""

from __future__ import annotations

import html

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.rules.signs import signed
from pipeline.writers.html.report_page import (
    SIGNED,
    _esc,
    _games_head,
    _text_class,
    game_rows_html,
)

TEXT = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["", "a&b", "<i>", "\"q'", "1.50", "½", "0.00", "0", "-0.36", "+3", "400"]),
)


@settings(max_examples=80, deadline=None)
@given(st.lists(TEXT, max_size=12))
def test_escaping_by_columns_is_html_escape(texts):
    assert _esc(pd.Series(texts, dtype=str)).tolist() == [html.escape(t) for t in texts]


@st.composite
def breakdowns(draw: st.DrawFn) -> pd.DataFrame:
    n = draw(st.integers(0, 8))
    keys = [key for key, _, _ in _games_head(pd.DataFrame())]
    columns = {key: [draw(TEXT) for _ in range(n)] for key in keys}
    columns["opponent"] = [draw(TEXT) for _ in range(n)]
    columns["rated"] = [draw(st.sampled_from(["yes", "no"])) for _ in range(n)]
    return pd.DataFrame(columns, index=range(n), dtype=str)


def shown(key: str, text: str) -> str:
    """A cell's text as the page shows it: a difference signed as every face signs it."""
    return signed(text) if key in SIGNED else text


def one_by_one(row: dict[str, str], head: list[tuple[str, str, str]]) -> str:
    name = row["opponent_name"] or row["opponent"] or "-"
    cells = "".join(
        f'<td class="{_text_class(key, cls)}">'
        f"{html.escape(name if key == 'opponent_name' else shown(key, row[key]))}</td>"
        for key, _, cls in head
    )
    return ("<tr>" if row["rated"] == "yes" else '<tr class="unrated">') + cells + "</tr>"


@settings(max_examples=60, deadline=None)
@given(breakdowns())
def test_game_rows_by_columns_are_the_rows_one_by_one(breakdown):
    head = _games_head(breakdown)
    expected = [one_by_one(row, head) for row in breakdown.to_dict("records")]
    assert game_rows_html(breakdown).tolist() == expected
