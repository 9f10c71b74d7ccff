"""Each period's calculation, player by player, as the history keeps it (schema version 4,
issue 35): what a rating officer shows a player who asks how 2391 became 2410.

- ``period_changes``: one row per rated player who played rated games in the period: the rating
  the change is added to, the K that rated the games (and why), the next list's K (apart: it
  rates the next period), the games, the score, K x sum(S - PD) exactly (in ``1/scale``), the
  change rounded once and the new rating.
- ``period_breakdown``: those players' rated games, one row a game side (opponent, the
  opponent's rating, the difference as counted, PD, score, S - PD), stored as zstd Arrow blocks
  in player key order like a list's rows (:mod:`.list_blocks`): the 2 M sides of a FIDE month
  are 31 SQL rows, and one player's games are one indexed range look-up.
- ``calculated_runs``: the runs whose calculation is stored, with their scale. A period
  published before version 4 has none: its pages say so, and nothing is reconstructed.

Every number is an integer (hundredths of a point, ``1/scale`` of a PD); text is made from them
with the report's own helpers (:mod:`pipeline.arrays.number_text`), never through a float.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import arrow_text
from pipeline.engine.average_opponent_method import average_opponents
from pipeline.history.bulk_insert import insert_chunks, key_order
from pipeline.keys.id_lookup import IdLookup, same_ids, take_rows
from pipeline.model import RatedPeriod
from pipeline.rules.counted_words import COUNTED_AVERAGE
from pipeline.rules.rating_kinds import DEFAULT_KIND

BLOCK_ROWS = 65_536  # game sides a block (tests set it small to cross block boundaries)
# A period_changes row (after run_id), in this order.
CHANGE_COLUMNS = (
    "player_id",
    "rating",
    "k",
    "k_rule",
    "next_k",
    "games",
    "score_h",
    "change_units",
    "change",
    "new_rating",
)
_INT = pa.int64()
GAME_SCHEMA = pa.schema(
    [
        ("player", pa.string()),
        ("event", pa.string()),
        ("round", pa.string()),
        ("opponent", pa.string()),
        ("opponent_rating", _INT),
        ("diff", _INT),  # as counted (the 400-point rule applied)
        ("pd_units", _INT),  # PD in 1/scale
        ("score_h", _INT),  # S in hundredths
        ("dev_units", _INT),  # S - PD in 1/scale
        ("note", pa.string()),
        # Why the difference counted so, for the words rate's report shows (blocks stored before
        # these three have none: their pages show the counted difference alone). The rating the
        # side was rated from, the engine's ``counted_why`` code and the average-opponent
        # method's Rc (blank in a game-by-game era).
        ("rating_used", _INT),
        ("counted_why", pa.int8()),
        ("rc", _INT),
    ]
)
# The sides' own columns of a block; the rest are made by :func:`_why_columns`.
_SIDE_COLUMNS = [f.name for f in GAME_SCHEMA][:10]
_WRITE = pa.ipc.IpcWriteOptions(compression="zstd")


@dataclass(frozen=True)
class PeriodCalculation:
    """A rated period's calculation as the history stores it (built before the run frees its
    sides: :func:`period_calculation`)."""

    scale: int
    players: pd.DataFrame  # CHANGE_COLUMNS, one row per rated player who played
    games: pa.Table  # GAME_SCHEMA: those players' rated game sides, in player key order


def period_calculation(result: RatedPeriod, new: pd.DataFrame) -> PeriodCalculation:
    """The calculation of ``result`` (sides with their text columns, as a period run has them);
    ``new``: the next list, whose K each player's row carries as ``next_k``."""
    t = result.totals
    keep = np.flatnonzero(
        (t["games"].to_numpy(dtype=np.int64) > 0)
        & t["k"].notna().to_numpy()
        & t["rating"].notna().to_numpy()
    )
    # The next list lists the totals' players in their order in a period run: no look-up then.
    if same_ids(t["id"], new["id"]):
        at_new = keep
    else:
        at_new = IdLookup(new["id"]).positions(t["id"].iloc[keep])
    columns = {c: t[c].iloc[keep].array for c in CHANGE_COLUMNS if c in t.columns}
    players = pd.DataFrame(
        {
            "player_id": t["id"].iloc[keep].array,
            **columns,
            "next_k": take_rows(new["k"], at_new).astype("Int64").array,
        }
    )[list(CHANGE_COLUMNS)]
    s = result.sides
    rated = np.flatnonzero(s["rated"].to_numpy(dtype=bool) & s["player"].notna().to_numpy())
    mine = pc.is_in(arrow_text(s["player"].iloc[rated]), value_set=arrow_text(players["player_id"]))
    rows = rated[np.asarray(mine.to_numpy(zero_copy_only=False), dtype=bool)]
    # Only the stored columns are copied; a player's games keep their order (a stable sort).
    rows = rows[key_order(s["player"].iloc[rows])]
    part = s[_SIDE_COLUMNS].iloc[rows].assign(**_why_columns(s, rows))
    return PeriodCalculation(result.scale, players, _game_table(part))


def _why_columns(sides: pd.DataFrame, rows: np.ndarray) -> dict[str, pd.Series]:
    """The ``rows`` of ``sides``' rating used, ``counted_why`` and Rc (the average-opponent
    method's, where it rated the side: ``engine.average_opponent_method``'s own)."""
    own = sides["rating_used"] if "rating_used" in sides else sides["player_rating"]
    why = sides["counted_why"].iloc[rows]
    rc = pd.Series(pd.NA, index=why.index, dtype="Int64")
    if (why.to_numpy(dtype=np.int8) == COUNTED_AVERAGE).any():
        rc = average_opponents(sides).iloc[rows]
    return {"rating_used": own.iloc[rows], "counted_why": why, "rc": rc}


def _game_table(part: pd.DataFrame) -> pa.Table:
    """The sides' ``GAME_SCHEMA`` columns as an Arrow table (blank text where there is none)."""
    arrays = [
        pa.array(part[f.name].astype("Int64"), f.type, from_pandas=True)
        if pa.types.is_integer(f.type)
        else pa.array(part[f.name].fillna("").astype(str), pa.string(), from_pandas=True)
        for f in GAME_SCHEMA
    ]
    return pa.Table.from_arrays(arrays, schema=GAME_SCHEMA)


def record_calculation(
    con: sqlite3.Connection, run_id: int, calculation: PeriodCalculation
) -> None:
    """Store ``calculation`` for ``run_id`` (inside the run's transaction)."""
    players = calculation.players
    con.execute(
        "INSERT INTO calculated_runs (run_id, scale) VALUES (?, ?)",
        (int(run_id), int(calculation.scale)),
    )
    insert_chunks(
        con,
        f"INSERT INTO period_changes (run_id, {', '.join(CHANGE_COLUMNS)})",
        f"({int(run_id)}, {', '.join('?' for _ in CHANGE_COLUMNS)})",
        players,
        CHANGE_COLUMNS,
        key_order(players["player_id"]),
    )
    con.executemany(
        "INSERT INTO period_breakdown (run_id, first_id, last_id, rows, data) "
        "VALUES (?, ?, ?, ?, ?)",
        ((int(run_id), *_block(calculation.games.slice(at, BLOCK_ROWS)))
         for at in range(0, calculation.games.num_rows, BLOCK_ROWS)),
    )  # fmt: skip


def _block(part: pa.Table) -> tuple[str, str, int, bytes]:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_file(sink, GAME_SCHEMA, options=_WRITE) as writer:
        writer.write_table(part)
    ids = part.column("player")
    return ids[0].as_py(), ids[-1].as_py(), part.num_rows, bytes(sink.getvalue())


@dataclass(frozen=True)
class StoredPeriod:
    """A live published period of the history, and whether its calculation is stored."""

    run_id: int
    period: str
    scale: int | None  # None: published before calculations were stored (schema < 4)
    rating_kind: str = DEFAULT_KIND  # standard, rapid or blitz
    rules: str | None = None  # the rule set (era) that rated it; None: before schema 5


def live_periods(
    con: sqlite3.Connection, rating_kind: str = DEFAULT_KIND
) -> dict[str, StoredPeriod]:
    """Period -> its live published run of that kind of list (the one its list in force came
    from)."""
    rows = con.execute(
        "SELECT r.id, r.period, c.scale, r.rating_kind, r.rules FROM runs r "
        "LEFT JOIN calculated_runs c ON c.run_id = r.id "
        "WHERE r.outcome = 'published' AND r.superseded_by IS NULL AND r.period IS NOT NULL "
        "AND r.rating_kind = ? ORDER BY r.id",
        (rating_kind,),
    ).fetchall()
    return {row[1]: StoredPeriod(*row) for row in rows}


@dataclass(frozen=True)
class StoredChange:
    """A player's ``period_changes`` row."""

    player_id: str
    rating: int
    k: int
    k_rule: str
    next_k: int | None
    games: int
    score_h: int
    change_units: int
    change: int
    new_rating: int | None


def published_content(con: sqlite3.Connection, run_id: int) -> int | None:
    """The content id of the list ``run_id`` published (its players' names and ratings)."""
    row = con.execute(
        "SELECT content_id FROM lists WHERE run_id = ? AND kind = 'published' ORDER BY id LIMIT 1",
        (run_id,),
    ).fetchone()
    return int(row[0]) if row else None


def player_changes(con: sqlite3.Connection, player_id: str) -> dict[int, StoredChange]:
    """Run id -> the player's ``period_changes`` row, for every run that stored one."""
    rows = con.execute(
        f"SELECT run_id, {', '.join(CHANGE_COLUMNS)} FROM period_changes WHERE player_id = ?",
        (player_id,),
    ).fetchall()
    return {r[0]: StoredChange(*r[1:]) for r in rows}


def player_games(con: sqlite3.Connection, run_id: int, player_id: str) -> list[dict[str, Any]]:
    """The player's rated game sides in the run's period (``GAME_SCHEMA``), in the order rated:
    every block whose id range holds the player (a player's games may straddle two)."""
    parts = [
        _decoded(data).filter(pc.equal(pc.field("player"), player_id))
        for data in _blocks_holding(con, run_id, player_id)
    ]
    return [row for part in parts for row in part.to_pylist()]


def _blocks_holding(con: sqlite3.Connection, run_id: int, player_id: str) -> Iterator[bytes]:
    rows = con.execute(
        "SELECT data FROM period_breakdown WHERE run_id = ?1 AND last_id >= ?2 "
        "AND first_id <= ?2 ORDER BY last_id",
        (run_id, player_id),
    )
    return (r[0] for r in rows)


def _decoded(data: bytes) -> pa.Table:
    return pa.ipc.open_file(pa.py_buffer(data)).read_all()
