"""A page's context rendered two ways: HTML through the site's Jinja2 templates (autoescaped:
a name from a file is text, never markup) and JSON, both as bytes, the same for the same
context (the static site is byte-identical from the same history).

``face`` is ``static`` (the files of ``fiderate site``) or ``live`` (``fiderate serve``): it
changes only the search form (the live one asks the server's ``/history/search``) and the link
back to the history. Links are made relative to the page (:func:`addresses.relative`), so the
same pages work from any folder of a web server and from ``file://``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from jinja2.filters import do_urlencode
from markupsafe import Markup, escape

from pipeline.arrays.arrow_text import join_pieces
from pipeline.rules.sexes import sex_words
from pipeline.rules.signs import signed
from pipeline.site import addresses as at
from pipeline.site.row_table import (
    RowTable,
    html_text,
    joined_text,
    json_array_bytes,
    number_text,
)
from pipeline.writers.text.csvtext import block_bytes

HERE = Path(__file__).parent
TEMPLATES = {
    "home": "site_home.html",
    "list": "site_list.html",
    "top": "site_top.html",
    "player": "site_player.html",
    "calculation": "site_calculation.html",
    "search": "site_search.html",
}


@pass_context
def _href(context: Any, target: str) -> str:
    return at.relative(target, context["page"])


def _chart(kind: dict[str, Any]) -> Markup:
    """A profile kind's step chart of its changes (:func:`rating_chart.step_chart`)."""
    from pipeline.site.rating_chart import step_chart

    return step_chart([(str(m), int(r)) for m, r in kind["points"]], kind["until"])


def _blank(value: Any) -> Any:
    return "" if value is None else value


@pass_context
def _list_rows(context: Any, players: RowTable) -> Markup:
    """A list page's table body, made by columns (:mod:`.row_table`): each column's cells
    escaped once as Jinja's autoescape does, then the rows joined element-wise (a list month
    of 50,000 players is the site's largest page, 72 of them at 24 months of three kinds)."""
    frame = players.frame
    if len(frame) == 0:
        return Markup("")
    up = "../" * str(context["page"]).count("/")
    change = pa.array(frame["change"], pa.int64(), from_pandas=True)
    # ``signed`` of a whole number: "+" before a positive one. A first rating has no change:
    # the change report's words ("first rating") instead.
    text = pc.cast(change, pa.string())
    text = pc.if_else(pc.greater(change, 0), pc.binary_join_element_wise("+", text, ""), text)
    words = html_text(frame["change_words"])
    shown = pc.if_else(pc.is_null(change), words, text)
    new = pc.if_else(pa.array(frame["first_rating"] | frame["new"]), ' class="new"', "")
    cells = [
        "<tr", new, '><td class="text name"><a href="', up, html_text(frame["href"]), '">',
        html_text(frame["name"]), '</a></td><td class="wide">', html_text(frame["id"]),
        "</td><td>", html_text(frame["federation"]), '</td><td class="wide">',
        html_text(frame["title"]), "</td><td>", number_text(frame["rating"]), "</td><td>",
        shown, "</td><td>", number_text(frame["period_games"]), '</td><td class="wide">',
        number_text(frame["k"]), '</td><td class="wide">', number_text(frame["birth_year"]),
        '</td><td class="wide">', html_text(frame["flags"]), "</td></tr>",
    ]  # fmt: skip
    # ``up`` apart from the link: escaping is character by character and "../" has nothing
    # to escape, so this is the escape of the whole address.
    return _block(context, join_pieces(cells))


@pass_context
def _new_items(context: Any, players: RowTable, first_rating: bool) -> Markup:
    """A list page's new players as list items, made by columns as :func:`_list_rows`: the
    link to the profile and the name, the id, and with ``first_rating`` the first rating
    (a blank reads "None", as the template's ``{{ p.rating }}`` wrote it)."""
    frame = players.frame
    if len(frame) == 0:
        return Markup("")
    up = "../" * str(context["page"]).count("/")
    pieces: list[pa.Array | str] = [
        '<li><a href="', up, html_text(frame["href"]), '">', html_text(frame["name"]), "</a> ",
        html_text(frame["id"]),
    ]  # fmt: skip
    if first_rating:
        rating = pc.cast(pa.array(frame["rating"], pa.int64(), from_pandas=True), pa.string())
        pieces += [", first rating ", pc.fill_null(rating, "None")]
    return _block(context, join_pieces([*pieces, "</li>"]))


def _lists(row: dict[str, Any]) -> str:
    """The lists a profile row stands for: "since M" while it runs on the latest list."""
    if row["until"] is None:
        return f"since {row['month']}"
    return row["month"] if row["until"] == row["month"] else f"{row['month']} to {row['until']}"


@lru_cache(maxsize=1 << 14)
def _text(value: str) -> str:
    """``escape`` of a profile row's text: months, scores and K rules repeat across 50,000
    profiles, so each is escaped once."""
    return str(escape(value))


@pass_context
def _period_rows(context: Any, kind: dict[str, Any]) -> Markup:
    """A profile kind's table body, newest row first, one f-string a row (as
    :func:`_list_rows`: 50,000 profiles): the lists, rating, change (the stored one, else the
    difference), games, score, the K that rated them and the period's calculation link (the
    live face links the history's calculation page)."""
    up = "../" * str(context["page"]).count("/")
    live = context["face"] == "live"
    player_id = context["player"]["id"]
    rows = []
    for r in reversed(kind["periods"]):
        change = r["change"] if r["change"] is not None else r["difference"]
        k = ""
        if r["k_used"] is not None:
            k = f'<abbr title="{_text(r["k_rule"])}">{r["k_used"]}</abbr>'

        period = _text(_blank(r["period"]))
        if r["calculation_href"]:
            if live:
                query = do_urlencode({"id": player_id, "period": r["period"], "kind": kind["kind"]})
                href = escape(f"/history/calculation?{query}")
            else:
                href = escape(up + r["calculation_href"])
            period = Markup(f'<a class="calculation" href="{href}">{period}</a>')
        rows.append(
            f'<tr><td class="text">{_text(_lists(r))}</td><td>{_blank(r["rating"])}</td>'
            f"<td>{'' if change is None else signed(change)}</td><td>{_blank(r['games'])}</td>"
            f'<td>{_text(r["score"] or "")}</td><td>{k}</td><td class="text">{period}</td></tr>'
        )
    return Markup("".join(rows))


class _SiteEnvironment(Environment):
    """The site's contexts are plain dicts: ``r.month`` is looked up as a key first (Jinja's
    own order tries the attribute first, an ``AttributeError`` raised and caught per cell:
    half the time of a list page's render). The templates call no dict method."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = _SiteEnvironment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"], default=True),
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # the templates are the package's: no stat of each per page
    )
    env.filters["href"] = _href
    env.filters["json_address"] = at.json_of
    env.filters["chart"] = _chart
    env.filters["signed"] = signed  # a difference with its sign, as every face shows it
    env.filters["sex_words"] = sex_words  # "Female", "Male": FIDE's profile words
    env.filters["list_rows"] = _list_rows
    env.filters["new_items"] = _new_items
    env.filters["period_rows"] = _period_rows
    return env


def html_bytes(template: str, context: dict[str, Any], face: str, kinds: tuple[str, ...]) -> bytes:
    page = environment().get_template(TEMPLATES[template])
    blocks: list[bytes] = []
    text = page.render(**context, face=face, site_kinds=kinds, row_blocks=blocks)
    if not blocks:
        return text.encode("utf-8")
    # The blocks of rows go in as the UTF-8 Arrow made them, where their marks are (a list
    # month's rows are most of its page: no text of them decoded, then encoded again).
    parts = text.split(_BLOCK_MARK)
    out = [parts[0].encode("utf-8")]
    for block, part in zip(blocks, parts[1:], strict=True):
        out += [block, part.encode("utf-8")]
    return b"".join(out)


# Where a block of rows goes in a page's text: markup no name can hold (autoescape writes a
# "<" of a name as "&lt;") and no template writes.
_BLOCK_MARK = "<fiderate-rows/>"


def _block(context: Any, rows: pa.Array) -> Markup:
    """Rows joined by Arrow (no blank) as a page's markup: in :func:`html_bytes`, a mark and
    the rows' bytes kept aside; rendered elsewhere, their text."""
    blocks = context.get("row_blocks")
    if blocks is None:
        return Markup(joined_text(rows))
    if rows.null_count:
        raise ValueError("a blank where every row has its text")
    blocks.append(bytes(block_bytes(rows)))
    return Markup(_BLOCK_MARK)


def json_bytes(context: dict[str, Any]) -> bytes:
    """The context as JSON: keys in the context's order, UTF-8, one line (json's C encoder:
    an indented dump takes its pure-Python path, several times slower), a trailing newline;
    a :class:`RowTable` value as the list of its rows (made by columns, the same text)."""
    if not any(isinstance(v, RowTable) for v in context.values()):
        return (_dumps(context) + "\n").encode()
    members = [
        (_dumps(key) + ":").encode()
        + (json_array_bytes(v) if isinstance(v, RowTable) else _dumps(v).encode())
        for key, v in context.items()
    ]
    return b"{" + b",".join(members) + b"}\n"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
