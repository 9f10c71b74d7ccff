"""The history database's schema: one list of SQL statements per version, and the migration.

The schema is versioned with ``PRAGMA user_version``; :func:`migrate` brings an older database up
to :data:`SCHEMA_VERSION`, one step per version, each step in its own transaction. Version 2
stores each list's rows once (see :mod:`pipeline.history.list_contents`); version 3 stores them
as compressed blocks (:mod:`pipeline.history.list_blocks`); version 4 stores each period's
calculation, player by player (:mod:`pipeline.history.period_calculations`); version 5 holds
standard, rapid and blitz lists side by side (:mod:`pipeline.rules.rating_kinds`), and the
rule set (era) of each run. A step is SQL
statements, or a function of the connection where SQL alone cannot do it (rows into blocks).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from pipeline.errors import RunError
from pipeline.history.list_blocks import BLOCK_COLUMNS, BLOCK_ROWS, insert_blocks, sql_rows_table
from pipeline.lists.list_columns import LIST_TEXT_COLUMNS
from pipeline.rules.rating_kinds import DEFAULT_KIND, kind_of_rules
from pipeline.rules.sets import DEFAULT_RULES

SCHEMA_VERSION = 5
# PRAGMA application_id of a fiderate history ("FIDR"): tells it from another program's SQLite
# file (pipeline.history.database refuses those). Set by every migration step.
APPLICATION_ID = 0x46494452

_ROW_COLUMNS = ", ".join(LIST_TEXT_COLUMNS)


def _columns_of(table: str, period_games: str | None = None) -> str:
    """The list columns of ``table`` for the list_rows view (``period_games``: its expression)."""
    return ", ".join(
        period_games if c == "period_games" and period_games else f"{table}.{c}"
        for c in LIST_TEXT_COLUMNS
    )


def _rows_into_blocks(con: sqlite3.Connection) -> None:
    """Version 3: each content's ``content_rows`` (in key order: their primary key) into blocks,
    a block's rows read at a time."""
    contents = [r[0] for r in con.execute("SELECT id FROM list_contents ORDER BY id")]
    for content_id in contents:
        cursor = con.execute(
            f"SELECT {', '.join(BLOCK_COLUMNS)} FROM content_rows WHERE content_id = ? ORDER BY id",
            (content_id,),
        )
        while rows := cursor.fetchmany(BLOCK_ROWS):
            insert_blocks(con, content_id, sql_rows_table(rows))


# The tables whose rows belong to one kind of list (version 5): a run's rows are its kind's.
KIND_TABLES = ("runs", "lists", "events", "pending", "first_ratings")


def kind_of_command(command: str) -> str | None:
    """The kind of list named by the ``--rules`` of a recorded command line (the default's when
    it has none); None when it names no rule set this fiderate knows."""
    # The CLI records its arguments joined by spaces (``cli.period``), unquoted: split alike.
    words = command.split()
    name = DEFAULT_RULES
    for at, word in enumerate(words):
        if word == "--rules" and at + 1 < len(words):
            name = words[at + 1]
        elif word.startswith("--rules="):
            name = word.partition("=")[2]
    try:
        return kind_of_rules(name)
    except RunError:
        return None


def _kind_of_history(con: sqlite3.Connection) -> None:
    """Version 5: a history written before holds one kind of list, the one its runs' command
    lines name with ``--rules`` (standard when none does); every row is that kind's. Should the
    lines disagree (a --rules given by mistake), the latest live published run decides: the
    next run continues from its list."""
    commands = con.execute(
        "SELECT command FROM runs WHERE outcome = 'published' ORDER BY superseded_by IS NULL, id"
    ).fetchall()
    kinds = [kind for (command,) in commands if (kind := kind_of_command(command)) is not None]
    kind = kinds[-1] if kinds else DEFAULT_KIND
    if kind == DEFAULT_KIND:
        return  # the columns' default: no row rewritten (a FIDE-size pool is 10^5-10^6 rows)
    for table in KIND_TABLES:
        con.execute(f"UPDATE {table} SET rating_kind = ?", (kind,))


# One list of steps per version: version N is reached by running MIGRATIONS[N - 1].
MIGRATIONS: list[list[str | Callable[[sqlite3.Connection], None]]] = [
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
        # its rows, full or as changed rows over a full base (pipeline.history.list_contents);
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
    [
        # Version 3 (issue 13): a content's rows as compressed blocks of rows in key order, each
        # with its first and last id (pipeline.history.list_blocks); the list_rows view goes
        # (SQL cannot read the blocks: pipeline.history.list_reading reads lists).
        """CREATE TABLE content_blocks (
            content_id INTEGER NOT NULL REFERENCES list_contents(id),
            first_id TEXT NOT NULL,
            last_id TEXT NOT NULL,
            rows INTEGER NOT NULL,
            data BLOB NOT NULL)   -- Arrow IPC file, zstd: the rows, then removed""",
        "CREATE UNIQUE INDEX content_blocks_range ON content_blocks(content_id, last_id, first_id)",
        _rows_into_blocks,
        "DROP VIEW list_rows",
        "DROP INDEX content_rows_player",
        "DROP TABLE content_rows",
    ],
    [
        # Version 4 (issue 35): each period's calculation (pipeline.history.period_calculations).
        # A period published before has none, and none is made up: its pages say so.
        """CREATE TABLE calculated_runs (
        run_id INTEGER PRIMARY KEY REFERENCES runs(id),
        scale INTEGER NOT NULL)   -- pd_units, dev_units and change_units are in 1/scale""",
        """CREATE TABLE period_changes (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        player_id TEXT NOT NULL,
        rating INTEGER NOT NULL,     -- the rating the change is added to
        k INTEGER NOT NULL,          -- the K that rated the period's games
        k_rule TEXT NOT NULL,        -- why that K
        next_k INTEGER,              -- the K of the next list (rates the next period)
        games INTEGER NOT NULL,      -- rated games
        score_h INTEGER NOT NULL,    -- points in hundredths
        change_units INTEGER NOT NULL,  -- K x sum(S - PD), exact, in 1/scale
        change INTEGER NOT NULL,     -- rounded once, half away from zero
        new_rating INTEGER,
        PRIMARY KEY (run_id, player_id)) WITHOUT ROWID""",
        "CREATE INDEX period_changes_player ON period_changes(player_id)",
        """CREATE TABLE period_breakdown (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        first_id TEXT NOT NULL,
        last_id TEXT NOT NULL,
        rows INTEGER NOT NULL,
        data BLOB NOT NULL)   -- Arrow IPC file, zstd: GAME_SCHEMA""",
        "CREATE INDEX period_breakdown_range ON period_breakdown(run_id, last_id)",
    ],
    [
        # Version 5 (issue 36): standard, rapid and blitz lists in one history, each kind with
        # its own months, lists, runs, events and pending results (a player is one player
        # across the three: the same id); and the rule set (era) that rated each period, so
        # its pages speak the era's words. A history written before holds one kind
        # (_kind_of_history); its runs' era was not stored and stays NULL (the pages say it
        # is assumed from the kind and the period).
        *(
            f"ALTER TABLE {table} ADD COLUMN rating_kind TEXT NOT NULL DEFAULT '{DEFAULT_KIND}'"
            for table in KIND_TABLES
        ),
        "ALTER TABLE runs ADD COLUMN rules TEXT",  # the era's name (RuleSet.name)
        _kind_of_history,
        "CREATE INDEX lists_kind_month ON lists(rating_kind, effective)",
    ],
]


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
            for step in MIGRATIONS[target - 1]:
                if callable(step):
                    step(con)
                else:
                    con.execute(step)
            con.execute("INSERT INTO schema_version (version) VALUES (?)", (target,))
            con.execute(f"PRAGMA user_version = {target}")
            con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    return SCHEMA_VERSION
