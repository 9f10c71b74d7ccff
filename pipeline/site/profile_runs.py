"""A profile's table of one kind of list as runs: a row where something happened to the player
(the first list they are on, a period with games or a stored change, a rating that moved, a
return after lists without them), each row standing for the lists after it until the next
(``until``: the last list of the run; None while it runs on the latest list).

Why runs and not a row per list: a player who did not play keeps the same rows after one more
month, so their profile keeps the same bytes and a refresh of the static site need not write it
(docs/web.md, "What a refresh rewrites"). The ranks, which move for everyone every month, are
not in the profile at all (:mod:`.rank_files`).

One function (:func:`kind_runs`) makes the runs of every player of a kind at once (the static
writer) or of one player (the live profile): the same columns, so the same context either way.
:func:`profile_keys` digests, per player, exactly the rows the profile is made from: equal keys,
equal profiles (:mod:`.page_keys`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.calculator.calc_text import fixed
from pipeline.history.list_reading import content_of, list_table
from pipeline.site.history_data import Month, SiteData

FACTS = ("id", "name", "federation", "title", "sex", "birth_year")
# A run's row: its first list, its last (None: in force on the latest list), that list's period
# and rating, the difference from the run before, and the stored change of that period.
RUN_FIELDS = ("month", "until", "period", "rating", "difference", "period_games", "games",
              "score", "change", "k_used", "k_rule", "calculated")  # fmt: skip
# A player's newest row of the kind: the facts, the K for the next period, the flags, whether
# it is the kind's latest list (``current``) and if not its month (``until``). ``month`` (the
# same, but moving on each month for a current row) only chooses which kind's facts show.
LAST_FIELDS = (*FACTS, "month", "until", "rating", "k", "flags", "current")
SHOWN_LAST = tuple(f for f in LAST_FIELDS if f != "month")  # what the profile shows


@dataclass(frozen=True)
class KindRuns:
    """The runs (``RUN_FIELDS`` with ``id``) and newest rows (``LAST_FIELDS``) of a kind's
    players, both sorted by id; ``spans``: id -> (start, stop) of the player's runs."""

    runs: pd.DataFrame
    last: pd.DataFrame
    spans: dict[str, tuple[int, int]]
    last_at: dict[str, int]


def _run_starts(ids: pd.Series) -> np.ndarray:
    """Where a run of equal ids begins in ``ids`` (sorted text): a boolean mask. Compared in
    Arrow (as Python objects, the ids' conversion alone was a sixth of the runs' time)."""
    if len(ids) == 0:
        return np.zeros(0, dtype=bool)
    text = pa.array(ids.array, pa.string())
    after = pc.not_equal(text.slice(1), text.slice(0, len(text) - 1))
    return np.r_[True, after.to_numpy(zero_copy_only=False)]


def _same(values: pd.Series) -> np.ndarray:
    """Per row, whether it equals the row before (blank equals blank; the first row: False).
    Ratings are integers far below 2**53: exact as floats."""
    v = values.to_numpy(dtype="float64", na_value=np.nan)
    if len(v) == 0:
        return np.zeros(0, dtype=bool)
    both_blank = np.isnan(v[1:]) & np.isnan(v[:-1])
    return np.r_[False, (v[1:] == v[:-1]) | both_blank]


def _scores(score_h: pd.Series) -> pd.Series:
    """The score text of each stored change (``fixed``, the calculation's own rule), made once
    per distinct score: a period's scores are a few dozen half points."""
    present = score_h.dropna()
    words = {int(v): fixed(int(v), 100, 1) for v in present.unique()}
    return score_h.map(words, na_action="ignore").astype(object).where(score_h.notna(), None)


def _month_map(codes: np.ndarray, months_seen: pd.Index, mapping: dict[str, Any]) -> np.ndarray:
    """The months factorized as ``codes`` into ``months_seen``, mapped by ``mapping`` (NaN
    where a month is not in it) as an object array, looked up once per distinct month (a list
    month's rows share a few dozen months; ``map`` looks up each of 1.2 M rows at 50,000
    players x 24 months)."""
    return pd.Series(months_seen).map(mapping).to_numpy(dtype=object)[codes]


def _stored_rows(first: np.ndarray, ids: pd.Series, periods: pd.Series, stored: pd.DataFrame
                 ) -> np.ndarray:  # fmt: skip
    """Per row (``ids`` sorted, ``first`` where each id's rows begin, each row's ``period``),
    the row of ``stored`` (``id``, ``period``: one row a pair) with its id and period, -1 where
    none. Matched as integers: an id's place among the rows' ids (in order: they are sorted)
    and a period's among the periods, searched in the stored pairs sorted (pandas' join of
    the two text keys was a fifth of the runs' time)."""
    if stored.empty:
        return np.full(len(ids), -1, dtype=np.int64)
    place = np.cumsum(first) - 1
    distinct = pa.array(ids.array, pa.string()).filter(pa.array(first))
    stored_place = pc.index_in(pa.array(stored["id"].array, pa.string()), value_set=distinct)
    stored_place = stored_place.fill_null(-1).to_numpy().astype(np.int64)
    names = pd.Index(pd.unique(stored["period"].dropna()))
    at = names.get_indexer(periods)  # -1: a month no stored change's period (or none)
    stored_at = names.get_indexer(stored["period"])
    width = max(len(names), 1)
    keys = np.where((place >= 0) & (at >= 0), place * width + at, -1)
    stored_keys = np.where((stored_place >= 0) & (stored_at >= 0),
                           stored_place * width + stored_at, -2)  # fmt: skip
    order = np.argsort(stored_keys, kind="stable")
    sorted_keys = stored_keys[order]
    pos = np.searchsorted(sorted_keys, keys)
    inside = pos < len(sorted_keys)
    hit = inside & (keys >= 0)
    hit[hit] = sorted_keys[pos[hit]] == keys[hit]
    return np.where(hit, order[np.minimum(pos, len(order) - 1)], -1)


def kind_runs(rows: pd.DataFrame, changes: pd.DataFrame, months: list[Month]) -> KindRuns:
    """The runs of ``rows`` (the kind's list rows with ``month``, sorted by id then month) with
    the kind's stored ``changes`` (:meth:`SiteData.changes`) over its ``months``."""
    position = {m.month: i for i, m in enumerate(months)}
    codes, months_seen = pd.factorize(rows["month"])
    at = _month_map(codes, months_seen, position).astype(np.int64)
    periods = {m.month: m.period for m in months if m.published}
    # The keys joined as pandas' Arrow-backed text (as Python objects, the join took twice as
    # long: a third of the runs' time).
    stored = changes.rename(columns={"player_id": "id", "k": "k_used"})[
        ["id", "period", "games", "score_h", "change", "k_used", "k_rule", "scale"]
    ].astype({"id": "str", "period": "str", "games": "Int64", "score_h": "Int64",
              "change": "Int64", "k_used": "Int64"})  # fmt: skip
    frame = rows[["id", "month", "rating", "period_games"]].reset_index(drop=True)
    frame = frame.astype({"id": "str", "month": "str", "rating": "Int64",
                          "period_games": "Int64"})  # fmt: skip
    period = pd.array(_month_map(np.arange(len(months_seen)), months_seen, periods), dtype="str")
    frame.insert(2, "period", period.take(codes))  # made once a month, then taken
    first = _run_starts(frame["id"])
    found = _stored_rows(first, frame["id"], period.take(codes), stored)
    for column in stored.columns[2:]:  # a left join: blank where no change is stored
        frame[column] = stored[column].array.take(found, allow_fill=True)
    gap = np.r_[True, at[1:] != at[:-1] + 1] if len(at) else first
    played = frame["change"].notna().to_numpy(dtype=bool) | (
        frame["period_games"].fillna(0).to_numpy(dtype=np.int64) > 0
    )
    start = first | gap | ~_same(frame["rating"]) | played
    end = np.r_[start[1:], True] if len(start) else start
    current = at == len(months) - 1
    runs = frame.loc[start].reset_index(drop=True)
    until = pd.Series(frame["month"].array.take(np.flatnonzero(end)))
    runs["until"] = until.where(~current[end])  # text all along, no Python object a cell
    before = runs["rating"].shift(1)
    before[first[start]] = pd.NA  # a player's first run has no run before
    runs["difference"] = (runs["rating"] - before).astype("Int64")
    runs["score"] = _scores(runs["score_h"])
    runs["calculated"] = (runs["change"].notna() & runs["scale"].notna()).to_numpy(dtype=bool)
    # Text as pandas' compact strings, not a Python object a cell (1.2 M runs at 50,000
    # players x 24 months x 3 kinds: half a gigabyte less)
    text = {c: "str" for c in ("id", "month", "until", "period", "score", "k_rule")}
    runs = runs[["id", *RUN_FIELDS]].astype(text)
    newest = np.r_[first[1:], True] if len(first) else first
    held = [c for c in FACTS if c in rows.columns]  # a live profile's rows hold the facts
    last = rows.loc[newest, [*held, "month", "rating", "k", "flags"]].reset_index(drop=True)
    last["current"] = current[newest]
    until = last["month"].astype(object).where(~last["current"], None)
    last.insert(last.columns.get_loc("month") + 1, "until", until)
    starts = np.flatnonzero(_run_starts(runs["id"]))
    stops = [*starts[1:].tolist(), len(runs)] if len(starts) else []
    spans = dict(zip(runs["id"].take(starts).tolist(), zip(starts.tolist(), stops, strict=True),
                     strict=True))  # fmt: skip
    last_at = {str(p): i for i, p in enumerate(last["id"].tolist())}
    return KindRuns(runs, last, spans, last_at)


RUN_COLUMNS = ("id", "rating", "period_games", "k", "flags")  # what runs are made of
RUN_CHANGES = ("player_id", "k", "k_rule", "games", "score_h", "change")  # of stored changes


def _every_row(data: SiteData, kind: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every list's rows of ``kind`` sorted by id then month, with the columns the runs are
    made of; and the facts of each player's newest row, sorted by id. Each list is read once,
    newest first, only the columns wanted (no list decoded whole and kept): its facts are
    taken for the players on no later list, whose newest row it holds (the facts of every row
    carried would be a fifth of the memory at 50,000 players x 24 months x 3 kinds)."""
    parts: list[pa.Table] = []
    facts: list[pa.Table] = []
    seen: pa.Array | None = None
    bases: dict[int, pa.Table] = {}  # of these columns (SiteData's hold whole rows)
    for month in reversed(data.months_of(kind)):
        content = content_of(data.con, month.content_id)
        table = list_table(data.con, content, [*RUN_COLUMNS, *FACTS[1:]], bases=bases)
        ids = table.column("id").combine_chunks()
        newest = table if seen is None else table.filter(pc.invert(pc.is_in(ids, value_set=seen)))
        facts.append(newest.select(list(FACTS)))
        fresh = newest.column("id").combine_chunks()
        seen = ids if seen is None else pa.concat_arrays([seen, fresh])
        rows = table.select(list(RUN_COLUMNS))
        parts.append(rows.add_column(1, "month", pa.repeat(pa.scalar(month.month), len(rows))))
    if not parts:
        empty = pd.DataFrame(columns=["id", "month", *RUN_COLUMNS[1:]])
        return empty, pd.DataFrame(columns=list(FACTS))
    # Sorted by id then month in Arrow, as one table (pandas' sort of its text and the month
    # column it added a list were a third of this): the lists oldest first, so a stable sort
    # by id leaves each player's rows in month order.
    rows = pa.concat_tables(parts[::-1])
    rows = rows.take(_by_id(rows.column("id")))
    every = rows.to_pandas(types_mapper=_TYPES.get)
    found = pa.concat_tables(facts).to_pandas(types_mapper=_TYPES.get)
    return every, found.sort_values("id", kind="stable").reset_index(drop=True)


def _by_id(ids: pa.ChunkedArray) -> np.ndarray:
    """The stable order of ``ids`` (text, byte order as Arrow sorts it): each id replaced by
    its place among the distinct ids, sorted as integers. A stable sort of 1.2 M texts took
    five times as long; the rows are runs of lists each in id order, which numpy's stable
    sort (a merge sort) merges rather than sorts afresh."""
    distinct = pc.unique(ids)
    distinct = distinct.take(pc.sort_indices(distinct))
    places = pc.index_in(ids, value_set=distinct).to_numpy()
    return np.argsort(places, kind="stable")


_TYPES = {pa.int64(): pd.Int64Dtype()}  # integers as nullable Int64, as a decoded list's


def _with_facts(found: KindRuns, facts: pd.DataFrame) -> KindRuns:
    """``found`` with the facts of each player's newest row (``facts``, sorted by id as
    ``found.last``)."""
    last = found.last
    named = list(FACTS[1:])  # the id is every row's
    held = facts[named].astype(object).set_axis(last.index).astype({"birth_year": "Int64"})
    last = pd.concat([held, last], axis=1)
    return KindRuns(found.runs, last[list(LAST_FIELDS)], found.spans, found.last_at)


def all_runs(data: SiteData, kind: str) -> KindRuns:
    """The runs of every player of ``kind`` (every list read: the static writer)."""

    def make() -> KindRuns:
        rows, facts = _every_row(data, kind)
        found = kind_runs(rows, data.changes(kind, columns=RUN_CHANGES), data.months_of(kind))
        if not found.last["id"].astype(str).equals(facts["id"].astype(str)):
            raise AssertionError("the newest rows' facts are not the players' of the runs")
        return _with_facts(found, facts)

    return data.kept(("runs", kind), make)


def _row_hashes(frame: pd.DataFrame) -> np.ndarray:
    """128 bits per row of ``frame`` (two of pandas' keyed row hashes), as bytes rows."""
    one = pd.util.hash_pandas_object(frame, index=False).to_numpy()
    two = pd.util.hash_pandas_object(frame, index=False, hash_key="fiderate-profile").to_numpy()
    return np.stack([one, two], axis=1).view(np.uint8).reshape(len(frame), 16)


def newest_facts(lasts: list[pd.DataFrame]) -> pd.DataFrame:
    """Per player (sorted by id), the facts of the newest list of any kind they are on; on a
    tie the first kind's (``lasts`` in the site's kinds' order): what the profile shows."""
    every = pd.concat([f.assign(order=n) for n, f in enumerate(lasts)], ignore_index=True)
    every = every.sort_values(["id", "month", "order"], ascending=[True, False, True],
                              kind="stable")  # fmt: skip
    return every.drop_duplicates("id")[list(FACTS)].reset_index(drop=True)


def profile_keys(by_kind: dict[str, KindRuns], players: list[str]) -> dict[str, str]:
    """Per player, a digest of every row their profile is made from:
    each kind's runs and newest row as shown, and the facts chosen. A player who did not play
    in a month keeps the key."""
    hashed = {
        kind: (_row_hashes(r.runs), _row_hashes(r.last[list(SHOWN_LAST)]), r.spans, r.last_at)
        for kind, r in by_kind.items()
    }
    facts = newest_facts([r.last for r in by_kind.values()])
    chosen = dict(zip(facts["id"].tolist(), _row_hashes(facts), strict=True))
    keys = {}
    for player_id in players:
        digest = hashlib.blake2b(chosen[player_id].tobytes(), digest_size=16)
        for kind, (runs, last, spans, last_at) in hashed.items():
            span = spans.get(player_id)
            if span is None:
                continue
            digest.update(kind.encode())
            digest.update(runs[span[0] : span[1]].tobytes())
            digest.update(last[last_at[player_id]].tobytes())
        keys[player_id] = digest.hexdigest()
    return keys
