"""Each list's rows stored once in the history (schema versions 2 and 3, issue 13).

A list's rows are a *content*, keyed by the sha256 of its rows (:func:`content_sha`): a list whose
rows are already stored (the same list in force recorded again, a period published twice with the
same result) points at the stored content instead of inserting 1.9 M rows again.

A content is either full (every row) or *changed rows* over a full base content: the rows that
differ from the base, new rows, and a ``removed`` marker for each base row the list drops. A
published list is stored over the list in force it was computed from when that list is stored
full: a player who did not play keeps his row, except ``period_games``, 0 on the published list
and blank on the list in force; ``unlisted_period_games`` holds that value for every row taken
from the base, so only the rows that really changed (about a tenth of FIDE's list in a month)
are inserted. Since version 3 a content's stored rows (with their ``removed`` markers) are
compressed blocks (:mod:`pipeline.history.list_blocks`); :mod:`pipeline.history.list_reading`
gives every list's rows back whatever the layout.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import str_series
from pipeline.history.list_blocks import (
    BLOCK_SCHEMA,
    INT_COLUMNS,
    content_table,
    ids_where,
    insert_blocks,
)
from pipeline.keys.frame_lookup import positions
from pipeline.lists.list_columns import LIST_TEXT_COLUMNS

# Changed rows larger than this share of the list are stored as a full list instead: never more
# rows than the full list (in the FIDE-month benchmark about 65% of the players play).
MAX_CHANGED_SHARE = 1.0


def _arrow_rows(rows: pd.DataFrame) -> pa.Table:
    """The stored columns, in the frame's row order, with fixed types (the same rows give the
    same bytes)."""
    arrays = []
    for column in LIST_TEXT_COLUMNS:
        values = rows[column]
        if column in INT_COLUMNS:
            array = pa.array(pd.array(values, dtype="Int64"), type=pa.int64())
        elif column == "ever_2400":
            array = pa.array(values.to_numpy(dtype=bool), type=pa.bool_())
        else:
            try:
                array = pa.array(values, from_pandas=True).cast(pa.string())
            except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
                array = pa.array(values.astype(str).to_numpy(dtype=object), type=pa.string())
        arrays.append(array)
    return pa.table(arrays, names=list(LIST_TEXT_COLUMNS))


@dataclass(frozen=True)
class StoredRows:
    """A list's rows as stored (:func:`_arrow_rows`), converted from the frame once: a FIDE
    list's rows are hashed, compared with the other list's and inserted from this one table
    (each of those converted the 1.9 M rows again: about 3 s of CPU a period run)."""

    table: pa.Table  # LIST_TEXT_COLUMNS, in the frame's row order

    @classmethod
    def of(cls, rows: pd.DataFrame | StoredRows) -> StoredRows:
        return rows if isinstance(rows, StoredRows) else cls(_arrow_rows(rows))

    def __len__(self) -> int:
        return self.table.num_rows

    @property
    def ids(self) -> pa.Array:
        return self.table.column("id").combine_chunks()

    def blank_period_games(self) -> bool:
        """Whether every period_games is blank (how the list in force is stored)."""
        return self.table.column("period_games").null_count == len(self)

    @cached_property
    def _in_key_order(self) -> pa.Table:
        # SQLite's key order (bulk_insert.key_order: the same kernel over the same ids).
        return self.table.take(pc.sort_indices(self.table.column("id")))

    @cached_property
    def sha(self) -> str:
        """sha256 of the rows in key order: the Arrow IPC stream of the rows, fresh buffers, so
        equal rows always give equal bytes."""
        return _sha(self._in_key_order)

    @cached_property
    def blank_sha(self) -> str:
        """:attr:`sha` of the same rows with period_games blank (how the list is stored when it
        is the list in force)."""
        table = self._in_key_order
        games = table.schema.get_field_index("period_games")
        return _sha(table.set_column(games, "period_games", pa.nulls(len(table), pa.int64())))

    @property
    def hashes(self) -> tuple[str, str]:
        return self.sha, self.blank_sha


class _HashSink:
    """A file for pyarrow that only hashes what is written to it."""

    closed = False

    def __init__(self) -> None:
        self.hash = hashlib.sha256()

    def write(self, data: bytes) -> int:
        self.hash.update(data)
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


def _sha(table: pa.Table) -> str:
    sink = _HashSink()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table.combine_chunks())
    return "rows-v2:" + sink.hash.hexdigest()


def content_hashes(rows: pd.DataFrame | StoredRows) -> tuple[str, str]:
    """:attr:`StoredRows.hashes` of a list's rows (columns ``LIST_TEXT_COLUMNS``)."""
    return StoredRows.of(rows).hashes


def content_sha(rows: pd.DataFrame | StoredRows) -> str:
    """The first of :func:`content_hashes` (the second is not computed)."""
    return StoredRows.of(rows).sha


def changed_rows(new: pd.DataFrame, base: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The rows of ``new`` to store over ``base`` (the others are the base's with period_games
    0), compared as stored (:func:`_arrow_rows`), and the ids of ``base`` that ``new`` drops."""
    if base.empty:
        return new, []
    changed, dropped = _changed(StoredRows.of(new), StoredRows.of(base))
    return new.iloc[np.flatnonzero(changed)], dropped


def _changed(new: StoredRows, base: StoredRows) -> tuple[np.ndarray, list[str]]:
    """:func:`changed_rows` of rows as stored: (a mask of ``new``'s rows to store, the ids of
    ``base`` that ``new`` drops)."""
    if not len(base):
        return np.ones(len(new), dtype=bool), []
    new_ids, base_ids = new.ids, base.ids
    where = _rows_in(new_ids, base_ids)
    found = where >= 0
    theirs = base.table
    own = len(where) == len(base_ids) and bool((where == np.arange(len(where))).all())
    if not own:  # else each row's base row is the base's row at the same place
        theirs = theirs.take(pa.array(np.where(found, where, 0)))
    keep = pa.array(~found)
    for column in LIST_TEXT_COLUMNS:
        a, b = new.table[column], theirs[column]
        if column == "period_games":
            differs = pc.invert(pc.fill_null(pc.equal(a, 0), False))
        else:
            same = pc.or_(pc.fill_null(pc.equal(a, b), False), pc.and_(a.is_null(), b.is_null()))
            differs = pc.invert(same)
        keep = pc.or_(keep, differs)
    head = where[: len(base_ids)]
    if len(head) == len(base_ids) and bool((head == np.arange(len(head))).all()):
        dropped: list[str] = []  # every base row is matched by new's row at its place
    else:
        gone = pa.array(_rows_in(base_ids, new_ids) < 0)
        dropped = sorted(pc.filter(base_ids, gone).to_pylist())
    return np.asarray(keep, dtype=bool), dropped


def _rows_in(ids: pa.Array, among: pa.Array) -> np.ndarray:
    """Each id's row in ``among``, -1 where absent; the ids of each are unique (a list's). A
    list computed from another keeps its rows first, in their order: that shared start is
    recognised by one comparison instead of a hash look-up of 1.9 M ids. Exact: with unique ids,
    ``among[i] == ids[i]`` puts ``ids[i]`` at row i and nowhere else, and once all of
    ``among`` is matched so, the ids after it (unique) are none of its."""
    head = len(among)
    if len(ids) >= head and (
        not head or pc.all(pc.equal(ids.slice(0, head), among), skip_nulls=False).as_py()
    ):
        return np.concatenate([np.arange(head), np.full(len(ids) - head, -1)]).astype(np.int64)
    return positions(str_series(ids), str_series(among))


def find_content(con: sqlite3.Connection, sha: str) -> tuple[int, bool] | None:
    """(id, stored full) of the content with rows hash ``sha``."""
    row = con.execute(
        "SELECT id, base_id IS NULL FROM list_contents WHERE sha256 = ?", (sha,)
    ).fetchone()
    return (int(row[0]), bool(row[1])) if row else None


def find_blank(con: sqlite3.Connection, blank: str) -> int | None:
    """The content whose rows, period_games left blank, hash to ``blank`` (a full one first)."""
    row = con.execute(
        "SELECT id FROM list_contents WHERE blank_sha256 = ? ORDER BY base_id IS NOT NULL, id "
        "LIMIT 1",
        (blank,),
    ).fetchone()
    return int(row[0]) if row else None


def _base_of(con: sqlite3.Connection, content_id: int) -> tuple[int, pa.Array, list[str]] | None:
    """For changed rows over the list stored as ``content_id``: the full content to store them
    over, the ids whose rows differ between the two (to store again) and the ids that content
    drops. None when the list's changed rows are not over a full list with period_games 0."""
    base_id, unlisted = con.execute(
        "SELECT base_id, unlisted_period_games FROM list_contents WHERE id = ?", (content_id,)
    ).fetchone()
    if base_id is None:
        return content_id, pa.array([], pa.string()), []
    if unlisted != 0:
        return None
    stored = content_table(con, content_id, ("id", "removed"))
    removed = ids_where(stored, stored.column("removed")).to_pylist()
    return int(base_id), stored.column("id").combine_chunks(), removed


def _insert_rows(
    con: sqlite3.Connection, content_id: int, rows: pa.Table, dropped: Sequence[str] = ()
) -> None:
    """The rows as stored (:class:`StoredRows`' table, the values hashed) and a ``removed``
    marker for each of ``dropped``, in key order, as the content's blocks."""
    table = rows.append_column("removed", pa.array(np.zeros(rows.num_rows, dtype=bool)))
    if dropped:
        marks = {c: pa.nulls(len(dropped), BLOCK_SCHEMA.field(c).type) for c in BLOCK_SCHEMA.names}
        marks |= {c: pa.array([""] * len(dropped)) for c in _TEXT_MARKED}
        marks |= {c: pa.array([c == "removed"] * len(dropped)) for c in ("ever_2400", "removed")}
        marks["id"] = pa.array(list(dropped), pa.string())
        table = pa.concat_tables([table, pa.table(marks, schema=BLOCK_SCHEMA)])
    order = pc.sort_indices(table.column("id"))  # SQLite's key order: see bulk_insert.key_order
    insert_blocks(con, content_id, table.take(order))


# A removed marker's text: empty (never shown: the row is not on the list).
_TEXT_MARKED = ("name", "federation", "sex", "title", "flags", "last_played")


def store_content(
    con: sqlite3.Connection,
    rows: pd.DataFrame | StoredRows,
    over: pd.DataFrame | StoredRows | None = None,
    sha: str | None = None,
    over_sha: str | None = None,
) -> int:
    """The id of the content holding ``rows``, inserted unless already stored. ``over``: the
    rows of a list that may be stored already (the list in force): ``rows`` then go in as changed
    rows over it, or over the full list it is itself stored over. ``sha``, ``over_sha``: their
    :func:`content_sha`, when known."""
    mine = StoredRows.of(rows)
    given = sha is not None
    sha = sha if sha is not None else mine.sha
    stored = find_content(con, sha)
    if stored is not None:
        return stored[0]
    blank = sha if given and mine.blank_period_games() else mine.blank_sha
    # The list stored with the rows of ``over`` but for period_games (which changed_rows does
    # not compare): the list in force as stored, or the list this history published as read.
    found = None
    theirs = None if over is None else StoredRows.of(over)
    if theirs is not None:
        over_blank = over_sha if theirs.blank_period_games() else None
        found = find_blank(con, over_blank or theirs.blank_sha)
    base = _base_of(con, found) if found is not None else None
    if theirs is not None and base is not None:
        # Over the full list under ``over``: the rows that differ from ``over``, and those of
        # the players whose rows differ between ``over`` and that full list.
        base_id, differ, removed = base
        changed, dropped = _changed(mine, theirs)
        if len(differ):
            ids = mine.ids
            changed |= np.asarray(pc.is_in(ids, value_set=differ), dtype=bool)
            dropped = sorted(set(dropped) | (set(removed) - set(ids.to_pylist())))
        if int(changed.sum()) + len(dropped) <= MAX_CHANGED_SHARE * len(mine):
            content_id = _new_content(con, (sha, blank), len(mine), base_id, 0)
            _insert_rows(con, content_id, mine.table.filter(pa.array(changed)), dropped)
            return content_id
    content_id = _new_content(con, (sha, blank), len(mine), None, None)
    _insert_rows(con, content_id, mine.table)
    return content_id


def _new_content(
    con: sqlite3.Connection,
    hashes: tuple[str, str],
    players: int,
    base: int | None,
    unlisted: int | None,
) -> int:
    cursor = con.execute(
        "INSERT INTO list_contents (sha256, blank_sha256, base_id, unlisted_period_games, "
        "players) VALUES (?, ?, ?, ?, ?)",
        (*hashes, base, unlisted, players),
    )
    return int(cursor.lastrowid or 0)
