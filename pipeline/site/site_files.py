"""Every file of the rating site, as (address, bytes), and one page's bytes for an address (the
live server's answer): both go through :func:`page_context`, so the live page and the static
file of an address are the same bytes but for the ``face``.

The files: the home page, search page and its index shards, a page per list month with its four
downloads, the top lists (open, women, juniors, girls, each federation), a profile per player,
a calculation page per player and period whose calculation the history stores; every page also
as JSON beside it; the stylesheets and scripts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.history.period_calculations import live_periods, published_content
from pipeline.site import addresses as at
from pipeline.site import pages
from pipeline.site.downloads import list_downloads
from pipeline.site.history_data import Month, SiteData
from pipeline.site.name_search import SHARD_BYTES, find, shard_keys, shard_name, split_keys
from pipeline.site.page_keys import frame_digest, list_digest, page_key, period_digest
from pipeline.site.profile_runs import all_runs, profile_keys
from pipeline.site.rank_files import rank_file, rank_files
from pipeline.site.render import html_bytes, json_bytes

HERE = Path(__file__).parent
WEB_STYLE = HERE.parent / "web" / "static" / "style.css"  # the server's own stylesheet
ASSETS = {
    "static/style.css": WEB_STYLE,
    "static/site.css": HERE / "static" / "site.css",
    "static/list.js": HERE / "static" / "list.js",
    "static/search.js": HERE / "static" / "search.js",
    "static/ranks.js": HERE / "static" / "ranks.js",
}


def page_context(data: SiteData, where: at.Address, query: str = "") -> dict[str, Any] | None:
    """The context of the page ``where`` names; None when the history has no such page.
    ``query``: the live search page's (the static one searches in the browser)."""
    if where.page == "home":
        return pages.home(data)
    if where.page == "search":
        return pages.search(data, query)
    if where.page == "list":
        return pages.list_month(data, where.kind, where.month)
    if where.page == "top":
        return pages.top_list(data, where.kind, where.top)
    if where.page == "player":
        return pages.player(data, where.player_id)
    if where.page == "calculation":
        return pages.calculation(data, where.kind, where.player_id, where.month)
    return None


def page_bytes(
    data: SiteData, address: str, face: str, query: str = ""
) -> tuple[bytes, str] | None:
    """(the bytes, the media type) of ``address`` (a page, its ``.json``, a download, an
    asset or a search shard), or None when the site has no such file; ``query``: the live
    search's."""
    if address in ASSETS:
        kind = "text/css" if address.endswith(".css") else "text/javascript"
        return ASSETS[address].read_bytes(), kind
    as_json = address.endswith(".json")
    where = at.parse(address.removesuffix(".json") + ".html" if as_json else address)
    if where is not None:
        context = page_context(data, where, query)
        if context is None:
            return None
        if as_json:
            return json_bytes(context), "application/json"
        return html_bytes(where.page, context, face, data.kinds()), "text/html; charset=utf-8"
    rank = at.parse_rank_file(address)
    if rank is not None:
        body = rank_file(data, *rank)
        return None if body is None else (body, RANK_MEDIA[rank[1]])
    download = at.parse_download(address)
    if download is not None:
        month = data.month(download.kind, download.month)
        if month is None:
            return None
        return list_downloads(data.frame(month), month.month)[download.layout], MEDIA[
            download.layout
        ]
    return None


RANK_MEDIA = {"js": "text/javascript", "json": "application/json"}
MEDIA = {
    "csv": "text/csv; charset=utf-8",
    "txt": "text/plain; charset=utf-8",
    "xml": "application/xml",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def _page(data: SiteData, where: at.Address, address: str) -> Iterator[tuple[str, bytes]]:
    context = page_context(data, where)
    if context is not None:
        yield address, html_bytes(where.page, context, "static", data.kinds())
        yield at.json_of(address), json_bytes(context)


@dataclass(frozen=True)
class Group:
    """Files of the site made together: ``make`` makes their (address, bytes); ``key``
    (:mod:`.page_keys`), when not None, is equal for equal files, so a writer holding the
    files of the same key need not make them; ``addresses`` are theirs when ``key`` is set,
    or None where only making them tells (the search's shards, the rank buckets, a top list
    that a federation without a rated player has not): then the files the key made, as the
    writer noted them."""

    make: Callable[[], Iterable[tuple[str, bytes]]]
    key: str | None = None
    addresses: tuple[str, ...] | None = ()


def site_files(data: SiteData) -> Iterator[tuple[str, bytes]]:
    """Every file of the static site, in a fixed order, one at a time (a file's bytes are
    made when it is written: 50,000 profiles are never held at once)."""
    for group in site_groups(data):
        yield from group.make()


def site_groups(data: SiteData, held: Callable[[Group], bool] | None = None) -> Iterator[Group]:
    """The files of :func:`site_files` as groups, in the same order, each keyed by what it is
    made from: a refresh after which a page's lists are the same makes no page again (a top
    list, the home page, the search's index: made from the latest lists or every list)."""
    assets = [(address, path.read_bytes()) for address, path in ASSETS.items()]
    kinds = repr(data.kinds())  # every page's header links
    digest = ListDigests(data)
    yield Group(lambda: assets, page_key("assets"), tuple(ASSETS))
    yield Group(
        lambda: _page(data, at.Address("home"), at.home()),
        page_key("home", kinds, *(digest.latest_two(kind) for kind in data.kinds())),
        (at.home(), at.json_of(at.home())),
    )
    yield Group(
        lambda: _page(data, at.Address("search"), at.search_page()),
        page_key("search page", kinds),
        (at.search_page(), at.json_of(at.search_page())),
    )
    for kind in data.kinds():
        yield from month_groups(data, kind, digest)
        latest = digest.named(data.latest(kind))
        for top in (*at.TOPS, *pages.federations(data, kind)):
            where = at.Address("top", kind=kind, top=top)
            page = at.top_page(kind, top)
            # None: a federation without a rated player has no top list (no files)
            yield Group(
                partial(_page, data, where, page), page_key("top", kinds, kind, top, latest), None
            )
    yield from _player_groups(data, held)
    lists = (digest.named(data.latest(kind)) for kind in data.kinds())
    yield Group(lambda: rank_files(data), page_key("ranks", kinds, *lists), None)
    for kind in data.kinds():
        yield from _calculation_groups(data, kind, digest)
    yield search_group(data, digest)


def search_group(data: SiteData, digest: ListDigests) -> Group:
    """The static search's files (:func:`search_shards`), keyed by every list: made from the
    lists alone, so a worker can make them as it makes list months (:mod:`.month_workers`)."""
    every = (digest.named(m) for kind in data.kinds() for m in data.months_of(kind))
    return Group(lambda: search_shards(data), page_key("search", repr(data.kinds()), *every), None)


class ListDigests:
    """The digest of each list month's rows (:func:`page_keys.list_digest`, the store's sha;
    a list stored without one, decoded: :func:`page_keys.frame_digest`), each taken once."""

    def __init__(self, data: SiteData) -> None:
        self.data = data
        self.found: dict[int, str] = {}

    def __call__(self, month: Month | None) -> str:
        if month is None:
            return "none"
        if month.content_id not in self.found:
            stored = list_digest(self.data.con, month.content_id)
            self.found[month.content_id] = stored or frame_digest(self.data.frame(month))
        return self.found[month.content_id]

    def named(self, month: Month | None) -> str:
        """The month's name, period and digest (a top list shows the month it is of)."""
        return "none" if month is None else f"{month.month} {month.period} {self(month)}"

    def latest_two(self, kind: str) -> str:
        """What the home page reads of ``kind``: its months' names, the latest list and the
        one before it."""
        latest = self.data.latest(kind)
        before = None if latest is None else self.data.previous(kind, latest.month)
        months = " ".join(m.month for m in self.data.months_of(kind))
        return f"{kind} [{months}] {self.named(latest)} {self.named(before)}"


def _calculation_groups(data: SiteData, kind: str, lists: ListDigests) -> Iterator[Group]:
    """A calculation page per player and stored period of ``kind``, keyed by its period's
    games, changes and published list (:func:`page_keys.period_digest`): a refresh renders
    no old period's calculation page again."""
    periods = live_periods(data.con, kind)
    if all(p.scale is None for p in periods.values()):
        return  # no period of the kind stores its calculation (reading its changes is a second)
    changes = data.changes(kind)
    stored = changes[changes["scale"].notna()]
    digests: dict[str, str] = {}

    def digest(period: str) -> str:
        if period not in digests:
            # The list the period's run published: the names its pages show.
            content = published_content(data.con, periods[period].run_id)
            names = "none"
            if content is not None:
                names = lists(Month(period, content, period, True))
            rows = changes[changes["period"] == period].drop(columns="run_id")
            digests[period] = period_digest(data.con, periods[period], rows, names)
        return digests[period]

    kinds = repr(data.kinds())  # the header's links
    for player_id, period in zip(stored["player_id"], stored["period"], strict=True):
        where = at.Address("calculation", kind=kind, month=str(period), player_id=str(player_id))
        address = at.calculation_page(kind, str(player_id), str(period))
        yield Group(
            partial(_page, data, where, address),
            page_key("calculation", kinds, kind, str(period), str(player_id), digest(str(period))),
            (address, at.json_of(address)),
        )


def _player_groups(data: SiteData, held: Callable[[Group], bool] | None) -> Iterator[Group]:
    """A profile per player, keyed by the rows it is made from (:func:`profile_keys`): after
    a month where a player did not play, their profile is not made again. ``held``: whether
    the writer holds a group already; the players whose profiles it will make are told to
    :mod:`.profile_parts` (a refresh makes their sections alone, not every player's)."""
    by_kind = {kind: all_runs(data, kind) for kind in data.kinds()}
    players = sorted({p for runs in by_kind.values() for p in runs.spans})
    keys = profile_keys(by_kind, players)
    kinds = repr(data.kinds())  # the header's links
    groups = []
    for player_id in players:
        page = at.player_page(player_id)
        groups.append(Group(
            partial(_page, data, at.Address("player", player_id=player_id), page),
            page_key("player", kinds, keys[player_id]),
            (page, at.json_of(page)),
        ))  # fmt: skip
    if held is not None:
        wanted = frozenset(p for p, group in zip(players, groups, strict=True) if not held(group))
        data.kept(("profiles wanted",), lambda: wanted)
    yield from groups


def month_groups(data: SiteData, kind: str, digest: ListDigests) -> Iterator[Group]:
    """Per list month of ``kind``: its page (made from its list, the list before and the
    site's kinds) and its downloads (from its list alone), each keyed."""
    for month in data.months_of(kind):
        name = month.month
        page = at.list_page(kind, name)
        before = data.previous(kind, name)
        yield Group(
            partial(_page, data, at.Address("list", kind=kind, month=name), page),
            page_key("list", kind, name, str(month.period), repr(data.kinds()), digest(month),
                     before.month if before else "", digest(before)),
            (page, at.json_of(page)),
        )  # fmt: skip
        yield Group(
            partial(_downloads, data, kind, month),
            page_key("downloads", kind, name, digest(month)),
            tuple(at.download(kind, name, layout) for layout in DOWNLOAD_LAYOUTS),
        )


DOWNLOAD_LAYOUTS = ("csv", "xlsx", "txt", "xml")  # list_downloads' order


def _downloads(data: SiteData, kind: str, month: Month) -> Iterator[tuple[str, bytes]]:
    for layout, body in list_downloads(data.frame(month), month.month).items():
        yield at.download(kind, month.month, layout), body


def search_shards(data: SiteData, budget: int = SHARD_BYTES) -> Iterator[tuple[str, bytes]]:
    """The static search's index: every player with a profile (:meth:`SiteData.search_rows`,
    in the search's order), split by the beginnings of their folded name's words and of their
    id, a longer beginning where a shard would be large (:func:`name_search.shard_keys`).
    First ``search/keys.js``, the shards' keys (search.js picks a query's shards from them),
    then each shard as a script calling ``fiderateSearch.add`` (a script loads from
    ``file://``, where a JSON fetch is refused) with rows of [the row's place in the search's
    order, id, name, federation, title, the rating per kind of the site, address]: search.js
    filters a shard in its order (several merged by place), so the first 50 are the live
    search's. Last, for each needle shorter than the keys under it
    (:func:`name_search.split_keys`), the live search's answer to it (``first-<key>.js``, the
    count and the first 50 rows), so a 1-character query loads 50 rows, not every shard.
    ``budget``: a shard's bytes at most, where a longer key can split it."""
    index = data.search_index()
    kinds = data.kinds()
    rows = [
        json.dumps([place, p["id"], p["name"], p["federation"], p["title"],
                    *p["ratings"].values(), p["href"]], ensure_ascii=True, separators=(",", ":"))
        for place, p in enumerate(pages.search_players(index.rows, kinds))
    ]  # fmt: skip
    row_bytes = np.array([len(row) + 1 for row in rows], dtype=np.int64)  # and its comma
    shards = shard_keys(index, row_bytes, budget).groupby("key", sort=True)["row"]
    keys = [str(key) for key, _ in shards]
    listed = json.dumps(keys, ensure_ascii=True, separators=(",", ":"))
    # The answers written ahead hold for a query that folds to itself, and for any query with a
    # character other than a digit when every id is digits (then neither the query nor its
    # fold begins an id): search.js reads ``digits`` from the keys' script.
    digits = "true" if index.rows["id"].str.fullmatch("[0-9]+").all() else "false"
    yield at.search_shard("keys"), f"fiderateSearch.keys({listed},{digits});\n".encode()
    for key, part in shards:
        name = shard_name(key)
        text = ",".join(rows[i] for i in part)
        yield at.search_shard(name), f'fiderateSearch.add("{name}",[{text}]);\n'.encode()
    for needle in split_keys(keys):
        name = "first-" + shard_name(needle)
        found, matched = find(index, needle)
        text = ",".join(rows[i] for i in found.index)
        answer = f'fiderateSearch.first("{name}",{matched},[{text}]);\n'
        yield at.search_shard(name), answer.encode()
