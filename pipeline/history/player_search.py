"""Finding a player in the history by name or id: the players of the newest list of each kind
it holds (standard, rapid, blitz: a player on any of them is found) whose id is the query or
whose name holds it (any case), for the history's search page."""

from __future__ import annotations

import sqlite3

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.history.list_reading import content_of, list_table
from pipeline.rules.rating_kinds import KINDS

SHOWN = 50  # matches listed at most; the page says when there are more


def newest_lists(con: sqlite3.Connection) -> dict[str, tuple[str, int]]:
    """Kind -> (month, content id) of its newest live list (the published one when a month has
    two), in the order of :data:`KINDS`."""
    found = {}
    for kind in KINDS:
        row = con.execute(
            "SELECT effective, content_id FROM lists WHERE superseded = 0 AND rating_kind = ? "
            "ORDER BY effective DESC, kind = 'published' DESC, id DESC LIMIT 1",
            (kind,),
        ).fetchone()
        if row is not None:
            found[kind] = (row[0], int(row[1]))
    return found


def newest_list(con: sqlite3.Connection) -> tuple[str, int] | None:
    """(month, content id) of the newest live list of any kind."""
    lists = newest_lists(con).values()
    return max(lists, key=lambda m: m[0]) if lists else None


def find_players(
    con: sqlite3.Connection, query: str, shown: int = SHOWN
) -> tuple[str | None, list[dict[str, object]], int]:
    """(the month of the newest list searched, up to ``shown`` matches by name, how many
    players matched): a player whose id is ``query``, or whose name holds it whatever the
    case, on the newest list of any kind. A match's ``rating`` is that of its first kind
    (standard, rapid, blitz) and ``ratings`` holds each kind's."""
    newest = newest_lists(con)
    month = max((m for m, _ in newest.values()), default=None)
    query = query.strip()
    if not newest or not query:
        return month, [], 0
    parts = []
    for order, (kind, (_, content_id)) in enumerate(newest.items()):
        table = list_table(con, content_of(con, content_id), ["id", "name", "federation", "rating"])
        names = pc.utf8_lower(table.column("name"))
        hit = pc.or_(pc.equal(table.column("id"), query), pc.match_substring(names, query.lower()))
        found = table.filter(hit)
        parts.append(
            found.append_column(
                "kind", pa.array([kind] * found.num_rows, pa.string())
            ).append_column("order", pa.array([order] * found.num_rows, pa.int64()))
        )
    found = pa.concat_tables(parts)
    matched = pc.count_distinct(found.column("id")).as_py()
    sort = [("name", "ascending"), ("id", "ascending"), ("order", "ascending")]
    first = found.take(pc.sort_indices(found, sort)).slice(0, shown * len(KINDS)).to_pylist()
    players: dict[str, dict[str, object]] = {}
    for row in first:
        player = players.setdefault(
            row["id"],
            {k: row[k] for k in ("id", "name", "federation", "rating")} | {"ratings": {}},
        )
        player["ratings"][row["kind"]] = row["rating"]  # type: ignore[index]
    return month, list(players.values())[:shown], matched
