"""The history store: an SQLite database (standard library ``sqlite3``) next to the outputs.

It holds every list published or started from (each list's rows stored once: see
:mod:`pipeline.publish.list_contents`), every event rated (with the sha256 of its file), the
results of players who are not rated yet (the first-rating pool), the first ratings published,
and an audit log of every run. Nothing is ever deleted: a replaced period is marked superseded.

The schema is versioned with ``PRAGMA user_version``; :func:`migrate` brings an older database up
to :data:`SCHEMA_VERSION`, one step per version, each step in its own transaction.

Connections run in autocommit mode and every change of a run goes through one explicit
``BEGIN IMMEDIATE ... COMMIT`` (see :mod:`pipeline.publish.run` for the order of the steps).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from pipeline.publish.bulk_insert import insert_chunks
from pipeline.publish.bulk_insert import key_order as key_order  # tests import it from here
from pipeline.publish.first_rating import POOL_COLUMNS, POOL_DTYPES
from pipeline.publish.list_contents import store_content
from pipeline.publish.list_file import LIST_TEXT_COLUMNS

SCHEMA_VERSION = 2

_ROW_COLUMNS = ", ".join(LIST_TEXT_COLUMNS)


def _columns_of(table: str, period_games: str | None = None) -> str:
    """The list columns of ``table`` for the list_rows view (``period_games``: its expression)."""
    return ", ".join(
        period_games if c == "period_games" and period_games else f"{table}.{c}"
        for c in LIST_TEXT_COLUMNS
    )


# One list of statements per version: version N is reached by running MIGRATIONS[N - 1].
MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE schema_version (
            version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)""",
        # The audit log: one row per run, whatever its outcome.
        """CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            started_at TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            user TEXT NOT NULL,
            command TEXT NOT NULL,
            period TEXT,
            outcome TEXT NOT NULL,   -- published | failed | refused
            message TEXT NOT NULL DEFAULT '',
            inputs TEXT NOT NULL DEFAULT '[]',   -- JSON [{role, path, sha256}]
            superseded_by INTEGER REFERENCES runs(id))""",
        """CREATE TABLE lists (
            id INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs(id),
            kind TEXT NOT NULL,       -- published (by a run) | input (the list a run started from)
            effective TEXT NOT NULL,  -- the month the list is in force, YYYY-MM
            period TEXT,              -- the rating period that produced a published list
            source TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            players INTEGER NOT NULL,
            superseded INTEGER NOT NULL DEFAULT 0)""",
        """CREATE TABLE list_rows (
            list_id INTEGER NOT NULL REFERENCES lists(id),
            id TEXT NOT NULL, name TEXT NOT NULL, federation TEXT NOT NULL, sex TEXT NOT NULL,
            title TEXT NOT NULL, birth_year INTEGER, rating INTEGER, period_games INTEGER,
            games INTEGER, k INTEGER, ever_2400 INTEGER NOT NULL, flags TEXT NOT NULL,
            last_played TEXT NOT NULL,
            PRIMARY KEY (list_id, id)) WITHOUT ROWID""",
        "CREATE INDEX list_rows_player ON list_rows(id)",
        """CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs(id),
            sha256 TEXT NOT NULL,
            path TEXT NOT NULL,
            names TEXT NOT NULL,
            start_date TEXT,
            period TEXT NOT NULL,
            games INTEGER NOT NULL,
            superseded INTEGER NOT NULL DEFAULT 0)""",
        # The database itself refuses a second live copy of the same event.
        "CREATE UNIQUE INDEX events_live_sha256 ON events(sha256) WHERE superseded = 0",
        """CREATE TABLE pending (
            run_id INTEGER NOT NULL REFERENCES runs(id),
            player_id TEXT NOT NULL,
            event_sha256 TEXT NOT NULL,
            event TEXT NOT NULL,
            period TEXT NOT NULL,
            start_date TEXT NOT NULL,
            games INTEGER NOT NULL,       -- games against rated opponents
            points_h INTEGER NOT NULL,    -- points in hundredths
            opp_sum INTEGER NOT NULL,     -- sum of the rated opponents' ratings
            disregarded INTEGER NOT NULL, -- zero score in the player's first event
            superseded INTEGER NOT NULL DEFAULT 0)""",
        "CREATE INDEX pending_player ON pending(player_id)",
        """CREATE TABLE first_ratings (
            run_id INTEGER NOT NULL REFERENCES runs(id),
            player_id TEXT NOT NULL,
            period TEXT NOT NULL,
            rating INTEGER NOT NULL,
            games INTEGER NOT NULL,
            points_h INTEGER NOT NULL,
            opp_sum INTEGER NOT NULL,
            superseded INTEGER NOT NULL DEFAULT 0)""",
        # Roll-forward journal: temporary output files to rename once the run is committed.
        """CREATE TABLE file_moves (
            run_id INTEGER NOT NULL REFERENCES runs(id), tmp TEXT NOT NULL, final TEXT NOT NULL)""",
    ],
    [
        # Version 2 (issue 13): each list's rows stored once, as a content keyed by the sha256 of
        # its rows, full or as changed rows over a full base (pipeline.publish.list_contents);
        # list_rows becomes a view of every list's rows. A version 1 list keeps its rows as a
        # full content of its own (no rows hash: it is never shared).
        """CREATE TABLE list_contents (
            id INTEGER PRIMARY KEY,
            sha256 TEXT UNIQUE,            -- of the rows (list_contents.content_hashes)
            blank_sha256 TEXT,             -- of the rows with period_games blank
            base_id INTEGER REFERENCES list_contents(id),  -- NULL: every row stored
            unlisted_period_games INTEGER, -- period_games of the rows taken from the base
            players INTEGER NOT NULL)""",
        "CREATE INDEX list_contents_blank ON list_contents(blank_sha256)",
        "INSERT INTO list_contents (id, players) SELECT id, players FROM lists",
        "ALTER TABLE lists ADD COLUMN content_id INTEGER REFERENCES list_contents(id)",
        "UPDATE lists SET content_id = id",
        """CREATE TABLE content_rows (
            content_id INTEGER NOT NULL REFERENCES list_contents(id),
            id TEXT NOT NULL, name TEXT NOT NULL, federation TEXT NOT NULL, sex TEXT NOT NULL,
            title TEXT NOT NULL, birth_year INTEGER, rating INTEGER, period_games INTEGER,
            games INTEGER, k INTEGER, ever_2400 INTEGER NOT NULL, flags TEXT NOT NULL,
            last_played TEXT NOT NULL,
            removed INTEGER NOT NULL DEFAULT 0,  -- 1: the base's row is not on this list
            PRIMARY KEY (content_id, id)) WITHOUT ROWID""",
        f"""INSERT INTO content_rows (content_id, {_ROW_COLUMNS})
            SELECT list_id, {_ROW_COLUMNS} FROM list_rows ORDER BY list_id, id""",
        "DROP INDEX list_rows_player",
        "DROP TABLE list_rows",
        "CREATE INDEX content_rows_player ON content_rows(id)",
        f"""CREATE VIEW list_rows (list_id, {_ROW_COLUMNS}) AS
            SELECT l.id, {_columns_of("r")}
            FROM lists l JOIN content_rows r ON r.content_id = l.content_id WHERE r.removed = 0
            UNION ALL
            SELECT l.id, {_columns_of("b", "COALESCE(c.unlisted_period_games, b.period_games)")}
            FROM lists l JOIN list_contents c ON c.id = l.content_id
            JOIN content_rows b ON b.content_id = c.base_id
            WHERE NOT EXISTS (
                SELECT 1 FROM content_rows r WHERE r.content_id = c.id AND r.id = b.id)""",
    ],
]

# The published list's columns, as stored: one definition, in listio (the list layout).
LIST_COLUMNS = LIST_TEXT_COLUMNS
# The pending table holds the first-rating pool: its columns are the pool's.
PENDING_COLUMNS = POOL_COLUMNS


def connect(path: Path | str) -> sqlite3.Connection:
    con = sqlite3.connect(str(path), isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    migrate(con)
    return con


def migrate(con: sqlite3.Connection) -> int:
    """Apply the migrations this database lacks; returns the version it is at now."""
    version = con.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        from pipeline.errors import RunError

        raise RunError(
            f"the history database is schema version {version}, newer than this fiderate "
            f"({SCHEMA_VERSION}): upgrade fiderate"
        )
    for target in range(version + 1, SCHEMA_VERSION + 1):
        con.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[target - 1]:
                con.execute(statement)
            con.execute("INSERT INTO schema_version (version) VALUES (?)", (target,))
            con.execute(f"PRAGMA user_version = {target}")
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    return SCHEMA_VERSION


@dataclass(frozen=True)
class PublishedPeriod:
    run_id: int
    period: str
    finished_at: str


def published_run(con: sqlite3.Connection, period: str) -> PublishedPeriod | None:
    row = con.execute(
        "SELECT id, period, finished_at FROM runs WHERE period = ? AND outcome = 'published' "
        "AND superseded_by IS NULL ORDER BY id DESC LIMIT 1",
        (period,),
    ).fetchone()
    return PublishedPeriod(*row) if row else None


def latest_published_period(con: sqlite3.Connection) -> str | None:
    row = con.execute(
        "SELECT MAX(period) FROM runs WHERE outcome = 'published' AND superseded_by IS NULL"
    ).fetchone()
    return row[0] if row else None


def rated_events(con: sqlite3.Connection, hashes: Iterable[str]) -> dict[str, tuple[str, str]]:
    """sha256 -> (path it was rated from, period) for live events among ``hashes``."""
    found = {}
    for sha in hashes:
        row = con.execute(
            "SELECT path, period FROM events WHERE sha256 = ? AND superseded = 0", (sha,)
        ).fetchone()
        if row:
            found[sha] = (row[0], row[1])
    return found


def list_in_force(con: sqlite3.Connection, month: str) -> tuple[str, pd.DataFrame] | None:
    """(source, rows) of the live list in force in ``month``; a published one before an input."""
    row = con.execute(
        "SELECT id, source FROM lists WHERE effective = ? AND superseded = 0 "
        "ORDER BY kind = 'published' DESC, id DESC LIMIT 1",
        (month,),
    ).fetchone()
    if row is None:
        return None
    return row[1], list_rows(con, row[0])


def live_list_sha(
    con: sqlite3.Connection, month: str, replaced: int | None = None
) -> tuple[str, str] | None:
    """(source, sha256) of the live list in force in ``month`` (the one :func:`list_in_force`
    returns), leaving out the lists of the run being ``replaced``."""
    row = con.execute(
        "SELECT source, sha256 FROM lists WHERE effective = ? AND superseded = 0 "
        "AND run_id IS NOT ? ORDER BY kind = 'published' DESC, id DESC LIMIT 1",
        (month, replaced),
    ).fetchone()
    return (row[0], row[1]) if row else None


def published_list_file(con: sqlite3.Connection, month: str) -> tuple[str, str] | None:
    """(file, sha256) of the live list this database published for ``month``, if any."""
    row = con.execute(
        "SELECT source, sha256 FROM lists WHERE effective = ? AND kind = 'published' "
        "AND superseded = 0 ORDER BY id DESC LIMIT 1",
        (month,),
    ).fetchone()
    return (row[0], row[1]) if row else None


def list_rows(con: sqlite3.Connection, list_id: int) -> pd.DataFrame:
    cursor = con.execute(
        f"SELECT {', '.join(LIST_COLUMNS)} FROM list_rows WHERE list_id = ?", (list_id,)
    )
    frame = pd.DataFrame(cursor.fetchall(), columns=LIST_COLUMNS)
    for column in ("birth_year", "rating", "period_games", "games", "k"):
        frame[column] = pd.array(frame[column].tolist(), dtype="Int64")
    frame["ever_2400"] = frame["ever_2400"].astype(bool)
    for column in ("id", "name", "federation", "sex", "title", "flags", "last_played"):
        frame[column] = frame[column].astype(str)
    return frame


def last_played(con: sqlite3.Connection, replaced: int | None = None) -> pd.Series:
    """Player id -> the latest period in which a live published list shows rated games (the
    lists of the run being ``replaced`` left out: they are about to be superseded)."""
    rows = con.execute(
        "SELECT r.id, MAX(l.period) FROM list_rows r JOIN lists l ON l.id = r.list_id "
        "WHERE l.kind = 'published' AND l.superseded = 0 AND l.run_id IS NOT ? "
        "AND r.period_games > 0 GROUP BY r.id",
        (replaced,),
    ).fetchall()
    return pd.Series(dict(rows), dtype=str)


def pending_results(
    con: sqlite3.Connection, replaced: int | None = None, player: str | None = None
) -> pd.DataFrame:
    """Live pending results not yet used by a first rating (the pool before this run).

    The run being ``replaced`` is read as if it were already superseded: its own pending rows
    are this period's (rated again now), and a first rating it published must not hide the
    earlier results it was computed from (issue 12, item 1). ``player``: one player's only.
    """
    cursor = con.execute(
        f"SELECT {', '.join('p.' + c for c in PENDING_COLUMNS)} FROM pending p "
        "WHERE p.superseded = 0 AND p.run_id IS NOT ? AND (? IS NULL OR p.player_id = ?) "
        "AND NOT EXISTS (SELECT 1 FROM first_ratings f WHERE f.player_id = p.player_id "
        "AND f.superseded = 0 AND f.run_id IS NOT ? AND f.period >= p.period) "
        "ORDER BY p.period, p.start_date, p.event",
        (replaced, player, player, replaced),
    )
    return pd.DataFrame(cursor.fetchall(), columns=PENDING_COLUMNS).astype(POOL_DTYPES)


def player_pending(con: sqlite3.Connection, player_id: str) -> list[dict[str, object]]:
    """A player's results waiting for a first rating (the live pool), oldest first, as
    JSON-ready values: points as exact text (they are halves), the rated opponents' sum."""
    rows = pending_results(con, player=player_id)
    return [
        {
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
    rows: pd.DataFrame,
    over: pd.DataFrame | None = None,
    rows_sha: str | None = None,
    over_sha: str | None = None,
) -> int:
    """A list of the history; its rows stored once (:func:`list_contents.store_content`: not
    again when the same rows are stored, as changed rows ``over`` a list stored full)."""
    content_id = store_content(con, rows, over, rows_sha, over_sha)
    cursor = con.execute(
        "INSERT INTO lists (run_id, kind, effective, period, source, sha256, players, content_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (run_id, kind, effective, period, source, sha256, len(rows), content_id),
    )
    return int(cursor.lastrowid or 0)


def has_list_in_force(con: sqlite3.Connection, month: str) -> bool:
    """Whether a live list is in force in ``month`` (without reading its rows)."""
    row = con.execute(
        "SELECT 1 FROM lists WHERE effective = ? AND superseded = 0 LIMIT 1", (month,)
    ).fetchone()
    return row is not None


def insert_rows(con: sqlite3.Connection, table: str, frame: pd.DataFrame, run_id: int) -> None:
    if frame.empty:
        return
    columns = list(frame.columns)
    insert_chunks(
        con,
        f"INSERT INTO {table} (run_id, {', '.join(columns)}) "
        f"VALUES ({int(run_id)}, {', '.join('?' for _ in columns)})",
        frame,
        columns,
    )


EVENT_COLUMNS = ("sha256", "path", "names", "start_date", "period", "games")


def insert_events(con: sqlite3.Connection, run_id: int, rows: Sequence[tuple[object, ...]]) -> None:
    """The run's event files, one row each in the order of ``EVENT_COLUMNS``."""
    con.executemany(
        f"INSERT INTO events (run_id, {', '.join(EVENT_COLUMNS)}) "
        f"VALUES (?, {', '.join('?' for _ in EVENT_COLUMNS)})",
        [(run_id, *row) for row in rows],
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


def player_history(con: sqlite3.Connection, player_id: str) -> list[dict[str, object]]:
    """A player's row on every recorded list, oldest first (superseded lists marked)."""
    rows = con.execute(
        "SELECT l.effective, l.period, l.kind, l.superseded, r.name, r.rating, r.period_games, "
        "r.games, r.k, r.flags FROM list_rows r JOIN lists l ON l.id = r.list_id "
        "WHERE r.id = ? ORDER BY l.effective, l.superseded DESC, l.id",
        (player_id,),
    ).fetchall()
    keys = [
        "list",
        "period",
        "kind",
        "superseded",
        "name",
        "rating",
        "period_games",
        "games",
        "k",
        "flags",
    ]
    out = []
    for row in rows:
        record = dict(zip(keys, row, strict=True))
        record["superseded"] = bool(record["superseded"])
        out.append(record)
    return out
