"""A list month's files made by columns are the bytes of making them a row at a time: its four
downloads are the period run's writers' files (the XML a line a player, every value escaped),
its page's players sorted as pandas sorts them, its new players' items what the template's
loop wrote, on any text (markup, quotes, control characters, accents, beyond the BMP)."""

from __future__ import annotations

import io
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape

import pandas as pd
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import Environment

from pipeline.lists.list_columns import LIST_TEXT_COLUMNS
from pipeline.rules import sexes
from pipeline.site import pages
from pipeline.site.addresses import player_page, relative
from pipeline.site.downloads import XML_FIELDS, list_downloads
from pipeline.site.history_data import SiteData, plain
from pipeline.site.pages import _by_rating
from pipeline.site.render import TEMPLATES, environment, html_bytes
from pipeline.site.row_table import RowTable, player_pages
from pipeline.writers.list_text_files import write_list_text_files
from pipeline.writers.table_files import write_list_xlsx
from pipeline.writers.text.fide_txt import WOMEN_TITLES
from pipeline.writers.text.list_text import list_text_table
from pipeline.writers.xlsx.cell_types import (
    NUMBER_COLUMNS,
    WHOLE_COLUMNS,
    cell_value,
    is_text_column,
)

HOSTILE = list("\"\\'<>&/;,\x00\x01\x1f\x7f\u2028 é0a-_.=+@\t\r\n")
TEXT = st.text(
    alphabet=st.one_of(st.sampled_from(HOSTILE), st.characters(exclude_categories=["Cs"])),
    max_size=8,
)
NUMBER = st.one_of(st.none(), st.integers(0, 3000))
PLAYER = st.fixed_dictionaries({
    "id": st.text(alphabet="0123456789ab-#", min_size=1, max_size=9),
    "name": TEXT,
    "federation": st.sampled_from(["GER", "FID", "", "A&B", "<x>"]),
    "sex": st.sampled_from(["m", "w", "f", "M", "F", "", "x"]),
    "title": st.sampled_from(["", "GM", "WGM", "wim", "FM", "<b>"]),
    "birth_year": NUMBER,
    "rating": NUMBER,
    "period_games": NUMBER,
    "games": NUMBER,
    "k": st.sampled_from([None, 10, 20, 40]),
    "ever_2400": st.booleans(),
    "flags": st.sampled_from(["", "i", "wi", "w", "&"]),
    "last_played": st.sampled_from(["", "2026-11", "<2026>"]),
})  # fmt: skip
INTS = ("birth_year", "rating", "period_games", "games", "k")


def _list(players: list[dict[str, object]]) -> pd.DataFrame:
    """A month's list as :meth:`SiteData.frame` holds it (text, nullable integers), by id."""
    frame = pd.DataFrame(players, columns=list(LIST_TEXT_COLUMNS))
    frame = frame.drop_duplicates("id").sort_values("id").reset_index(drop=True)
    return frame.astype({**{c: "str" for c in frame.columns}, **dict.fromkeys(INTS, "Int64"),
                         "ever_2400": bool})  # fmt: skip


def _xml_reference(text: pd.DataFrame) -> bytes:
    """FIDE's XML a player at a time, from the text table: titles split (a women's title in
    WTit), sex as F or M, a blank number as 0, every value escaped."""
    lines = []
    for row in text.to_dict("records"):
        women = str(row["title"]).upper() in WOMEN_TITLES
        sex = str(row["sex"]).lower()
        cells = {
            **row,
            "title": "" if women else row["title"],
            "w_title": row["title"] if women else "",
            "o_title": "",
            "foa_title": "",
            "sex": "F" if sex in sexes.FEMALE else "M" if sex in sexes.MALE else "",
            **{c: row[c] or "0" for c in ("rating", "period_games", "k", "birth_year")},
        }
        fields = "".join(f"<{tag}>{xml_escape(str(cells[c]))}</{tag}>" for tag, c in XML_FIELDS)
        lines.append(f"<player>{fields}</player>\n")
    return ("<playerslist>\n" + "".join(lines) + "</playerslist>\n").encode()


@settings(max_examples=60, deadline=None)
@given(st.lists(PLAYER, max_size=12))
def test_the_downloads_are_the_period_writers_files(tmp_path_factory, players):
    frame = _list(players)
    text = list_text_table(frame[list(LIST_TEXT_COLUMNS)])
    folder = tmp_path_factory.mktemp("list")
    write_list_text_files(LIST_TEXT_COLUMNS, [text], folder / "l.csv", folder / "l.txt", "NOV26")
    write_list_xlsx(text, folder / "l.xlsx")
    found = list_downloads(frame, "2026-11")
    for layout in ("csv", "txt", "xlsx"):
        assert found[layout] == (folder / f"l.{layout}").read_bytes(), layout
    assert found["xml"] == _xml_reference(text)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(0, 5)),
            st.one_of(st.none(), TEXT),
            st.text(alphabet="ab1é", max_size=3),
        ),  # fmt: skip
        max_size=12,
        unique_by=lambda row: row[2],
    )
)
def test_by_rating_is_pandas_sort(rows):
    frame = pd.DataFrame(rows, columns=["rating", "name", "id"])
    frame = frame.astype({"rating": "Int64", "name": "str", "id": "str"})
    want = frame.sort_values(["rating", "name", "id"], ascending=[False, True, True],
                             kind="stable", na_position="last")  # fmt: skip
    pd.testing.assert_frame_equal(_by_rating(frame), want)


# The list page's loops as its template wrote them before the items were made by columns.
LOOPS = {
    True: '{% for p in rows %}<li><a href="{{ p.href|href }}">{{ p.name }}</a> {{ p.id }}, '
    "first rating {{ p.rating }}</li>{% endfor %}",
    False: '{% for p in rows %}<li><a href="{{ p.href|href }}">{{ p.name }}</a> {{ p.id }}'
    "</li>{% endfor %}",
}


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(TEXT, st.one_of(st.none(), TEXT), NUMBER), max_size=6),
    st.booleans(),
    st.sampled_from(["lists/standard/2026-11.html", "index.html"]),
)
def test_new_players_items_are_the_template_loops(rows, first_rating, page):
    frame = pd.DataFrame(rows, columns=["id", "name", "rating"])
    frame = frame.astype({"id": "str", "name": "str", "rating": "Int64"})
    frame = frame.assign(href=player_pages(frame["id"]))
    env = Environment(autoescape=True)
    env.filters["href"] = lambda target: relative(target, page)
    want = env.from_string(LOOPS[first_rating]).render(rows=plain(frame, list(frame.columns)))
    made = environment().from_string("{{ rows|new_items(first) }}")
    rows = RowTable(pa.Table.from_pandas(frame, preserve_index=False))
    assert made.render(rows=rows, first=first_rating, page=page) == want
    assert all(href == player_page(i) for href, i in zip(frame["href"], frame["id"], strict=True))


COLUMNS = sorted({*NUMBER_COLUMNS, *WHOLE_COLUMNS, "result", "id", "name", "label", "flags"})


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(COLUMNS), st.one_of(TEXT, st.sampled_from(["", "1", "-2.50", "½"])))
def test_a_text_column_types_every_text_as_itself(column, text):
    if is_text_column(column):
        assert cell_value(column, text) == (None if text == "" else text)


def test_the_xlsx_of_an_empty_list_is_the_writers(tmp_path: Path):
    frame = _list([])
    text = list_text_table(frame[list(LIST_TEXT_COLUMNS)])
    write_list_xlsx(text, tmp_path / "l.xlsx")
    assert list_downloads(frame, "2026-11")["xlsx"] == (tmp_path / "l.xlsx").read_bytes()
    assert io.BytesIO(list_downloads(frame, "2026-11")["xml"]).read() == _xml_reference(text)


def test_a_list_page_is_its_template_rendered_whole(two_months):
    """The rows' blocks spliced into a list page's bytes (render.html_bytes) are the page its
    template renders in one piece, hostile names and all."""
    data = SiteData.open(two_months)
    try:
        for kind in data.kinds():
            for month in data.months_of(kind):
                context = pages.list_month(data, kind, month.month)
                assert context is not None
                page = environment().get_template(TEMPLATES["list"])
                whole = page.render(**context, face="static", site_kinds=data.kinds())
                assert html_bytes("list", context, "static", data.kinds()) == whole.encode()
    finally:
        data.close()
