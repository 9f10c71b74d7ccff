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

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from markupsafe import Markup

from pipeline.rules.signs import signed
from pipeline.site import addresses as at

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


def _chart(points: list[tuple[str, int]]) -> Markup:
    from pipeline.site.rating_chart import rating_chart

    return rating_chart([(str(m), int(r)) for m, r in points])


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
    return env


def html_bytes(template: str, context: dict[str, Any], face: str, kinds: tuple[str, ...]) -> bytes:
    page = environment().get_template(TEMPLATES[template])
    return page.render(**context, face=face, site_kinds=kinds).encode("utf-8")


def json_bytes(context: dict[str, Any]) -> bytes:
    """The context as JSON: keys in the context's order, UTF-8, one line (json's C encoder:
    an indented dump takes its pure-Python path, several times slower), a trailing newline."""
    return (json.dumps(context, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
