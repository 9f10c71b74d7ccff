"""A page's context rendered two ways: HTML through the site's Jinja2 templates (autoescaped:
a name from a file is text, never markup) and JSON, both as bytes, the same for the same
context (the static site is byte-identical from the same history).

``face`` is ``static`` (the files of ``fiderate site``) or ``live`` (``fiderate serve``): it
changes only the search form (the live one asks the server's ``/history/search``) and the link
back to the history. Links are made relative to the page (:func:`addresses.relative`), so the
same pages work from any folder of a web server and from ``file://``.
"""

from __future__ import annotations

import dataclasses
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from markupsafe import Markup, escape

from pipeline.arrays.arrow_text import join_pieces
from pipeline.rules.sexes import sex_words
from pipeline.rules.signs import signed
from pipeline.site import addresses as at
from pipeline.site.profile_parts import ProfileKind
from pipeline.site.row_table import (
    HTML_ENTITIES,
    RowTable,
    html_text,
    joined_text,
    json_array_pieces,
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


def _chart(kind: ProfileKind) -> Markup:
    """A profile kind's step chart, made with the kind's section (:mod:`.profile_parts`)."""
    return Markup(kind.chart.decode())


@pass_context
def _list_rows(context: Any, players: RowTable) -> Markup:
    """A list page's table body, made by columns (:mod:`.row_table`): each column's cells
    escaped once as Jinja's autoescape does, then the rows joined element-wise (a list month
    of 50,000 players is the site's largest page, 72 of them at 24 months of three kinds)."""
    if len(players) == 0:
        return Markup("")
    up = "../" * str(context["page"]).count("/")
    column = players.column
    change = column("change")
    # ``signed`` of a whole number: "+" before a positive one. A first rating has no change:
    # the change report's words ("first rating") instead.
    text = pc.cast(change, pa.string())
    text = pc.if_else(pc.greater(change, 0), pc.binary_join_element_wise("+", text, ""), text)
    words = html_text(column("change_words"))
    shown = pc.if_else(pc.is_null(change), words, text)
    new = pc.if_else(pc.or_(column("first_rating"), column("new")), ' class="new"', "")
    cells = [
        "<tr", new, '><td class="text name"><a href="', up, html_text(column("href")), '">',
        html_text(column("name")), '</a></td><td class="wide">', html_text(column("id")),
        "</td><td>", html_text(column("federation")), '</td><td class="wide">',
        html_text(column("title")), "</td><td>", number_text(column("rating")), "</td><td>",
        shown, "</td><td>", number_text(column("period_games")), '</td><td class="wide">',
        number_text(column("k")), '</td><td class="wide">', number_text(column("birth_year")),
        '</td><td class="wide">', html_text(column("flags")), "</td></tr>",
    ]  # fmt: skip
    # ``up`` apart from the link: escaping is character by character and "../" has nothing
    # to escape, so this is the escape of the whole address.
    return _block(context, join_pieces(cells))


@pass_context
def _new_items(context: Any, players: RowTable, first_rating: bool) -> Markup:
    """A list page's new players as list items, made by columns as :func:`_list_rows`: the
    link to the profile and the name, the id, and with ``first_rating`` the first rating
    (a blank reads "None", as the template's ``{{ p.rating }}`` wrote it)."""
    if len(players) == 0:
        return Markup("")
    up = "../" * str(context["page"]).count("/")
    column = players.column
    pieces: list[pa.Array | str] = [
        '<li><a href="', up, html_text(column("href")), '">', html_text(column("name")), "</a> ",
        html_text(column("id")),
    ]  # fmt: skip
    if first_rating:
        rating = pc.cast(column("rating"), pa.string())
        pieces += [", first rating ", pc.fill_null(rating, "None")]
    return _block(context, join_pieces([*pieces, "</li>"]))


@pass_context
def _period_rows(context: Any, kind: ProfileKind) -> Markup:
    """A profile kind's table body for the page's face, made with the kind's section by
    columns (:mod:`.profile_parts`: 50,000 profiles)."""
    return Markup(kind.table(context["face"]).decode())


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
    if template == "player":
        return _profile_html(context, face, kinds)
    page = environment().get_template(TEMPLATES[template])
    blocks: list[memoryview] = []
    text = page.render(**context, face=face, site_kinds=kinds, row_blocks=blocks)
    if not blocks:
        return text.encode("utf-8")
    # The blocks of rows go in as the UTF-8 Arrow made them, where their marks are (a list
    # month's rows are most of its page: no text of them decoded, then encoded again).
    parts = text.split(_BLOCK_MARK)
    out: list[bytes | memoryview] = [parts[0].encode("utf-8")]
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
    blocks.append(block_bytes(rows))  # a view of Arrow's buffer: copied once, by the page's join
    return Markup(_BLOCK_MARK)


def _rendered(template: str, context: dict[str, Any], face: str, kinds: tuple[str, ...]) -> str:
    page = environment().get_template(TEMPLATES[template])
    return page.render(**context, face=face, site_kinds=kinds)


# A profile page through Jinja cost more than its parts made by columns (50,000 profiles):
# the template is rendered once per *shape* (what it branches on: the face, the site's
# kinds, the player's sex code, which values are blank, each kind's state) with a slot mark
# for each value that varies from player to player, and split there; a page is then the
# literal parts joined with its values, escaped as Jinja's autoescape does. The layout stays
# in the template alone. A template that came to transform a slotted value (a filter on a
# name) would break this: tests/rating_site/test_profile_parts.py checks pages joined so
# against Jinja's own render on hostile names and ids.
_SLOT = "\ue000{}\ue001"  # private-use characters: no escape, case or URL rule changes them
_SLOTS = re.compile("\ue000([0-9]+)\ue001")
_PLAYERS = "players/"


def _profile_values(context: dict[str, Any], face: str) -> list[Any]:
    """The values of a profile page that vary by player, in slot order (markup as Markup):
    its page's file stem, title, the facts shown as they are, and per kind the rating, last
    list, K, chart and table body (None: blank, rendered as it is and part of the shape)."""
    player = context["player"]
    values = [context["page"][len(_PLAYERS) : -len(".html")], context["title"], player["id"],
              player["name"], player["federation"], player["title"] or None,
              player["birth_year"]]  # fmt: skip
    for k in context["kinds"]:
        values += [k.rating, k.until, k.k, k.chart, k.table(face)]
    return values


def _texts(values: list[Any]) -> list[bytes]:
    """The slots' texts as UTF-8: each value escaped as Jinja's autoescape writes it, but a
    kind's chart and table body (the fourth and fifth of its five slots: bytes already), which
    are markup."""
    texts = [_text(v) for v in values[:7]]
    for n in range(7, len(values), 5):
        texts += [_text(v) for v in values[n : n + 3]] + values[n + 3 : n + 5]
    return texts


# The characters markupsafe.escape replaces (row_table.HTML_ENTITIES): a text holding none of
# them is itself escaped.
_ESCAPED = re.compile("[" + re.escape("".join(c for c, _ in HTML_ENTITIES)) + "]")


def _text(value: Any) -> bytes:
    """``escape(value)`` as UTF-8; a whole number is its digits and a text with nothing to
    escape its own characters (a search of one pattern: escape makes a Markup of each, half
    the slots' time of 50,000 profiles)."""
    kind = type(value)
    if kind is int:
        return b"%d" % value
    if kind is str and _ESCAPED.search(value) is None:
        return value.encode()
    return escape(value).encode()


def _slotted(context: dict[str, Any], values: list[Any], face: str) -> dict[str, Any]:
    """``context`` with each value of ``values`` that is not blank replaced by its slot."""

    def slot(n: int, real: Any) -> Any:
        return real if values[n] is None else _SLOT.format(n)

    player = dict(context["player"])
    for n, key in enumerate(("id", "name", "federation", "title", "birth_year"), start=2):
        player[key] = slot(n, player[key])
    kinds = []
    for i, k in enumerate(context["kinds"]):
        n = 7 + 5 * i
        kinds.append(dataclasses.replace(
            k, rating=slot(n, k.rating), until=slot(n + 1, k.until), k=slot(n + 2, k.k),
            chart=_SLOT.format(n + 3).encode(), rows={face: _SLOT.format(n + 4).encode()},
        ))  # fmt: skip
    return {**context, "page": _PLAYERS + _SLOT.format(0) + ".html",
            "title": _SLOT.format(1), "player": player, "kinds": kinds}  # fmt: skip


_shapes: dict[tuple[Any, ...], tuple[list[bytes], list[int]]] = {}
MAX_SHAPES = 4096  # about 400 at 10,000 players


def _profile_html(context: dict[str, Any], face: str, kinds: tuple[str, ...]) -> bytes:
    """A profile page's HTML as UTF-8: its shape's literal parts joined with its values (see
    above)."""
    page, sex = context["page"], context["player"]["sex"]
    if not (page.startswith(_PLAYERS) and page.endswith(".html")) or "\ue000" in str(sex):
        return _rendered("player", context, face, kinds).encode()  # a sex code as it is
    values = _profile_values(context, face)
    states = tuple((k.kind, k.inactive, k.ranked) for k in context["kinds"])
    blanks = tuple([v is None for v in values])
    shape = (face, kinds, context["ranks"], sex, states, blanks)
    found = _shapes.get(shape)
    if found is None:
        if len(_shapes) >= MAX_SHAPES:  # a file of odd sex codes: a shape each
            _shapes.clear()
        split = _SLOTS.split(_rendered("player", _slotted(context, values, face), face, kinds))
        literals = [text.encode() for text in split[0::2]]
        found = _shapes[shape] = literals, [int(n) for n in split[1::2]]
    return _joined(found, _texts(values))


def _joined(shape: tuple[list[bytes], list[int]], texts: list[bytes]) -> bytes:
    literals, slots = shape
    pieces = [b""] * (2 * len(literals) - 1)
    pieces[0::2] = literals
    pieces[1::2] = [texts[n] for n in slots]
    return b"".join(pieces)


def json_bytes(context: dict[str, Any]) -> bytes:
    """The context as JSON: keys in the context's order, UTF-8, one line (json's C encoder:
    an indented dump takes its pure-Python path, several times slower), a trailing newline;
    a :class:`RowTable` value as the list of its rows and a list of profile sections
    (:class:`ProfileKind`) as their objects, both made by columns, the same text. Its pieces
    are joined once: a list month's rows are megabytes, which each concatenation copied."""
    pieces: list[bytes | memoryview] = [b"{"]
    plain: dict[str, Any] = {}  # members in a row with no part: one dumps for them all

    def member(*parts: bytes | memoryview) -> None:
        if len(pieces) > 1:
            pieces.append(b",")
        pieces.extend(parts)

    for key, value in context.items():
        if not _by_parts(value):
            plain[key] = value
            continue
        if plain:
            member(_dumps(plain)[1:-1].encode())
            plain = {}
        member(_key(key), *_member(value))
    if plain:
        member(_dumps(plain)[1:-1].encode())
    pieces.append(b"}\n")
    return b"".join(pieces)


def _by_parts(value: Any) -> bool:
    return isinstance(value, RowTable) or (
        type(value) is list and any(isinstance(v, ProfileKind) for v in value)
    )


@lru_cache(maxsize=256)
def _key(key: str) -> bytes:
    """A member's key and colon as UTF-8 JSON: a page's keys are a handful, made once."""
    return (_dumps(key) + ":").encode()


def _member(value: RowTable | list[ProfileKind]) -> list[bytes | memoryview]:
    """A member's value made by parts, as pieces of UTF-8 JSON (a profile's sections are bytes
    already)."""
    if isinstance(value, RowTable):
        return json_array_pieces(value)
    return [b"[" + b",".join(v.json for v in value) + b"]"]


# json.dumps(value, ensure_ascii=False, separators=(",", ":")) without making an encoder a call
# (a profile's JSON is a few values and its sections' text)
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
