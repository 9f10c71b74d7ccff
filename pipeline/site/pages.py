"""One function per page of the rating site, each building the page's plain context (dicts,
lists, text and integers) from a :class:`SiteData`: the same context renders as HTML and as
JSON (:mod:`.render`), so a number on the page and in the JSON cannot differ.

Links are addresses from the site's root (:mod:`.addresses`); the HTML makes them relative to
the page. Every page takes its ``kind`` (standard, rapid or blitz) as a value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import string_array
from pipeline.lists.next_list import STATUS_FIRST
from pipeline.rules import sexes
from pipeline.site import addresses as at
from pipeline.site.history_data import SEARCH_FACTS, Month, SiteData, plain
from pipeline.site.name_search import SHOWN as SEARCH_SHOWN
from pipeline.site.name_search import trimmed
from pipeline.site.profile_parts import kind_section
from pipeline.site.profile_runs import FACTS
from pipeline.site.rank_files import COUNT_FILE
from pipeline.site.row_table import RowTable, page_array

SHOWN = 10  # new players, gains and losses on the home page
TOP = 100  # players on a top list
LAYOUTS = ("csv", "xlsx", "txt", "xml")
TOP_TITLES = {
    "open": "Open",
    "women": "Women",
    "juniors": "Juniors (under 20)",
    "girls": "Girls (under 20)",
}
ROW_FIELDS = ("id", "name", "federation", "title", "sex", "birth_year", "rating", "k", "flags")


def _player_links(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for row in rows:
        row["href"] = at.player_page(str(row["id"]))
    return rows


def _list_columns(frame: pd.DataFrame, columns: list[str]) -> pa.Table:
    """``columns`` of a decoded list as an Arrow table, column by column: pandas 3 keeps text
    in Arrow (no copy) and a nullable integer is its values and mask (pandas' own
    ``Table.from_pandas`` of the page's rows was a third of its JSON's time). Text with
    32-bit offsets (pandas holds 64-bit): the type Arrow's element-wise join takes, so the
    page's HTML and JSON cast none of its columns again."""
    return pa.table({name: _narrow(pa.array(frame[name], from_pandas=True)) for name in columns})


def _narrow(column: pa.Array) -> pa.Array:
    return string_array(column) if pa.types.is_large_string(column.type) else column


def _ids(table: pa.Table) -> pa.Array:
    return table.column("id").combine_chunks()


def _with_previous(data: SiteData, kind: str, month: Month, columns: list[str]) -> pa.Table:
    """The month's list (its ``columns``, ``id`` and ``rating`` among them) with ``change``
    (rating - the rating on the list before, blank when the player was not on it or unrated
    there), ``new`` (not on the list before) and ``first_rating`` (rated here, unrated or
    absent on the list before: what FIDE's lists count as a new player, who enters the list
    with a first rating)."""
    table = _list_columns(data.frame(month), columns)
    rating = table.column("rating")
    before = data.previous(kind, month.month)
    if before is None:  # the first list: no player was on a list before, no rating is new
        old = pa.nulls(table.num_rows, pa.int64())
        on_before = first = pa.array(np.zeros(table.num_rows, dtype=bool))
    else:
        # Each player's row on the list before (null: not on it), by one hash of the ids; a
        # null index takes a null rating.
        prior = data.frame(before)
        ids = _narrow(pa.array(prior["id"], from_pandas=True))  # the type of the month's ids
        at_before = pc.index_in(table.column("id"), value_set=ids)
        old = pa.array(prior["rating"], pa.int64(), from_pandas=True).take(at_before)
        on_before = pc.is_valid(at_before)
        first = pc.and_(pc.is_valid(rating), pc.is_null(old))
    return (
        table.append_column("change", pc.subtract(rating, old))
        .append_column("new", pc.invert(on_before))
        .append_column("first_rating", first)
    )


BY_RATING = [("rating", "descending"), ("name", "ascending"), ("id", "ascending")]


def _rating_order(table: pa.Table) -> pa.Array:
    """The order of ``table``'s rows by rating (highest first), name, id, blanks last in each:
    pandas' ``sort_values`` of the three (stable, ``na_position="last"``) by Arrow's sort, a
    third of its time (pandas makes a Categorical of each text key). The same order: Arrow's
    sort is stable, compares text by its UTF-8 bytes, which is the order of code points that
    Python compares ``str`` by, and puts nulls (pandas' NaN) at the end of each key (its
    default in every version: the option moved from the call to each key in pyarrow 25)."""
    return pc.sort_indices(table.select([key for key, _ in BY_RATING]), sort_keys=BY_RATING)


def _by_rating(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` in :func:`_rating_order`."""
    keys = pa.table({key: pa.array(frame[key], from_pandas=True) for key, _ in BY_RATING})
    return frame.take(_rating_order(keys).to_numpy())


def _player_rows(table: pa.Table) -> list[dict[str, Any]]:
    """Rows of an Arrow table as plain dicts (blanks as None), each with its profile's
    ``href``."""
    return _player_links(table.to_pylist())


def _list_summary(data: SiteData, kind: str, month: Month) -> dict[str, Any]:
    columns = ["id", "name", "federation", "rating"]
    table = _with_previous(data, kind, month, columns)
    change = table.column("change")
    shown = [*columns, "change"]

    def moved(up: bool) -> list[dict[str, Any]]:
        part = table.filter(pc.fill_null((pc.greater if up else pc.less)(change, 0), False))
        order = [("change", "descending" if up else "ascending"), ("id", "ascending")]
        return _player_rows(part.take(pc.sort_indices(part, sort_keys=order)[:SHOWN])
                            .select(shown))  # fmt: skip

    fresh = table.filter(table.column("first_rating"))
    fresh = fresh.take(_rating_order(fresh))
    return {
        "kind": kind,
        "month": month.month,
        "href": at.list_page(kind, month.month),
        "players": table.num_rows,
        "new_count": fresh.num_rows,
        "new_players": _player_rows(fresh.slice(0, SHOWN).select(shown)),
        "gains": moved(True),
        "losses": moved(False),
        "tops": [{"top": t, "title": TOP_TITLES[t], "href": at.top_page(kind, t)} for t in at.TOPS],
    }


def home(data: SiteData) -> dict[str, Any]:
    """The latest list of each kind, its new players, largest gains and losses."""
    latest = [(kind, data.latest(kind)) for kind in data.kinds()]
    return {
        "page": at.home(),
        "title": "Rating lists",
        "lists": [_list_summary(data, kind, m) for kind, m in latest if m is not None],
        "months": [
            {"kind": kind, "month": m.month, "href": at.list_page(kind, m.month)}
            for kind in data.kinds()
            for m in reversed(data.months_of(kind))
        ],
    }


def list_month(data: SiteData, kind: str, month_name: str) -> dict[str, Any] | None:
    """A list month: every player with the change since the list before, new and dropped."""
    month = data.month(kind, month_name)
    if month is None:
        return None
    # Every player of the list as Arrow columns (:mod:`.row_table`): a dict a row was most of
    # the site's time. The fields of each row, in order; a first rating is no change, said in
    # the changes files' words.
    listed = _with_previous(data, kind, month, [*ROW_FIELDS, "period_games"])
    listed = listed.take(_rating_order(listed))
    first = listed.column("first_rating")
    rows = listed.append_column("href", page_array(listed.column("id"))).append_column(
        "change_words", pc.if_else(first, STATUS_FIRST, "")
    )
    before = data.previous(kind, month_name)
    dropped: list[dict[str, Any]] = []
    if before is not None:
        old = _list_columns(data.frame(before), ["id", "name", "federation", "rating"])
        gone = old.filter(pc.invert(pc.is_in(old.column("id"), value_set=_ids(rows))))
        dropped = _player_rows(gone.take(_rating_order(gone)))
    fresh = rows.filter(first)
    unrated = rows.filter(pc.and_(rows.column("new"), pc.is_null(rows.column("rating"))))
    return {
        "page": at.list_page(kind, month_name),
        "title": f"{kind.capitalize()} list {month_name}",
        "kind": kind,
        "month": month_name,
        "period": month.period,
        "previous": before.month if before else None,
        "previous_href": at.list_page(kind, before.month) if before else None,
        "players": RowTable(rows),
        # New players: rated for the first time on this list (FIDE's list of the month counts
        # them so); apart, the players new on the list who are not rated yet.
        # Rows as columns too (600 first ratings a month at 10,000 players: a dict and a
        # template loop each were a fourth of the page's time).
        "new_players": RowTable(fresh),
        "new_unrated": RowTable(unrated) if before is not None else [],
        "dropped": dropped,
        "downloads": [{"layout": x, "href": at.download(kind, month_name, x)} for x in LAYOUTS],
    }


def _top_frame(frame: pd.DataFrame, top: str, year: int) -> pd.DataFrame:
    """The players of a top list: ``top`` open, women, juniors, girls or fed-XXX."""
    women = frame["sex"].fillna("").str.lower().isin(sexes.FEMALE)
    junior = (year - frame["birth_year"]).lt(20).fillna(False).astype(bool)
    keep = {
        "open": pd.Series(True, index=frame.index),
        "women": women,
        "juniors": junior,
        "girls": women & junior,
    }.get(top)
    if keep is None:  # fed-XXX
        keep = frame["federation"] == top.removeprefix("fed-")
    return frame[keep.to_numpy(dtype=bool) & frame["rating"].notna().to_numpy(dtype=bool)]


def top_list(data: SiteData, kind: str, top: str) -> dict[str, Any] | None:
    """A top list of the latest list: the rank among the list's rated active players of the
    category (equal ratings share one), inactive players marked and unranked."""
    month = data.latest(kind)
    if month is None:
        return None
    frame = data.frame(month)
    # The latest list sorted once for all its top lists (four and one a federation): a top
    # list keeps its players in that order (a filter keeps the order it is given).
    ordered = data.kept(("by rating", month.content_id), lambda: _by_rating(frame), True)
    chosen = _top_frame(ordered, top, int(month.month[:4]))
    if top.startswith("fed-") and chosen.empty:
        return None
    active = chosen["rating"].where(chosen["active"])
    chosen = chosen.assign(rank=active.rank(method="min", ascending=False).astype("Int64"))
    rows = _player_links(plain(chosen.head(TOP), [*ROW_FIELDS, "rank", "active", "world_rank"]))
    federations = sorted(frame["federation"].dropna().unique().tolist())
    feds = [
        {"federation": f, "href": at.top_page(kind, token)}
        for f in federations
        if (token := at.fed_token(str(f))) is not None
    ]
    title = TOP_TITLES.get(top) or f"Federation {top.removeprefix('fed-')}"
    return {
        "page": at.top_page(kind, top),
        "title": f"Top {kind}: {title}, {month.month}",
        "kind": kind,
        "top": top,
        "month": month.month,
        "list_href": at.list_page(kind, month.month),
        "players": rows,
        "tops": [{"top": t, "title": TOP_TITLES[t], "href": at.top_page(kind, t)} for t in at.TOPS],
        "federations": feds,
    }


def federations(data: SiteData, kind: str) -> list[str]:
    """The top-list stems of the federations on the latest list of ``kind``."""
    month = data.latest(kind)
    if month is None:
        return []
    feds = data.frame(month)["federation"].dropna().unique().tolist()
    return sorted(t for f in feds if (t := at.fed_token(str(f))) is not None)


def player(data: SiteData, player_id: str) -> dict[str, Any] | None:
    """A player's profile: the facts of the newest list they are on, per kind the rating, the
    K for the next period, a chart, and a row per change (:mod:`.profile_runs`), each kind's
    section made by columns (:mod:`.profile_parts`). Every value is the player's own: a player
    who did not play keeps the same profile; the world and national ranks are loaded from the
    rank file it names (:mod:`.rank_files`)."""
    kinds = []
    facts: dict[str, Any] | None = None
    newest = ""
    for kind in data.kinds():
        found = kind_section(data, kind, player_id)
        if found is None:
            continue
        section, (*shown, month) = found  # profile_parts.NEWEST: the facts, then the month
        # The facts of the newest list of any kind (a federation or title changed since the
        # last standard list shows as the later rapid list has it); on a tie, the first kind.
        if facts is None or month > newest:
            newest = month
            facts = dict(zip(FACTS, shown, strict=True))
        kinds.append(section)
    if facts is None:
        return None
    return {
        "page": at.player_page(player_id),
        "title": f"{facts['name']} ({player_id})",
        "player": facts,
        # The file saying how many buckets of ranks there are, not the player's bucket: the
        # count follows the number of ranked players, and the profile must not (rank_files).
        "ranks": at.rank_file(COUNT_FILE, "json"),
        "kinds": kinds,
    }


def calculation(data: SiteData, kind: str, player_id: str, period: str) -> dict[str, Any] | None:
    """One period's calculation of a player on the list of ``kind``, game by game: the history
    job's own read-out."""
    import dataclasses

    from pipeline.errors import NotInHistory
    from pipeline.jobs.player_history import CalculationRequest, run_calculation

    try:
        calc = run_calculation(CalculationRequest(player_id, period, data.path, kind))
    except NotInHistory:
        return None
    found = dataclasses.asdict(calc)
    for game in found["games"]:
        game["href"] = at.player_page(str(game["opponent"]))
    return {
        "page": at.calculation_page(kind, player_id, period),
        "title": f"{calc.name or player_id}: the {kind} {period} period",
        "kind": kind,
        "player_href": at.player_page(player_id),
        "calc": found,
    }


def search_players(rows: pd.DataFrame, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    """Players of :meth:`SiteData.search_rows` as the search shows them: ``id``, ``name``,
    ``federation``, ``title``, ``ratings`` (kind -> the rating on its latest list, None when
    not on it) and the profile's ``href``; the static index's rows hold the same
    (:func:`.site_files.search_shards`)."""
    records = plain(rows, [*SEARCH_FACTS, *(f"rating_{k}" for k in kinds)])
    for row in records:
        row["ratings"] = {k: row.pop(f"rating_{k}") for k in kinds}
    return _player_links(records)


def search(data: SiteData, query: str = "") -> dict[str, Any]:
    """The search page; with a ``query`` (the live site), the players found among every player
    the site has a profile for: an id starting with it, or a word of the name, accents and
    case aside (:mod:`.name_search`, the rule of the static site's search.js)."""
    players: list[dict[str, Any]] = []
    matched = 0
    searched = bool(trimmed(query))
    if searched:
        found, matched = data.find_players(query)
        players = search_players(found, data.kinds())
    return {
        "page": at.search_page(),
        "title": "Search",
        "query": query,
        "searched": searched,
        "kinds": list(data.kinds()),
        "shown": SEARCH_SHOWN,
        "matched": matched,
        "players": players,
    }
