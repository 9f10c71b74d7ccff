"""The stored changes as the site reads them (``SiteData.changes``, pipeline/site/history_data.py):
only the columns asked, each column read whole, yet the same rows, in the same order, with the
same values as SQLite holds them, row by row: on a real history of two kinds, with a blank
cell and a text holding the read's cell separator written into a copy."""

from __future__ import annotations

import math
import shutil
import sqlite3
from pathlib import Path

import pytest

from pipeline.history.period_calculations import CHANGE_COLUMNS, live_periods
from pipeline.site.history_data import SiteData
from pipeline.site.profile_runs import RUN_CHANGES


@pytest.fixture(scope="module")
def two_kinds(standard_and_rapid) -> Path:
    """A standard history of two periods and a rapid period in it."""
    return standard_and_rapid


def _as_sql_holds(db: Path, kind: str, columns: tuple[str, ...], player: str | None):
    """The oracle: the live runs' rows of ``kind`` read one by one, in key order."""
    con = sqlite3.connect(db)
    try:
        live = {p.run_id: p for p in live_periods(con, kind).values()}
        rows = con.execute(
            f"SELECT c.run_id, {', '.join('c.' + c for c in columns)} FROM period_changes c "
            "JOIN runs r ON r.id = c.run_id WHERE r.rating_kind = ? "
            "ORDER BY c.run_id, c.player_id",
            (kind,),
        ).fetchall()
    finally:
        con.close()
    at = columns.index("player_id") + 1
    return [
        (*row, live[row[0]].period, live[row[0]].scale)
        for row in rows
        if row[0] in live and (player is None or row[at] == player)
    ]


def _read(db: Path, kind: str, columns: tuple[str, ...], player: str | None):
    data = SiteData.open(db)
    try:
        frame = data.changes(kind, player, columns=columns)
    finally:
        data.close()
    assert list(frame.columns) == ["run_id", *columns, "period", "scale"]
    cell = lambda v: None if isinstance(v, float) and math.isnan(v) else v  # noqa: E731
    return [tuple(cell(v) for v in row) for row in frame.itertuples(index=False)]


def _cases(db: Path):
    data = SiteData.open(db)
    try:
        kinds = data.kinds()
        players = {k: data.changes(k)["player_id"].iloc[[0, -1]].tolist() for k in kinds}
    finally:
        data.close()
    for kind in kinds:
        for columns in (CHANGE_COLUMNS, RUN_CHANGES):
            for player in (None, *players[kind]):
                yield kind, columns, player


def test_the_changes_read_are_the_rows_sql_holds(two_kinds):
    assert SiteData.open(two_kinds).kinds() == ("standard", "rapid")
    checked = 0
    for kind, columns, player in _cases(two_kinds):
        expected = _as_sql_holds(two_kinds, kind, columns, player)
        assert expected  # each case reads rows
        assert _read(two_kinds, kind, columns, player) == expected, (kind, columns, player)
        checked += 1
    assert checked == 12


def test_a_blank_cell_and_a_separator_in_a_text_keep_every_row_in_place(two_kinds, tmp_path):
    db = tmp_path / "ratings.db"
    shutil.copyfile(two_kinds, db)
    con = sqlite3.connect(db)
    with con:
        first = con.execute("SELECT min(player_id) FROM period_changes").fetchone()[0]
        con.execute("UPDATE period_changes SET next_k = NULL, new_rating = NULL, "
                    "k_rule = 'K' || char(31) || 'rule' WHERE player_id = ?", (first,))  # fmt: skip
    con.close()
    for kind, columns, player in _cases(db):
        expected = _as_sql_holds(db, kind, columns, player)
        found = _read(db, kind, columns, player)
        assert found == expected, (kind, columns, player)
    # The blank cells are blank, not a number of another row.
    rows = _as_sql_holds(db, "standard", CHANGE_COLUMNS, first)
    assert rows and all(r[CHANGE_COLUMNS.index("next_k") + 1] is None for r in rows)
