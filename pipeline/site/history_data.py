"""What the site reads from a history database, read-only SQL on the tables ``fiderate period``
writes (no new table, nothing written): the kinds of list the history holds (standard, rapid,
blitz: the ``rating_kind`` of its lists, schema 5), each kind's list in force each month, a
month's list with its ranks, and each kind's periods' stored changes.

``SiteData`` holds one open read-only connection and decodes each month's list once, when a
page first needs it (the static writer needs every month, a live page one or two).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.history.database import open_read_only
from pipeline.history.list_reading import content_of, list_frame, list_table, player_row
from pipeline.history.period_calculations import CHANGE_COLUMNS, live_periods
from pipeline.lists.list_columns import LIST_TEXT_COLUMNS
from pipeline.rules.rating_kinds import KINDS
from pipeline.site.id_sets import Ids, list_ids
from pipeline.site.list_ranks import ranked

if TYPE_CHECKING:
    from pipeline.site.name_search import NameIndex


@dataclass(frozen=True)
class Month:
    """The list in force in ``month`` (YYYY-MM): the published one when a month has two."""

    month: str
    content_id: int
    period: str | None  # the rating period that produced it (None: the run's starting list)
    published: bool


def live_months(con: sqlite3.Connection, kind: str) -> list[Month]:
    """Every month with a live list of ``kind`` (the lists' ``rating_kind``), oldest first."""
    rows = con.execute(
        "SELECT effective, content_id, period, kind FROM lists "
        "WHERE superseded = 0 AND rating_kind = ? ORDER BY effective, kind = 'published', id",
        (kind,),
    ).fetchall()
    months = {m: Month(m, int(c), p, kind == "published") for m, c, p, kind in rows}
    return list(months.values())  # the last row of a month wins: the published list


def live_kinds(con: sqlite3.Connection) -> dict[str, list[Month]]:
    """Each kind of list the history holds live lists of (in :data:`KINDS`' order: standard,
    rapid, blitz) -> its months (a history written before schema 5 holds one kind, the one
    its migration found)."""
    held = {
        k for (k,) in con.execute("SELECT DISTINCT rating_kind FROM lists WHERE superseded = 0")
    }
    return {kind: live_months(con, kind) for kind in KINDS if kind in held}


SEARCH_FACTS = ("id", "name", "federation", "title")  # what the search shows of a player
SEARCH_KEY = ("search", "players")  # the search index's key among the decoded lists


def plain(frame: pd.DataFrame, columns: list[str] | tuple[str, ...]) -> list[dict[str, Any]]:
    """Rows of ``frame`` as plain dicts: blanks as None, numbers as Python ints (through
    Arrow: a fourth of the time of pandas' ``to_dict``, which boxes every cell in Python)."""
    rows: list[dict[str, Any]] = pa.Table.from_pandas(
        frame[list(columns)], preserve_index=False
    ).to_pylist()
    return rows


@dataclass
class SiteData:
    """A history opened for the site (read-only); ``close`` when done."""

    path: Path
    con: sqlite3.Connection
    months: dict[str, list[Month]]  # kind -> its live months, oldest first
    # Decoded lists by content id, and the search index (``SEARCH_KEY``).
    _frames: dict[Any, Any] = field(default_factory=dict)
    _bases: dict[int, pa.Table] = field(default_factory=dict)
    _cache: dict[tuple[str, str], Any] = field(default_factory=dict)
    # At most this many decoded lists kept (None: all): the static writer goes through the
    # months in order and needs a month and the one before; 72 lists of 50,000 players held at
    # once were 0.9 GB.
    lists_kept: int | None = None

    @classmethod
    def open(
        cls, path: Path, frames: dict[Any, Any] | None = None, lists_kept: int | None = None
    ) -> SiteData:
        """``frames``: lists already decoded from this same database file (the live server
        keeps them between requests: a stored list never changes under its content id).
        ``lists_kept``: keep only the lists decoded last (the static writer)."""
        con = open_read_only(path)
        try:
            data = cls(path, con, live_kinds(con), lists_kept=lists_kept)
            if frames is not None:
                data._frames = frames
            return data
        except BaseException:
            con.close()
            raise

    def close(self) -> None:
        self.con.close()

    def kinds(self) -> tuple[str, ...]:
        """The kinds this history holds lists of, in :data:`KINDS`' order."""
        return tuple(self.months)

    def months_of(self, kind: str) -> list[Month]:
        return self.months.get(kind, [])

    def month(self, kind: str, month: str) -> Month | None:
        return next((m for m in self.months_of(kind) if m.month == month), None)

    def previous(self, kind: str, month: str) -> Month | None:
        before = [m for m in self.months_of(kind) if m.month < month]
        return before[-1] if before else None

    def latest(self, kind: str) -> Month | None:
        months = self.months_of(kind)
        return months[-1] if months else None

    def frame(self, month: Month) -> pd.DataFrame:
        """The month's list, ranked (:func:`ranked`), sorted by id; decoded once."""
        if month.content_id in self._frames:
            if self.lists_kept is not None:  # the latest used last out
                self._frames[month.content_id] = self._frames.pop(month.content_id)
            return self._frames[month.content_id]  # type: ignore[no-any-return]
        table = list_table(self.con, content_of(self.con, month.content_id), bases=self._bases)
        # By id, sorted by Arrow before pandas holds it: the same stable order (text by its
        # UTF-8 bytes, the code points pandas compares), a fourth of pandas' sort_values' time.
        by_id = table.take(pc.sort_indices(table, sort_keys=[("id", "ascending")]))
        frame = ranked(list_frame(by_id))
        self._frames[month.content_id] = frame
        if self.lists_kept is not None:
            lists = [key for key in self._frames if isinstance(key, int)]
            for key in lists[: max(0, len(lists) - self.lists_kept)]:
                del self._frames[key]
        return frame

    def search_rows(self) -> pd.DataFrame:
        """Every player the site has a profile for (on any list of any kind, the latest or an
        older one), one row each, in the search's order (:func:`name_search.order`): ``id``,
        ``name``, ``federation`` and ``title`` as the profile shows them (the newest list of any
        kind the player is on; on a tie, the first kind), and ``rating_<kind>`` per kind: the
        rating on that kind's latest list, blank when the player is not on it."""
        from pipeline.site.name_search import order

        facts: pd.DataFrame | None = None
        for kind in self.kinds():
            rows = self._last_rows(kind)
            latest = self.latest(kind)
            current = rows["month"].eq(latest.month if latest else "").to_numpy(dtype=bool)
            rows[f"rating_{kind}"] = rows["rating"].where(current)
            rows = rows.drop(columns="rating")
            if facts is None:
                facts = rows
                continue
            both = facts.merge(rows, on="id", how="outer", suffixes=("", "_new"), sort=True)
            # A later list of this kind, or a player only on it: its facts (equal months keep
            # the first kind's, as the profile does).
            newer = both["month_new"].notna() & ~(both["month_new"] <= both["month"])
            for column in (*SEARCH_FACTS[1:], "month"):
                both[column] = both[column].where(~newer, both[f"{column}_new"])
            facts = both.drop(columns=[c for c in both.columns if c.endswith("_new")])
        if facts is None:
            facts = pd.DataFrame(columns=list(SEARCH_FACTS))
        columns = [*SEARCH_FACTS, *(f"rating_{k}" for k in self.kinds())]
        facts = facts[columns].reset_index(drop=True)
        for kind in self.kinds():
            facts[f"rating_{kind}"] = facts[f"rating_{kind}"].astype("Int64")
        return order(facts, self.kinds())

    def _last_rows(self, kind: str) -> pd.DataFrame:
        """Each player's row on the latest list of ``kind`` they are on (``SEARCH_FACTS``,
        ``rating`` and that list's ``month``), sorted by id: the latest list, then from each
        older list (newest first) the players on none of the newer ones (few: a player leaves
        the lists rarely). Only what the search needs is read, so the live server's search
        waits for no whole list (:meth:`frame`, which its pages decode meanwhile): the
        search's columns of the latest list, the ids alone of an older one, and its search's
        columns only when it holds a player the newer lists do not."""
        wanted = [*SEARCH_FACTS, "rating"]
        months = list(reversed(self.months_of(kind)))
        if not months:
            return pd.DataFrame(columns=[*wanted, "month"])
        bases: dict[int, pa.Table] = {}  # of the search's columns (``_bases`` holds whole rows)
        id_bases: dict[int, Ids] = {}  # of the ids alone
        parts: list[pa.Table] = []
        seen: Ids | None = None  # the ids of the lists read so far
        for month in months:
            content = content_of(self.con, month.content_id)
            new = None
            if seen is not None:
                new = list_ids(self.con, content, id_bases).not_in(seen)
                if not len(new):
                    continue  # no player the newer lists do not have
            table = list_table(self.con, content, wanted, bases=bases)
            if new is not None:  # few: a hash of them is cheap
                table = table.filter(pc.is_in(table.column("id"), value_set=new.text))
            ids = Ids.of(table.column("id").combine_chunks())
            seen = ids if seen is None else seen.plus(ids)
            parts.append(table.append_column("month", pa.array([month.month] * len(table),
                                                               pa.string())))  # fmt: skip
        rows = pa.concat_tables(parts).to_pandas(types_mapper={pa.int64(): pd.Int64Dtype()}.get)
        # Each player is in one part: the newest list they are on.
        return rows.sort_values("id", kind="stable").reset_index(drop=True)

    def search_index(self) -> NameIndex:
        """The index of :meth:`search_rows` (:mod:`.name_search`), built once: the live server
        keeps it with its decoded lists, for the database as it is."""
        from pipeline.site.name_search import name_index

        if SEARCH_KEY not in self._frames:
            self._frames[SEARCH_KEY] = name_index(self.search_rows())
        index: NameIndex = self._frames[SEARCH_KEY]
        return index

    def find_players(self, query: str) -> tuple[pd.DataFrame, int]:
        """(up to ``SHOWN`` players of :meth:`search_rows` found by ``query``, how many
        matched): :func:`name_search.find`."""
        from pipeline.site.name_search import find

        return find(self.search_index(), query)

    def changes(
        self,
        kind: str,
        player_id: str | None = None,
        columns: tuple[str, ...] = CHANGE_COLUMNS,
    ) -> pd.DataFrame:
        """The stored changes of the live periods of ``kind`` (``run_id``, ``columns`` of
        ``period_changes``, the ``period`` and the run's ``scale``), of one player or of all,
        by run then player: a rapid period's change never shows on the standard table of the
        same month. Only ``columns`` are read (the profiles' runs need six of ten)."""
        periods = live_periods(self.con, kind)
        # Every player's in the table's key order (run, player): SQLite scans the table, no
        # sort (:func:`_change_columns`). Ordered by player, it walked the player index and
        # looked up each row: ten times the time at 50,000 players x 24 months.
        where, params = "r.rating_kind = ?", [kind]
        if player_id is not None:
            where, params = where + " AND c.player_id = ?", [kind, player_id]
        table = _change_columns(self.con, ("run_id", *columns), where, tuple(params))
        frame = table.to_pandas()
        live = {p.run_id: p for p in periods.values()}
        keep = frame["run_id"].isin(list(live)).to_numpy(dtype=bool)
        if not keep.all():
            frame = frame.loc[keep].reset_index(drop=True)
        # Looked up once per run, not per row (1.2 M rows at 50,000 players x 24 months).
        codes, runs = pd.factorize(frame["run_id"])
        period = pd.array([live[int(r)].period for r in runs], dtype="str")
        frame["period"] = period.take(codes) if len(codes) else pd.array([], dtype="str")
        scale = np.array([live[int(r)].scale for r in runs], dtype=object)
        frame["scale"] = scale[codes] if len(codes) else np.array([], dtype=object)
        return frame

    def player_rows(self, kind: str, player_id: str) -> pd.DataFrame:
        """The player's rows of every month's list of ``kind`` (a ``month`` column), oldest
        first, each read from the one block of its list that can hold the player (a live
        profile decodes no whole list; the static writer reads every list whole instead:
        :func:`profile_runs.all_runs`)."""
        found = []
        for month in self.months_of(kind):
            row = _row_in(self.con, month.content_id, player_id)
            if row is not None:
                found.append({**row, "month": month.month})
        if not found:
            return pd.DataFrame(columns=["id", "month"])
        rows = list_frame(pa.Table.from_pylist(found)).assign(month=[r["month"] for r in found])
        return rows.reset_index(drop=True)

    def kept(self, key: tuple[Any, ...], make: Any, with_lists: bool = False) -> Any:
        """What ``make()`` returns, made once for this history (the static writer's tables
        of every player: :mod:`.profile_runs`, :mod:`.rank_files`); ``with_lists``: kept
        with the decoded lists (the live server keeps them between requests), for what is
        made from one stored list alone (keyed by its content id)."""
        held = self._frames if with_lists else self._cache
        if key not in held:
            held[key] = make()
        return held[key]

    def held(self, key: tuple[Any, ...]) -> Any:
        """What :meth:`kept` made for ``key``, None before."""
        return self._cache.get(key)

    def forget_tables(self) -> None:
        """Drop what :meth:`kept` made of every player (their runs, the ranks' tables: made
        again when asked) and the search index: the static writer, its profiles, ranks and
        search written, holds only what the list months it still makes read."""
        self._cache.clear()
        self._frames.pop(SEARCH_KEY, None)


# A text that no stored id or K rule holds: the cells' separator in a column read whole.
_CELLS = "\x1f"


def _change_columns(
    con: sqlite3.Connection, names: tuple[str, ...], where: str, params: tuple[Any, ...]
) -> pa.Table:
    """The ``period_changes`` columns ``names`` of the rows ``where`` (over ``c``, joined with
    their run ``r``), in key order (run, player), as typed Arrow columns (text as
    ``string``, the rest ``int64``, NULL as null).

    Why a column as one text: SQLite scans the rows in a tenth of the time Python takes to
    make a tuple and a cell object of each (1.2 M rows at 50,000 players x 24 months), and
    Arrow parses a text's integers in C. One scan aggregates every column, so the columns'
    cells come in the same row order; a NULL is an empty cell (``group_concat`` skips NULLs).
    A text holding the separator would shift the cells: the counts are checked, and then
    the rows are read one by one (slower, the same table). In key order because the scan of
    the table (``WITHOUT ROWID``, keyed by run and player) is; checked, and sorted when not."""
    cells = ", ".join(f"group_concat(ifnull(c.{n}, ''), ?)" for n in names)
    found = con.execute(
        f"SELECT count(*), {cells} {_CHANGES_FROM} WHERE {where}",
        (*(_CELLS,) * len(names), *params),
    ).fetchone()
    rows, texts = found[0], found[1:]
    arrays = []
    for name, text in zip(names, texts, strict=True):
        pieces = pa.array(text.split(_CELLS) if rows else [], pa.string())
        if len(pieces) != rows:
            return _change_rows(con, names, where, params)
        if _CHANGE_TYPES.get(name) != pa.string():
            blank = pc.equal(pieces, "")
            pieces = pc.if_else(blank, pa.scalar(None, pa.string()), pieces).cast(pa.int64())
        arrays.append(pieces)
    table = pa.table(arrays, names=list(names))
    if not _in_key_order(table):
        table = table.sort_by([("run_id", "ascending"), ("player_id", "ascending")])
    return table


_CHANGES_FROM = "FROM period_changes c JOIN runs r ON r.id = c.run_id"


def _change_rows(
    con: sqlite3.Connection, names: tuple[str, ...], where: str, params: tuple[Any, ...]
) -> pa.Table:
    """:func:`_change_columns` read row by row (a text holds its separator)."""
    rows = con.execute(
        f"SELECT {', '.join('c.' + n for n in names)} {_CHANGES_FROM} WHERE {where} "
        "ORDER BY c.run_id, c.player_id",
        params,
    ).fetchall()
    values = list(zip(*rows, strict=True)) if rows else [() for _ in names]
    arrays = [
        pa.array(v, _CHANGE_TYPES.get(n, pa.int64())) for n, v in zip(names, values, strict=True)
    ]
    return pa.table(arrays, names=list(names))


def _in_key_order(table: pa.Table) -> bool:
    """Whether ``table``'s rows are sorted by ``run_id`` then ``player_id`` (text in byte
    order, as SQLite's BINARY collation sorts it)."""
    if table.num_rows < 2 or "player_id" not in table.column_names:
        return True
    run = table.column("run_id").combine_chunks()
    ids = table.column("player_id").combine_chunks()
    run_now, run_before = run.slice(1), run.slice(0, len(run) - 1)
    after = pc.or_(
        pc.greater(run_now, run_before),
        pc.and_(pc.equal(run_now, run_before),
                pc.greater(ids.slice(1), ids.slice(0, len(ids) - 1))),
    )  # fmt: skip
    return bool(pc.all(after).as_py())


_CHANGE_TYPES = {"player_id": pa.string(), "k_rule": pa.string()}  # the rest: INTEGER


def _row_in(con: sqlite3.Connection, content_id: int, player_id: str) -> dict[str, Any] | None:
    """The player's row of the list stored as ``content_id`` (``LIST_TEXT_COLUMNS``), or None
    (the history's own one-player read, :func:`pipeline.history.list_reading.player_row`)."""
    return player_row(con, content_id, player_id, LIST_TEXT_COLUMNS)
