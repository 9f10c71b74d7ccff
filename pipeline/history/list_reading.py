"""The history's lists read back from their blocks (schema version 3): a whole list, the month
each player last played, one player over every list.

A list's rows are its content's stored rows that are not ``removed`` markers, then, for changed
rows over a base, the base's rows that the content does not store, with ``period_games`` the
content's ``unlisted_period_games`` where that is set (see :mod:`pipeline.history.list_contents`).
Everything is Arrow compute over decoded blocks; one player's rows decode only the blocks whose
id range holds the player.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.history.list_blocks import (
    block_holding,
    content_table,
    decode_block,
    ids_where,
)
from pipeline.lists.list_columns import LIST_TEXT_COLUMNS
from pipeline.rules.rating_kinds import DEFAULT_KIND, KINDS


@dataclass(frozen=True)
class Content:
    id: int
    base_id: int | None  # None: every row stored
    unlisted: int | None  # period_games of the rows taken from the base (None: the base's own)


def content_of(con: sqlite3.Connection, content_id: int) -> Content:
    base_id, unlisted = con.execute(
        "SELECT base_id, unlisted_period_games FROM list_contents WHERE id = ?", (content_id,)
    ).fetchone()
    return Content(int(content_id), base_id, unlisted)


def list_table(
    con: sqlite3.Connection,
    content: Content,
    columns: Sequence[str] = LIST_TEXT_COLUMNS,
    bases: dict[int, pa.Table] | None = None,
) -> pa.Table:
    """The ``columns`` of the list stored as ``content``: its stored rows that are not removed
    (key order), then the base's rows it does not store. ``bases``: base rows already decoded
    (many published lists share one base)."""
    wanted = list(dict.fromkeys(["id", *columns]))
    stored = content_table(con, content.id, [*wanted, "removed"])
    live = _live(stored, wanted)
    if content.base_id is None:
        return live.select(list(columns))
    bases = {} if bases is None else bases
    if content.base_id not in bases:
        bases[content.base_id] = _live(
            content_table(con, content.base_id, [*wanted, "removed"]), wanted
        )
    base = bases[content.base_id]
    taken = base.filter(pc.invert(pc.is_in(base.column("id"), value_set=_ids(stored))))
    if content.unlisted is not None and "period_games" in wanted:
        at = wanted.index("period_games")
        value = pa.array([content.unlisted] * taken.num_rows, pa.int64())
        taken = taken.set_column(at, "period_games", value)
    return pa.concat_tables([live, taken]).select(list(columns))


def _live(stored: pa.Table, columns: list[str]) -> pa.Table:
    """The ``columns`` of the stored rows that are not removed markers."""
    return stored.filter(pc.invert(stored.column("removed"))).select(columns)


def _ids(table: pa.Table) -> pa.Array:
    return table.column("id").combine_chunks()


def list_frame(table: pa.Table) -> pd.DataFrame:
    """A list's rows as the typed frame a list is read as: nullable ``Int64`` integers,
    ``ever_2400`` a boolean, text as ``str``."""
    return table.select(list(LIST_TEXT_COLUMNS)).to_pandas(
        types_mapper={pa.int64(): pd.Int64Dtype()}.get
    )


def last_played(
    con: sqlite3.Connection, replaced: int | None = None, rating_kind: str = DEFAULT_KIND
) -> pd.Series:
    """Player id -> the latest period in which a live published list of that kind shows rated
    games (``period_games`` > 0), the lists of the run being ``replaced`` left out."""
    lists = con.execute(
        "SELECT period, content_id FROM lists WHERE kind = 'published' AND superseded = 0 "
        "AND rating_kind = ? AND run_id IS NOT ? ORDER BY period DESC, id DESC",
        (rating_kind, replaced),
    ).fetchall()
    bases: dict[int, pa.Table] = {}
    ids, periods = [], []
    for period, content_id in lists:
        content = content_of(con, content_id)
        if content.base_id is not None and content.unlisted is not None and content.unlisted <= 0:
            # The rows taken from the base show no rated games: only the stored rows can.
            content = replace(content, base_id=None)
        rows = list_table(con, content, ("id", "period_games"), bases)
        played = ids_where(rows, pc.greater(rows.column("period_games"), 0))
        ids.append(played)
        periods.append(pa.array([period] * len(played), pa.string()))
    if not ids:
        return pd.Series([], index=pd.Index([], dtype=str), dtype=str)
    frame = pa.table({"id": pa.concat_arrays(ids), "period": pa.concat_arrays(periods)})
    # Latest period first: each player's first row is the latest.
    latest = frame.to_pandas().drop_duplicates("id").sort_values("id", kind="stable")
    return pd.Series(latest["period"].to_numpy(), index=pd.Index(latest["id"]), dtype=str)


HISTORY_COLUMNS = ("name", "rating", "period_games", "games", "k", "flags")


def player_history(
    con: sqlite3.Connection, player_id: str, rating_kind: str | None = None
) -> list[dict[str, object]]:
    """A player's row on every recorded list (of ``rating_kind``, or of every kind: standard,
    then rapid, then blitz), oldest first (superseded lists marked). ``rating_kind`` says
    standard, rapid or blitz; ``kind`` published or input."""
    lists = con.execute(
        "SELECT rating_kind, effective, period, kind, superseded, content_id FROM lists "
        "WHERE ?1 IS NULL OR rating_kind = ?1 ORDER BY effective, superseded DESC, id",
        (rating_kind,),
    ).fetchall()
    lists.sort(key=lambda r: _kind_order(r[0]))  # stable: each kind's lists keep their order
    found: dict[int, dict[str, object] | None] = {}
    out = []
    for list_kind, effective, period, kind, superseded, content_id in lists:
        if content_id not in found:
            found[content_id] = player_row(con, content_id, player_id)
        row = found[content_id]
        if row is not None:
            head = {"rating_kind": list_kind, "list": effective, "period": period, "kind": kind}
            out.append({**head, "superseded": bool(superseded), **row})
    return out


def _kind_order(kind: str) -> int:
    return KINDS.index(kind) if kind in KINDS else len(KINDS)


def names_on_list(con: sqlite3.Connection, content_id: int, ids: Sequence[str]) -> dict[str, str]:
    """Id -> name of those ``ids`` on the list stored as ``content_id``: one block read per id,
    for the few a page shows (a player's opponents), never a whole list."""
    found = {}
    for player_id in dict.fromkeys(ids):
        row = player_row(con, content_id, player_id)
        if row is not None:
            found[player_id] = str(row["name"])
    return found


def player_row(
    con: sqlite3.Connection,
    content_id: int,
    player_id: str,
    columns: Sequence[str] = HISTORY_COLUMNS,
) -> dict[str, object] | None:
    """The player's row on the list stored as ``content_id`` (``columns``: by default those a
    player's history shows; the rating site asks for every list column), or None: the one block
    that can hold it, then the base's when the content does not store it."""
    block = block_holding(con, content_id, player_id)
    if block is not None:
        rows = decode_block(block[1], tuple(dict.fromkeys(("id", *columns, "removed"))))
        mine = rows.filter(pc.equal(rows.column("id"), player_id)).to_pylist()
        if mine:
            row = mine[0]
            return None if row["removed"] else {c: row[c] for c in columns}
    content = content_of(con, content_id)
    if content.base_id is None:
        return None
    row = player_row(con, content.base_id, player_id, columns)
    if row is not None and content.unlisted is not None:
        row["period_games"] = content.unlisted
    return row
