"""A profile's parts that repeat per kind and per period, made by columns for many players at
once: each kind's table rows (HTML, per face), its step chart (SVG) and the kind's whole JSON
object, from :class:`profile_runs.KindRuns` (every player of a kind for the static writer, one
player for a live profile: the same code either way, so the same bytes).

Why by columns: a profile a dict a row, an f-string a row and a chart drawn point by point in
Python were most of a profile's time, and 50,000 profiles are a third of a full write and most
of a refresh (docs/web.md). Here each column is turned into text once with Arrow's string
kernels (as :mod:`.row_table` does for list pages) and each player's pieces are joined with
``binary_join`` over list offsets. The players are made a chunk at a time
(:class:`KindParts`): all of a kind's pages held at once would be gigabytes at 50,000 players.

The bytes are those of the one-row-at-a-time rendering (``tests/rating_site/
test_profile_parts.py`` checks them against it on hostile text): the HTML cells as Jinja's
autoescape writes them, the JSON as ``json.dumps(..., ensure_ascii=False, separators=(",",
":"))`` writes the kind's dict.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from jinja2.filters import do_urlencode
from markupsafe import escape

from pipeline.arrays.arrow_text import join_pieces
from pipeline.site import addresses as at
from pipeline.site.history_data import SiteData
from pipeline.site.profile_runs import FACTS, LAST_FIELDS, KindRuns, kind_runs
from pipeline.site.rating_chart import step_charts
from pipeline.site.row_table import _json_values, html_text, number_text, player_pages

FACES = ("static", "live")
CHUNK = 2048  # players made at a time
# A profile is one folder down from the root (players/p-1.html): its links start "../".
UP = at.relative("", at.player_page("0"))
# What a profile takes from a player's newest row of each kind besides the section: the facts
# (in FACTS' order) and the month last (the newest list of any kind gives the facts shown).
NEWEST = (*FACTS, "month")
# The JSON keys of a period row (profile_runs.RUN_FIELDS but ``calculated``, which becomes the
# calculation's address) and of a kind's object, in the order the page's JSON has them.
PERIOD_KEYS = ("month", "until", "period", "rating", "difference", "period_games", "games",
               "score", "change", "k_used", "k_rule", "calculation_href")  # fmt: skip


@dataclass(frozen=True, slots=True)  # slots: 50,000 x 3 made, no dict each for the GC to scan
class ProfileKind:
    """A kind's section of a profile: the values the template shows (``rating`` on the kind's
    latest list, None when the player is not on it; ``until`` the last list the player is on,
    None: the latest; ``k`` for the next period), the table body per face (``rows``), the chart,
    and ``json``, the section as the page's JSON writes it (with every period row and the
    chart's points); those three as UTF-8 bytes. No rank: ranks move every month
    (:mod:`.rank_files`)."""

    kind: str
    rating: int | None
    until: str | None
    inactive: bool
    ranked: bool
    k: int | None
    rows: dict[str, bytes]
    chart: bytes
    json: bytes

    def table(self, face: str) -> bytes:
        """The table body of ``face``: the static writer makes the static face's alone (the
        live server makes each profile from its player's own runs, with both)."""
        found = self.rows.get(face)
        if found is None:
            raise ValueError(f"the {self.kind} section was made without its {face} table")
        return found


# The Arrow type of each column of a run or a newest row, as every player's runs hold them
# (profile_runs.all_runs: integers as Int64). One player's rows (a live profile) come as Python
# values, and a column with no value at all (a player never rated: every rating blank) would
# come as Arrow's null type, which the kernels below take for no number.
_INTEGERS = ("birth_year", "rating", "k", "difference", "period_games", "games", "change", "k_used")
_TYPES = {**dict.fromkeys(_INTEGERS, pa.int64()), "calculated": pa.bool_(), "current": pa.bool_()}


def _table(frame: pd.DataFrame) -> dict[str, pa.Array]:
    """``frame``'s columns as Arrow arrays, each one array of its column's type (:data:`_TYPES`;
    text as ``string``: pandas' text comes as ``large_string``, an object column of blanks
    alone as ``null``, and the string kernels' joins take one type)."""
    table = pa.Table.from_pandas(frame, preserve_index=False, nthreads=1)  # a chunk: small
    columns = {}
    for name, column in zip(table.column_names, table.columns, strict=True):
        whole = column.combine_chunks()
        wanted = _TYPES.get(name, pa.string())
        columns[name] = whole if whole.type == wanted else whole.cast(wanted)
    return columns


def _utf8(texts: pa.Array) -> list[bytes]:
    """Each text as its UTF-8 bytes, as a page is written (Arrow holds them so: no decoding
    into Python text and encoding back, 5 KB a section)."""
    return texts.cast(pa.binary()).to_pylist()  # type: ignore[no-any-return]


def _per_value(make: Callable[[pa.Array], pa.Array], column: pa.Array) -> pa.Array:
    """``make(column)`` worked out once per distinct value (blank included): a kind's months,
    periods, scores and K rules are a few dozen values over every player's runs."""
    codes = pc.dictionary_encode(column, null_encoding="encode")
    return make(codes.dictionary).take(codes.indices)


def _json_text(column: pa.Array) -> pa.Array:
    return _per_value(_json_values, column)


def _html_text(column: pa.Array) -> pa.Array:
    return _per_value(html_text, column)


def _texts(values: pa.Array, counts: np.ndarray, separator: str) -> pa.Array:
    """Per player, their values (``counts`` consecutive ones each, in order) joined."""
    offsets = np.zeros(len(counts) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    return pc.binary_join(pa.ListArray.from_arrays(pa.array(offsets), values), separator)


def _replaced(texts: pa.Array, mask: pa.Array, others: pa.Array) -> pa.Array:
    """``texts`` with ``others`` (one for each true of ``mask``, made for those alone) in
    their places."""
    return pc.replace_with_mask(texts, mask, others)


def _where(mask: pa.Array, values: pa.Array) -> pa.Array:
    """``values`` (one for each true of ``mask``) in their places, null elsewhere."""
    return pc.replace_with_mask(pa.nulls(len(mask), pa.string()), mask, values)


def _calculation_links(runs: dict[str, pa.Array], kind: str, tokens: pa.Array) -> pa.Array:
    """:func:`addresses.calculation_page` of each calculated run (null for the others), made
    for those alone (a history without stored calculations has none)."""
    calculated = runs["calculated"]
    period = runs["period"].filter(calculated)
    return _where(calculated, join_pieces([f"calculations/{kind}/", period, "/",
                                     tokens.filter(calculated), ".html"]))  # fmt: skip


def _live_links(runs: dict[str, pa.Array], kind: str, ids: list[str]) -> pa.Array:
    """The live face's calculation link of each calculated run: the history's calculation page
    (one player's runs: a live profile)."""
    links = [
        str(escape("/history/calculation?" + do_urlencode({"id": i, "period": p, "kind": kind})))
        if c
        else None
        for i, p, c in zip(ids, runs["period"].to_pylist(), runs["calculated"].to_pylist(),
                           strict=True)
    ]  # fmt: skip
    return pa.array(links, pa.string())


def _period_cells(runs: dict[str, pa.Array], href: pa.Array) -> pa.Array:
    """Each run's table row, the period cell linked to ``href`` (escaped) where it is set: the
    lists it stands for ("since M" while it runs on the latest list), the rating, the change
    (the stored one, else the difference) with its sign, games, score, the K that rated them
    (its rule on hover) and the period."""
    month, until = runs["month"], runs["until"]
    lists = pc.if_else(
        pc.is_null(until),
        join_pieces(["since ", month]),
        pc.if_else(pc.equal(until, month), month, join_pieces([month, " to ", until])),
    )
    change = pc.coalesce(runs["change"], runs["difference"])
    shown = number_text(change)
    up = pc.fill_null(pc.greater(change, 0), False)
    shown = _replaced(shown, up, join_pieces(["+", shown.filter(up)]))
    rated = pc.is_valid(runs["k_used"])
    k = _replaced(pc.if_else(rated, "", ""), rated, join_pieces([
        '<abbr title="', _html_text(runs["k_rule"].filter(rated)), '">',
        number_text(runs["k_used"].filter(rated)), "</abbr>",
    ]))  # fmt: skip
    period = _html_text(pc.fill_null(runs["period"], ""))
    linked = pc.is_valid(href)
    period = _replaced(period, linked, join_pieces([
        '<a class="calculation" href="', href.filter(linked), '">', period.filter(linked), "</a>",
    ]))  # fmt: skip
    return join_pieces([
        '<tr><td class="text">', _html_text(lists), "</td><td>", number_text(runs["rating"]),
        "</td><td>", shown, "</td><td>", number_text(runs["games"]), "</td><td>",
        _html_text(pc.fill_null(runs["score"], "")), "</td><td>", k, '</td><td class="text">',
        period, "</td></tr>",
    ])  # fmt: skip


def _period_objects(runs: dict[str, pa.Array], links: pa.Array) -> pa.Array:
    """Each run as the JSON object of the page's ``periods``: the runs' text columns made
    once per distinct value, the links (one a calculated run, none repeated) each."""
    texts = [
        _json_text(runs[key]) if pa.types.is_string(runs[key].type) else _json_values(runs[key])
        for key in PERIOD_KEYS[:-1]
    ]
    pieces: list[pa.Array | str] = []
    for n, (key, text) in enumerate(zip(PERIOD_KEYS, [*texts, _json_values(links)], strict=True)):
        pieces += [("{" if n == 0 else ",") + f'"{key}":', text]
    return join_pieces([*pieces, "}"])


def _kind_fields(last: dict[str, pa.Array]) -> dict[str, pa.Array]:
    """Per player, the section's values from their newest row of the kind: the rating when it
    is the kind's latest list, inactive (an ``i`` flag), ranked (rated there and active)."""
    current = pc.fill_null(last["current"], False)
    rating = pc.if_else(current, last["rating"], pa.scalar(None, pa.int64()))
    inactive = pc.fill_null(pc.match_substring(last["flags"], "i"), False)
    ranked = pc.and_(pc.and_(current, pc.is_valid(rating)), pc.invert(inactive))
    return {"rating": rating, "until": last["until"], "inactive": inactive, "ranked": ranked,
            "k": last["k"]}  # fmt: skip


def run_spans(found: KindRuns) -> np.ndarray:
    """(start, stop) of each player's runs, in ``found.last``'s order (that of ``spans``):
    made once for every chunk of a kind (:class:`KindParts`), not once a chunk (an array of
    every player's, 5 ms a chunk at 50,000 players)."""
    return np.asarray(list(found.spans.values()), np.int64).reshape(-1, 2)


def make_parts(
    found: KindRuns,
    kind: str,
    places: range | np.ndarray,
    faces: tuple[str, ...],
    spans: np.ndarray | None = None,
) -> tuple[list[ProfileKind], list[tuple[Any, ...]]]:
    """The sections of ``kind`` of the players at ``places`` (ascending places in ``found``,
    sorted by id: a range, or the players a refresh makes), with the table bodies of
    ``faces``; and each one's ``NEWEST`` values of their newest row, in that order. ``spans``: every
    player's :func:`run_spans`, when the caller holds them."""
    every = run_spans(found) if spans is None else spans
    if isinstance(places, range):
        spans = every[places.start : places.stop]
        counts = spans[:, 1] - spans[:, 0]
        frame = found.runs.iloc[int(spans[0, 0]) : int(spans[-1, 1])]
        player_ids = found.last["id"].iloc[places.start : places.stop]
        last_frame = found.last.iloc[places.start : places.stop]
    else:
        spans = every[places]
        counts = spans[:, 1] - spans[:, 0]
        # Each chosen player's runs, in order: the rows of their spans, one take.
        starts = np.repeat(spans[:, 0] - (np.cumsum(counts) - counts), counts)
        frame = found.runs.iloc[starts + np.arange(int(counts.sum()))]
        player_ids = found.last["id"].iloc[places]
        last_frame = found.last.iloc[places]
    runs = _table(frame)
    runs["calculated"] = pc.fill_null(runs["calculated"], False)
    owners = np.repeat(np.arange(len(counts)), counts)
    pages = player_pages(player_ids.astype(str).reset_index(drop=True))
    # The page's stem (p-1 of players/p-1.html): the calculation pages' file name too.
    stems = pc.utf8_slice_codeunits(pa.array(pages, pa.string()), len("players/"), -len(".html"))
    links = _calculation_links(runs, kind, stems.take(pa.array(owners)))
    objects = _period_objects(runs, links)
    backwards = pa.array(np.arange(len(owners))[::-1])  # the table's newest row first
    rows: dict[str, list[bytes]] = {}
    for face in faces:
        if face == "live":
            href = _live_links(runs, kind, [str(player_ids.iloc[o]) for o in owners])
        else:
            shown = runs["calculated"]
            href = _where(shown, html_text(join_pieces([UP, links.filter(shown)])))
        cells = _period_cells(runs, pc.if_else(pc.is_null(links), links, href))
        rows[face] = _utf8(_texts(cells.take(backwards), counts[::-1], ""))[::-1]
    rated = pc.is_valid(runs["rating"]).to_numpy(zero_copy_only=False)
    point_months = runs["month"].filter(pa.array(rated))
    point_ratings = runs["rating"].filter(pa.array(rated))
    point_counts = np.bincount(owners[rated], minlength=len(counts))
    points = join_pieces(["[", _json_text(point_months), ",", _json_values(point_ratings), "]"])
    last_rows = _table(last_frame[list(LAST_FIELDS)])
    charts = _utf8(step_charts(point_months, _html_text(point_months), point_ratings.to_numpy(),
                               point_counts, last_rows["until"]))  # fmt: skip
    fields = _kind_fields(last_rows)
    head: list[pa.Array | str] = ['{"kind":' + json.dumps(kind, ensure_ascii=False)]
    for key, column in fields.items():
        head += [f',"{key}":', _json_values(column)]
    objects_json = join_pieces([
        *head, ',"periods":[', _texts(objects, counts, ","), '],"points":[',
        _texts(points, point_counts, ","), "]}",
    ])  # fmt: skip
    values = {key: column.to_pylist() for key, column in fields.items()}
    texts = _utf8(objects_json)
    sections = [
        ProfileKind(kind, values["rating"][n], values["until"][n], values["inactive"][n],
                    values["ranked"][n], values["k"][n], {f: rows[f][n] for f in faces},
                    charts[n], texts[n])
        for n in range(len(counts))
    ]  # fmt: skip
    # A tuple a player (a dict each was a tenth of the sections' time): the page makes the
    # dict of the facts it shows alone (pages.player).
    return sections, list(zip(*(last_rows[f].to_pylist() for f in NEWEST), strict=True))


class KindParts:
    """The sections of every player of a kind, made ``CHUNK`` players at a time as the static
    writer goes through the players in id order (the static face: the live server makes a
    profile from the player's own runs). ``wanted``: the ids of the players whose profiles the
    writer will make (a refresh: those whose profile changed), None for every player; a chunk
    is then made of wanted players alone (their runs taken apart), not of every player between
    them."""

    def __init__(self, found: KindRuns, kind: str, wanted: frozenset[str] | None = None) -> None:
        self.found, self.kind = found, kind
        self.spans = run_spans(found)
        self.places: np.ndarray | None = None  # the wanted players' places, ascending
        if wanted is not None:
            # Arrow's hash lookup: pandas' ``isin`` on Arrow-backed text goes through a
            # Python list of every id (0.7 s a full write at 50,000 players).
            ids = pa.array(found.last["id"].astype(str), pa.string())
            chosen = pc.is_in(ids, value_set=pa.array(list(wanted), pa.string()))
            self.places = np.flatnonzero(chosen.to_numpy(zero_copy_only=False))
        self.held: tuple[dict[int, int], list[ProfileKind], list[tuple[Any, ...]]] = ({}, [], [])

    def _chunk(self, at_: int) -> range | np.ndarray:
        """The chunk holding the player at place ``at_``: chunks on fixed bounds (a writer
        going through the players in any order, several at once or back and forth, makes
        each chunk as often as it leaves it), of every player or of the wanted ones."""
        if self.places is not None:
            n = int(np.searchsorted(self.places, at_))
            if n < len(self.places) and self.places[n] == at_:
                low = n - n % CHUNK
                chosen = self.places[low : low + CHUNK]
                if chosen[-1] - chosen[0] == len(chosen) - 1:  # consecutive (a full write's)
                    return range(int(chosen[0]), int(chosen[-1]) + 1)  # runs sliced, not taken
                return chosen
        low = at_ - at_ % CHUNK  # every player's chunks (and a player not wanted: asked anyway)
        return range(low, min(len(self.found.last), low + CHUNK))

    def section(self, player_id: str) -> tuple[ProfileKind, tuple[Any, ...]] | None:
        """The player's section and newest row; None when they are on no list of the kind."""
        at_ = self.found.last_at.get(player_id)
        if at_ is None:
            return None
        where, sections, lasts = self.held
        if at_ not in where:
            chunk = self._chunk(at_)
            sections, lasts = make_parts(self.found, self.kind, chunk, ("static",), self.spans)
            where = {int(place): n for n, place in enumerate(chunk)}
            self.held = where, sections, lasts
        n = where[at_]
        return sections[n], lasts[n]


def kind_section(
    data: SiteData, kind: str, player_id: str
) -> tuple[ProfileKind, tuple[Any, ...]] | None:
    """The player's section of ``kind`` and the ``NEWEST`` values of their newest row; None
    when they are on no list of the kind. From every player's runs when the static writer made
    them (:func:`profile_runs.all_runs`), else from the player's own rows, with the table of
    both faces (a live profile)."""
    parts: KindParts | None = data.held(("profile parts", kind))
    if parts is not None:  # every profile after the first of a write: one look-up
        return parts.section(player_id)
    every: KindRuns | None = data.held(("runs", kind))
    if every is None:
        rows = data.player_rows(kind, player_id)
        if rows.empty:
            return None
        found = kind_runs(rows, data.changes(kind, player_id), data.months_of(kind))
        sections, lasts = make_parts(found, kind, range(1), FACES)
        return sections[0], lasts[0]
    wanted = data.held(("profiles wanted",))
    made: KindParts = data.kept(("profile parts", kind), lambda: KindParts(every, kind, wanted))
    return made.section(player_id)
