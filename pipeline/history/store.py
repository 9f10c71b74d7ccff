"""The history store: an SQLite database (standard library ``sqlite3``) next to the outputs.

It holds standard, rapid and blitz lists side by side (schema version 5: every query of a run
names its kind, :mod:`pipeline.rules.rating_kinds`): every list published or started from
(each list's rows stored once: see :mod:`pipeline.history.list_contents`), every event rated
(with the sha256 of its file), the results of players who are not rated yet (the first-rating
pool), the first ratings published, and an audit log of every run. Nothing is ever deleted: a
replaced period is marked superseded.

The schema and its migrations are in :mod:`pipeline.history.schema`; :func:`connect`
brings an older database up to date.

Connections run in autocommit mode and every change of a run goes through one explicit
``BEGIN IMMEDIATE ... COMMIT`` (see :mod:`pipeline.jobs.period` for the order of the steps).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from pipeline.history.bulk_insert import insert_chunks
from pipeline.history.bulk_insert import key_order as key_order  # tests import it from here
from pipeline.history.list_contents import StoredRows, store_content
from pipeline.history.list_reading import content_of, list_frame, list_table
from pipeline.history.list_reading import last_played as last_played  # the run reads them here
from pipeline.history.list_reading import player_history as player_history
from pipeline.history.schema import SCHEMA_VERSION as SCHEMA_VERSION  # tests import it
from pipeline.history.schema import migrate
from pipeline.lists.first_rating import POOL_COLUMNS, POOL_DTYPES
from pipeline.lists.list_columns import LIST_TEXT_COLUMNS
from pipeline.rules.rating_kinds import DEFAULT_KIND, KINDS, check_kind

# The published list's columns, as stored: one definition, in listio (the list layout).
LIST_COLUMNS = LIST_TEXT_COLUMNS
# The pending table holds the first-rating pool: its columns are the pool's.
PENDING_COLUMNS = POOL_COLUMNS


def connect(path: Path | str) -> sqlite3.Connection:
    con = sqlite3.connect(str(path), isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    migrate(con)
    return con


@dataclass(frozen=True)
class PublishedPeriod:
    run_id: int
    period: str
    finished_at: str


def published_run(
    con: sqlite3.Connection, period: str, rating_kind: str = DEFAULT_KIND
) -> PublishedPeriod | None:
    """The live run that published ``period``'s list of that kind."""
    row = con.execute(
        "SELECT id, period, finished_at FROM runs WHERE period = ? AND rating_kind = ? "
        "AND outcome = 'published' AND superseded_by IS NULL ORDER BY id DESC LIMIT 1",
        (period, rating_kind),
    ).fetchone()
    return PublishedPeriod(*row) if row else None


def latest_published_period(con: sqlite3.Connection, rating_kind: str = DEFAULT_KIND) -> str | None:
    row = con.execute(
        "SELECT MAX(period) FROM runs WHERE outcome = 'published' AND superseded_by IS NULL "
        "AND rating_kind = ?",
        (rating_kind,),
    ).fetchone()
    return row[0] if row else None


def rated_events(con: sqlite3.Connection, hashes: Iterable[str]) -> dict[str, tuple[str, str, str]]:
    """sha256 -> (path it was rated from, period, kind of list) for live events among
    ``hashes``. An event is rated once in the whole history, whatever the kind."""
    found = {}
    for sha in hashes:
        row = con.execute(
            "SELECT path, period, rating_kind FROM events WHERE sha256 = ? AND superseded = 0",
            (sha,),
        ).fetchone()
        if row:
            found[sha] = (row[0], row[1], row[2])
    return found


def list_in_force(
    con: sqlite3.Connection, month: str, rating_kind: str = DEFAULT_KIND
) -> tuple[str, pd.DataFrame] | None:
    """(source, rows) of the live list of that kind in force in ``month``; a published one
    before an input."""
    row = con.execute(
        "SELECT id, source FROM lists WHERE effective = ? AND rating_kind = ? AND superseded = 0 "
        "ORDER BY kind = 'published' DESC, id DESC LIMIT 1",
        (month, rating_kind),
    ).fetchone()
    if row is None:
        return None
    return row[1], list_rows(con, row[0])


def live_list_sha(
    con: sqlite3.Connection,
    month: str,
    replaced: int | None = None,
    rating_kind: str = DEFAULT_KIND,
) -> tuple[str, str] | None:
    """(source, sha256) of the live list of that kind in force in ``month`` (the one
    :func:`list_in_force` returns), leaving out the lists of the run being ``replaced``."""
    row = con.execute(
        "SELECT source, sha256 FROM lists WHERE effective = ? AND rating_kind = ? "
        "AND superseded = 0 AND run_id IS NOT ? ORDER BY kind = 'published' DESC, id DESC LIMIT 1",
        (month, rating_kind, replaced),
    ).fetchone()
    return (row[0], row[1]) if row else None


def published_list_file(
    con: sqlite3.Connection, month: str, rating_kind: str = DEFAULT_KIND
) -> tuple[str, str] | None:
    """(file, sha256) of the live list of that kind this database published for ``month``."""
    row = con.execute(
        "SELECT source, sha256 FROM lists WHERE effective = ? AND rating_kind = ? "
        "AND kind = 'published' AND superseded = 0 ORDER BY id DESC LIMIT 1",
        (month, rating_kind),
    ).fetchone()
    return (row[0], row[1]) if row else None


def list_rows(con: sqlite3.Connection, list_id: int) -> pd.DataFrame:
    """A list's rows, typed as a list is read (:func:`list_reading.list_frame`)."""
    (content_id,) = con.execute("SELECT content_id FROM lists WHERE id = ?", (list_id,)).fetchone()
    return list_frame(list_table(con, content_of(con, content_id)))


def typed_list_rows(rows: list) -> pd.DataFrame:
    """Rows of a list (tuples or dicts in ``LIST_COLUMNS`` order) as the typed frame a list is
    read as: nullable integers, ``ever_2400`` a boolean, text as ``str``."""
    frame = pd.DataFrame(rows, columns=LIST_COLUMNS)
    for column in ("birth_year", "rating", "period_games", "games", "k"):
        frame[column] = pd.array(frame[column].tolist(), dtype="Int64")
    frame["ever_2400"] = frame["ever_2400"].astype(bool)
    for column in ("id", "name", "federation", "sex", "title", "flags", "last_played"):
        frame[column] = frame[column].astype(str)
    return frame


def pending_results(
    con: sqlite3.Connection,
    replaced: int | None = None,
    player: str | None = None,
    rating_kind: str = DEFAULT_KIND,
) -> pd.DataFrame:
    """Live pending results of that kind of list not yet used by a first rating of it (the pool
    before this run: each kind has its own).

    The run being ``replaced`` is read as if it were already superseded: its own pending rows
    are this period's (rated again now), and a first rating it published must not hide the
    earlier results it was computed from (issue 12, item 1). ``player``: one player's only.
    """
    cursor = con.execute(*pending_query(replaced, player, rating_kind))
    return pd.DataFrame(cursor.fetchall(), columns=PENDING_COLUMNS).astype(POOL_DTYPES)


def pending_query(
    replaced: int | None, player: str | None, rating_kind: str = DEFAULT_KIND
) -> tuple[str, tuple[object, ...]]:
    """The SQL and parameters of :func:`pending_results`. A row is hidden when the player has a
    live first rating in its period or later: each player's latest such period is taken once
    (a correlated ``NOT EXISTS`` scanned first_ratings for every pending row: 200,000 rows
    against 20,000 first ratings: stopped after 90 s, now 3 s). One player's: ``p.player_id = ?``
    on its own, so SQLite looks the player up in the pending_player index."""
    one = "AND p.player_id = ? " if player is not None else ""
    return (
        f"SELECT {', '.join('p.' + c for c in PENDING_COLUMNS)} FROM pending p "
        "LEFT JOIN (SELECT player_id, MAX(period) AS latest FROM first_ratings "
        "WHERE superseded = 0 AND run_id IS NOT ? AND rating_kind = ? GROUP BY player_id) f "
        "ON f.player_id = p.player_id "
        f"WHERE p.superseded = 0 AND p.run_id IS NOT ? AND p.rating_kind = ? {one}"
        "AND (f.latest IS NULL OR f.latest < p.period) "
        "ORDER BY p.period, p.start_date, p.event",
        (
            replaced,
            rating_kind,
            replaced,
            rating_kind,
            *([player] if player is not None else []),
        ),
    )


def player_pending(
    con: sqlite3.Connection, player_id: str, rating_kind: str | None = None
) -> list[dict[str, object]]:
    """A player's results waiting for a first rating (the live pool of each kind, or of
    ``rating_kind``), kind by kind, oldest first, as JSON-ready values: points as exact text
    (they are halves), the rated opponents' sum."""
    kinds = KINDS if rating_kind is None else (rating_kind,)
    return [
        row
        for kind in kinds
        for row in _pending_rows(pending_results(con, player=player_id, rating_kind=kind), kind)
    ]


def _pending_rows(rows: pd.DataFrame, rating_kind: str) -> list[dict[str, object]]:
    return [
        {
            "rating_kind": rating_kind,
            "period": r.period,
            "event": r.event,
            "start_date": r.start_date,
            "games": int(r.games),
            "points": f"{int(r.points_h) // 100}.{int(r.points_h) % 100 // 10}",
            "opponents_sum": int(r.opp_sum),
            "disregarded": bool(r.disregarded),
        }
        for r in rows.itertuples(index=False)
    ]


def sql_text(text: str) -> str:
    """``text`` as an SQL string literal (quotes doubled): for a value fixed for every row of a
    bulk insert, such as a checked kind of list."""
    return "'" + text.replace("'", "''") + "'"


def insert_run(con: sqlite3.Connection, **fields: object) -> int:
    fields = {k: json.dumps(v) if k == "inputs" else v for k, v in fields.items()}
    names = ", ".join(fields)
    marks = ", ".join("?" for _ in fields)
    cursor = con.execute(f"INSERT INTO runs ({names}) VALUES ({marks})", tuple(fields.values()))
    return int(cursor.lastrowid or 0)


def insert_list(
    con: sqlite3.Connection,
    run_id: int,
    kind: str,
    effective: str,
    period: str | None,
    source: str,
    sha256: str,
    rows: pd.DataFrame | StoredRows,
    over: pd.DataFrame | StoredRows | None = None,
    rows_sha: str | None = None,
    over_sha: str | None = None,
    rating_kind: str = DEFAULT_KIND,
) -> int:
    """A list of the history (``rating_kind``: standard, rapid or blitz; ``kind``: published
    or input); its rows stored once (:func:`list_contents.store_content`: not
    again when the same rows are stored, as changed rows ``over`` a list stored full)."""
    content_id = store_content(con, rows, over, rows_sha, over_sha)
    cursor = con.execute(
        "INSERT INTO lists (run_id, rating_kind, kind, effective, period, source, sha256, players, "
        "content_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (run_id, rating_kind, kind, effective, period, source, sha256, len(rows), content_id),
    )
    return int(cursor.lastrowid or 0)


def has_list_in_force(con: sqlite3.Connection, month: str, rating_kind: str = DEFAULT_KIND) -> bool:
    """Whether a live list of that kind is in force in ``month`` (without reading its rows)."""
    row = con.execute(
        "SELECT 1 FROM lists WHERE effective = ? AND rating_kind = ? AND superseded = 0 LIMIT 1",
        (month, rating_kind),
    ).fetchone()
    return row is not None


# The indexed column of a table: its rows go in in that column's key order (stable: one player's
# rows keep their order), so the index grows at the end instead of taking each row at a random
# place (480,000 pending rows: 5.4 -> 1.5 s of CPU). No query reads rows in insertion order
# across players: the pool is summed by player (first_rating.first_ratings).
INDEXED_COLUMN = {"pending": "player_id"}


def insert_rows(
    con: sqlite3.Connection,
    table: str,
    frame: pd.DataFrame,
    run_id: int,
    rating_kind: str = DEFAULT_KIND,
) -> None:
    """The run's rows of ``table`` (pending results, first ratings), of its kind of list."""
    if frame.empty:
        return
    columns = list(frame.columns)
    key = INDEXED_COLUMN.get(table)
    kind = sql_text(check_kind(rating_kind))
    insert_chunks(
        con,
        f"INSERT INTO {table} (run_id, rating_kind, {', '.join(columns)})",
        f"({int(run_id)}, {kind}, {', '.join('?' for _ in columns)})",
        frame,
        columns,
        key_order(frame[key]) if key is not None else None,
    )


EVENT_COLUMNS = ("sha256", "path", "names", "start_date", "period", "games")


def insert_events(
    con: sqlite3.Connection,
    run_id: int,
    rows: Sequence[tuple[object, ...]],
    rating_kind: str = DEFAULT_KIND,
) -> None:
    """The run's event files, one row each in the order of ``EVENT_COLUMNS``."""
    con.executemany(
        f"INSERT INTO events (run_id, rating_kind, {', '.join(EVENT_COLUMNS)}) "
        f"VALUES (?, ?, {', '.join('?' for _ in EVENT_COLUMNS)})",
        [(run_id, rating_kind, *row) for row in rows],
    )


def insert_file_moves(
    con: sqlite3.Connection, run_id: int, planned: Sequence[tuple[Path, Path]]
) -> None:
    """The rename journal: the run's temporary files and their final names."""
    con.executemany(
        "INSERT INTO file_moves (run_id, tmp, final) VALUES (?, ?, ?)",
        [(run_id, str(tmp), str(final)) for tmp, final in planned],
    )


def clear_file_moves(con: sqlite3.Connection, run_id: int) -> None:
    """Every rename of the run is done: the journal entries go."""
    con.execute("DELETE FROM file_moves WHERE run_id = ?", (run_id,))


def supersede(con: sqlite3.Connection, old_run: int, new_run: int) -> None:
    """--replace: keep everything the old run wrote, marked superseded."""
    con.execute("UPDATE runs SET superseded_by = ? WHERE id = ?", (new_run, old_run))
    for table in ("lists", "events", "pending", "first_ratings"):
        con.execute(f"UPDATE {table} SET superseded = 1 WHERE run_id = ?", (old_run,))


def run_inputs(con: sqlite3.Connection, run_id: int) -> list[dict[str, str]]:
    row = con.execute("SELECT inputs FROM runs WHERE id = ?", (run_id,)).fetchone()
    return json.loads(row[0]) if row else []
