"""Each list's rows stored once in the history (schema version 2, issue 13).

A list's rows are a *content*, keyed by the sha256 of its rows (:func:`content_sha`): a list whose
rows are already stored (the same list in force recorded again, a period published twice with the
same result) points at the stored content instead of inserting 1.9 M rows again.

A content is either full (every row) or *changed rows* over a full base content: the rows that
differ from the base, new rows, and a ``removed`` marker for each base row the list drops. A
published list is stored over the list in force it was computed from when that list is stored
full: a player who did not play keeps his row, except ``period_games``, 0 on the published list
and blank on the list in force; ``unlisted_period_games`` holds that value for every row taken
from the base, so only the rows that really changed (about a tenth of FIDE's list in a month)
are inserted. The ``list_rows`` view shows every list's rows whatever the layout.
"""

from __future__ import annotations

import hashlib
import sqlite3

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.publish.bulk_insert import insert_chunks, key_order
from pipeline.publish.list_file import LIST_TEXT_COLUMNS

INT_COLUMNS = ("birth_year", "rating", "period_games", "games", "k")

# Changed rows larger than this share of the list are stored as a full list instead: never more
# rows than the full list (in the FIDE-month benchmark about 65% of the players play).
MAX_CHANGED_SHARE = 1.0


def _arrow_rows(rows: pd.DataFrame, order: np.ndarray) -> pa.Table:
    """The stored columns in key order with fixed types (the same rows give the same bytes)."""
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
        arrays.append(array.take(pa.array(order)))
    return pa.table(arrays, names=list(LIST_TEXT_COLUMNS))


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


def content_sha(rows: pd.DataFrame) -> str:
    """sha256 of a list's rows as stored (columns ``LIST_TEXT_COLUMNS``, in key order): the Arrow
    IPC stream of the rows, fresh buffers, so equal rows always give equal bytes."""
    table = _arrow_rows(rows, key_order(rows["id"]))
    sink = _HashSink()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table.combine_chunks())
    return "rows-v2:" + sink.hash.hexdigest()


def changed_rows(new: pd.DataFrame, base: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The rows of ``new`` to store over ``base`` (the others are the base's with period_games
    0), compared as stored (:func:`_arrow_rows`), and the ids of ``base`` that ``new`` drops."""
    import pyarrow.compute as pc

    if base.empty:
        return new, []
    base_ids = pd.Index(base["id"].astype(str))
    new_ids = pd.Index(new["id"].astype(str))
    where = base_ids.get_indexer(new_ids)
    found = where >= 0
    mine = _arrow_rows(new, np.arange(len(new)))
    theirs = _arrow_rows(base, np.where(found, where, 0))
    keep = pa.array(~found)
    for column in LIST_TEXT_COLUMNS:
        a, b = mine[column], theirs[column]
        if column == "period_games":
            differs = pc.invert(pc.fill_null(pc.equal(a, 0), False))
        else:
            same = pc.or_(pc.fill_null(pc.equal(a, b), False), pc.and_(a.is_null(), b.is_null()))
            differs = pc.invert(same)
        keep = pc.or_(keep, differs)
    dropped = sorted(base_ids.difference(new_ids))
    return new.iloc[np.flatnonzero(np.asarray(keep))], dropped


def find_content(con: sqlite3.Connection, sha: str) -> tuple[int, bool] | None:
    """(id, stored full) of the content with rows hash ``sha``."""
    row = con.execute(
        "SELECT id, base_id IS NULL FROM list_contents WHERE sha256 = ?", (sha,)
    ).fetchone()
    return (int(row[0]), bool(row[1])) if row else None


def _insert_rows(con: sqlite3.Connection, content_id: int, rows: pd.DataFrame) -> None:
    insert_chunks(
        con,
        f"INSERT INTO content_rows (content_id, {', '.join(LIST_TEXT_COLUMNS)}) "
        f"VALUES ({int(content_id)}, {', '.join('?' for _ in LIST_TEXT_COLUMNS)})",
        rows,
        LIST_TEXT_COLUMNS,
        key_order(rows["id"]),
    )


def store_content(
    con: sqlite3.Connection,
    rows: pd.DataFrame,
    over: pd.DataFrame | None = None,
    sha: str | None = None,
    over_sha: str | None = None,
) -> int:
    """The id of the content holding ``rows``, inserted unless already stored. ``over``: the
    rows of a list that may be stored full already (the list in force): ``rows`` then go in as
    changed rows over it. ``sha``, ``over_sha``: their :func:`content_sha`, when known."""
    sha = sha or content_sha(rows)
    found = find_content(con, sha)
    if found is not None:
        return found[0]
    base = None
    if over is not None:
        base = find_content(con, over_sha or content_sha(over))
    if over is not None and base is not None and base[1]:
        changed, dropped = changed_rows(rows, over)
        if len(changed) + len(dropped) <= MAX_CHANGED_SHARE * len(rows):
            content_id = _new_content(con, sha, len(rows), base[0], 0)
            _insert_rows(con, content_id, changed)
            con.executemany(
                "INSERT INTO content_rows (content_id, id, name, federation, sex, title, "
                "ever_2400, flags, last_played, removed) "
                "VALUES (?, ?, '', '', '', '', 0, '', '', 1)",
                [(content_id, player) for player in dropped],
            )
            return content_id
    content_id = _new_content(con, sha, len(rows), None, None)
    _insert_rows(con, content_id, rows)
    return content_id


def _new_content(
    con: sqlite3.Connection, sha: str, players: int, base: int | None, unlisted: int | None
) -> int:
    cursor = con.execute(
        "INSERT INTO list_contents (sha256, base_id, unlisted_period_games, players) "
        "VALUES (?, ?, ?, ?)",
        (sha, base, unlisted, players),
    )
    return int(cursor.lastrowid or 0)
