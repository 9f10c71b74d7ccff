"""Finding a player in the history by name or id: the players of the newest list it holds whose
id is the query or whose name holds it (any case), for the history's search page."""

from __future__ import annotations

import sqlite3

import pyarrow.compute as pc

from pipeline.history.list_reading import content_of, list_table

SHOWN = 50  # matches listed at most; the page says when there are more


def newest_list(con: sqlite3.Connection) -> tuple[str, int] | None:
    """(month, content id) of the newest live list: the published one when a month has two."""
    row = con.execute(
        "SELECT effective, content_id FROM lists WHERE superseded = 0 "
        "ORDER BY effective DESC, kind = 'published' DESC, id DESC LIMIT 1"
    ).fetchone()
    return (row[0], int(row[1])) if row else None


def find_players(
    con: sqlite3.Connection, query: str, shown: int = SHOWN
) -> tuple[str | None, list[dict[str, object]], int]:
    """(the month of the list searched, up to ``shown`` matches by name, how many
    matched): a player whose id is ``query``, or whose name holds it whatever the case."""
    newest = newest_list(con)
    query = query.strip()
    if newest is None or not query:
        return (newest[0] if newest else None), [], 0
    month, content_id = newest
    table = list_table(con, content_of(con, content_id), ["id", "name", "federation", "rating"])
    names = pc.utf8_lower(table.column("name"))
    hit = pc.or_(
        pc.equal(table.column("id"), query),
        pc.match_substring(names, query.lower()),
    )
    found = table.filter(hit)
    order = pc.sort_indices(found, [("name", "ascending"), ("id", "ascending")])
    rows: list[dict[str, object]] = found.take(order).slice(0, shown).to_pylist()
    return month, rows, found.num_rows
