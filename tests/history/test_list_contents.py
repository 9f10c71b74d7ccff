"""Each list's rows stored once (history schema version 2, issue 13): a list whose rows are
stored already is not inserted again; a published list goes in as its changed rows over the list
in force; the ``list_rows`` view gives back every list exactly; a version 1 history (made by the
fiderate before this change) migrates with its rows unchanged."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from unittest.mock import patch

import pandas as pd
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.history.list_blocks import decode_block
from pipeline.history.list_contents import _rows_in, changed_rows, content_sha
from pipeline.history.store import (
    LIST_COLUMNS,
    SCHEMA_VERSION,
    connect,
    insert_list,
    insert_run,
    list_rows,
    player_history,
    typed_list_rows,
)
from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.keys.frame_lookup import positions
from tests.helpers import period_on_copy

HERE = Path(__file__).resolve().parent
SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "period"
# Made by `fiderate period` of the code before schema version 2 (commit 629eacd):
#   fiderate period --list sample_data/period/list_2026-11.csv
#     --events sample_data/period/events --period 2026-11 --out out
V1_DATABASE = HERE / "data" / "ratings_v1.db"
V1_LIST = HERE / "data" / "rating_list_2026-12_v1.csv"  # the list that run published


def frame(rows: list[dict]) -> pd.DataFrame:
    return typed_list_rows(rows)


def player(pid: str, rating: int | None = 1800, period_games: int | None = None, **more) -> dict:
    row = {
        "id": pid,
        "name": f"Player {pid}",
        "federation": "FID",
        "sex": "m",
        "title": "",
        "birth_year": 1990,
        "rating": rating,
        "period_games": period_games,
        "games": 40,
        "k": 20,
        "ever_2400": False,
        "flags": "",
        "last_played": "",
    }
    row.update(more)
    return row


def sorted_rows(rows: pd.DataFrame) -> list[dict]:
    return rows.sort_values("id").reset_index(drop=True).astype(object).to_dict("records")


def stored_count(con: sqlite3.Connection) -> int:
    return con.execute("SELECT COALESCE(SUM(rows), 0) FROM content_blocks").fetchone()[0]


def removed_ids(con: sqlite3.Connection) -> list[str]:
    blocks = con.execute("SELECT data FROM content_blocks ORDER BY content_id, last_id")
    tables = [decode_block(data, ("id", "removed")) for (data,) in blocks]
    return [r["id"] for t in tables for r in t.to_pylist() if r["removed"]]


def new_history(tmp_path: Path) -> tuple[sqlite3.Connection, int]:
    con = connect(tmp_path / "h.db")
    run = insert_run(con, started_at="s", finished_at="f", user="u", command="c",
                     period="2026-11", outcome="published")  # fmt: skip
    return con, run


def test_published_list_is_stored_as_changed_rows(tmp_path):
    con, run = new_history(tmp_path)
    others = [f"9{i}" for i in range(10)]  # ten players who did not play either
    in_force = frame(
        [player("1"), player("2"), player("3"), player("4", rating=None)]
        + [player(pid) for pid in others]
    )
    published = frame(
        [
            player("1", period_games=0),  # did not play: taken from the list in force
            player("2", rating=1812, period_games=9),  # played
            player("4", rating=None, period_games=0, flags="i"),  # a flag changed
            player("5", rating=1500, period_games=7),  # first rating, new on the list
        ]
        + [player(pid, period_games=0) for pid in others]
    )  # player 3 left the list
    first = insert_list(con, run, "input", "2026-11", None, "in", "a", in_force)
    assert stored_count(con) == 14
    second = insert_list(con, run, "published", "2026-12", "2026-11", "out", "b", published,
                         over=in_force)  # fmt: skip
    # Players 2, 4 and 5 changed, player 3 is marked removed: 4 more rows, not 14.
    assert stored_count(con) == 14 + 4
    assert removed_ids(con) == ["3"]
    assert sorted_rows(list_rows(con, first)) == sorted_rows(in_force)
    assert sorted_rows(list_rows(con, second)) == sorted_rows(published)
    # Player 1's history: blank period games on the list in force, 0 on the published list.
    assert [(r["list"], r["period_games"]) for r in player_history(con, "1")] == [
        ("2026-11", None),
        ("2026-12", 0),
    ]
    assert player_history(con, "3")[-1]["list"] == "2026-11"


def test_the_same_rows_are_not_stored_twice(tmp_path):
    con, run = new_history(tmp_path)
    rows = frame([player(str(i), rating=1500 + i) for i in range(50)])
    first = insert_list(con, run, "input", "2026-11", None, "a.csv", "x", rows)
    # The same rows in another order, from another file: the same content.
    shuffled = rows.sample(frac=1, random_state=3).reset_index(drop=True)
    second = insert_list(con, run, "input", "2026-12", None, "b.csv", "y", shuffled)
    assert stored_count(con) == 50
    assert con.execute("SELECT COUNT(*) FROM list_contents").fetchone()[0] == 1
    assert sorted_rows(list_rows(con, second)) == sorted_rows(list_rows(con, first))
    # One rating different: a different content.
    other = rows.copy()
    other.loc[7, "rating"] = 1999
    assert content_sha(other) != content_sha(rows)


def test_a_big_change_is_stored_full(tmp_path):
    con, run = new_history(tmp_path)
    # Every one of 10 players changed and an 11th dropped: 11 changed rows > 10 rows in full.
    in_force = frame([player(str(i)) for i in range(11)])
    published = frame([player(str(i), rating=1900, period_games=2) for i in range(10)])
    insert_list(con, run, "input", "2026-11", None, "in", "a", in_force)
    insert_list(con, run, "published", "2026-12", "2026-11", "out", "b", published,
                over=in_force)  # fmt: skip
    assert (
        con.execute("SELECT COUNT(*) FROM list_contents WHERE base_id IS NULL").fetchone()[0] == 2
    )


texts = st.sampled_from(["", "a", "b", "Ä"])
ints = st.none() | st.integers(0, 3)
row = st.fixed_dictionaries(
    {
        "name": texts,
        "title": texts,
        "rating": ints,
        "period_games": ints,
        "games": ints,
        "k": ints,
        "ever_2400": st.booleans(),
        "flags": texts,
    }
)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from("abcdefghij"), row, max_size=10),
       st.dictionaries(st.sampled_from("abcdefghij"), row, max_size=10))  # fmt: skip
def test_any_list_over_any_list_in_force_reads_back_exactly(tmp_path_factory, old, new):
    con, run = new_history(tmp_path_factory.mktemp("h"))
    in_force = frame([player(pid, **fields) for pid, fields in sorted(old.items())])
    published = frame([player(pid, **fields) for pid, fields in sorted(new.items())])
    in_force["period_games"] = pd.array([pd.NA] * len(in_force), dtype="Int64")
    first = insert_list(con, run, "input", "2026-11", None, "in", "a", in_force)
    # Always as changed rows (however many), to test that layout on every example.
    with patch("pipeline.history.list_contents.MAX_CHANGED_SHARE", 10.0):
        second = insert_list(con, run, "published", "2026-12", "2026-11", "out", "b", published,
                             over=in_force)  # fmt: skip
    assert sorted_rows(list_rows(con, first)) == sorted_rows(in_force)
    assert sorted_rows(list_rows(con, second)) == sorted_rows(published)
    layout = con.execute(
        "SELECT c.base_id IS NOT NULL FROM lists l JOIN list_contents c ON c.id = l.content_id "
        "WHERE l.id = ?",
        (second,),
    ).fetchone()[0]
    assert layout == (bool(new) and content_sha(published) != content_sha(in_force))
    changed, dropped = changed_rows(published, in_force)
    assert set(dropped) == set(old) - set(new)
    assert set(changed["id"]) <= set(new)


def test_a_version_1_history_migrates_with_its_rows(tmp_path):
    path = tmp_path / "ratings.db"
    shutil.copy(V1_DATABASE, path)
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 1
    columns = ", ".join(LIST_COLUMNS)
    before = raw.execute(f"SELECT list_id, {columns} FROM list_rows ORDER BY list_id, id")
    before = before.fetchall()
    raw.close()
    con = connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    after = []
    for (list_id,) in con.execute("SELECT id FROM lists ORDER BY id").fetchall():
        rows = sorted_rows(list_rows(con, list_id))
        after += [(list_id, *(_sql_value(r[c]) for c in LIST_COLUMNS)) for r in rows]
    assert after == before
    assert len(before) == 25  # 12 players on the input list, 13 on the published one
    con.close()


def _sql_value(value: object) -> object:
    """A list cell as SQLite gave it back in version 1 (booleans 0/1, <NA> NULL)."""
    if value is pd.NA:
        return None
    return int(value) if isinstance(value, bool) else value


def test_a_migrated_history_rates_the_next_period(tmp_path):
    """December on the migrated history (made by the old code for November, with the list it
    published): the new list is recorded and reads back."""
    games = "event,round,date,white,black,result\nDec,1,2026-12-02,5100010,5100029,1-0\n"
    out = period_on_copy(tmp_path, V1_DATABASE, V1_LIST, "2026-12", games)
    con = connect(out / "ratings.db")
    lists = con.execute("SELECT id, kind, effective FROM lists ORDER BY id").fetchall()
    assert [r[1:] for r in lists] == [
        ("input", "2026-11"),
        ("published", "2026-12"),
        ("published", "2027-01"),
    ]
    january = list_rows(con, lists[-1][0]).set_index("id")
    assert int(january.loc["5100010", "period_games"]) == 1
    assert int(january.loc["5100037", "period_games"]) == 0
    assert len(january) == 13
    # Checked against the file the run wrote.
    written = pd.read_csv(out / "rating_list_2027-01.csv", dtype=str, keep_default_na=False)
    assert sorted(written["id"]) == sorted(january.index)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from("abcdefgh"), row, max_size=8), min_size=3,
                max_size=3))  # fmt: skip
def test_a_chain_of_lists_reads_back_exactly(tmp_path_factory, months):
    """Each published list over the one before it (as read): stored over the first list,
    the full one, with the rows that differ from it."""
    con, run = new_history(tmp_path_factory.mktemp("h"))
    lists = [frame([player(pid, **f) for pid, f in sorted(m.items())]) for m in months]
    lists[0]["period_games"] = pd.array([pd.NA] * len(lists[0]), dtype="Int64")
    ids = [insert_list(con, run, "input", "2026-11", None, "in", "a", lists[0])]
    with patch("pipeline.history.list_contents.MAX_CHANGED_SHARE", 10.0):
        for before, after in zip(lists, lists[1:], strict=False):
            ids.append(insert_list(con, run, "published", "x", "y", "out", "b", after,
                                   over=before))  # fmt: skip
    for list_id, rows in zip(ids, lists, strict=True):
        assert sorted_rows(list_rows(con, list_id)) == sorted_rows(rows)
    # One level: every base is stored full.
    assert not con.execute(
        "SELECT 1 FROM list_contents c JOIN list_contents b ON b.id = c.base_id "
        "WHERE b.base_id IS NOT NULL"
    ).fetchall()


def test_the_second_period_is_stored_over_the_first_list(tmp_path):
    """November from the sample list, then December from the list November published: both
    published lists are changed rows over the November list in force, and read back as the
    files written."""
    out = tmp_path / "out"
    run_period(PeriodRequest(list_path=SAMPLE / "list_2026-11.csv", events=(SAMPLE / "events",),
                             period="2026-11", out_dir=out))  # fmt: skip
    december = tmp_path / "december"
    december.mkdir()
    (december / "dec.csv").write_text(
        "event,round,date,white,black,result\nDec,1,2026-12-02,5100010,5100029,1-0\n"
    )
    run_period(PeriodRequest(list_path=out / "rating_list_2026-12.csv", events=(december,),
                             period="2026-12", out_dir=out))  # fmt: skip
    con = connect(out / "ratings.db")
    layout = con.execute(
        "SELECT l.effective, c.base_id, b.effective FROM lists l "
        "JOIN list_contents c ON c.id = l.content_id "
        "LEFT JOIN lists b ON b.content_id = c.base_id ORDER BY l.id"
    ).fetchall()
    assert layout == [
        ("2026-11", None, None),
        ("2026-12", 1, "2026-11"),
        ("2027-01", 1, "2026-11"),
    ]
    for list_id, name in ((2, "rating_list_2026-12.csv"), (3, "rating_list_2027-01.csv")):
        written = pd.read_csv(out / name, dtype=str, keep_default_na=False)
        stored = list_rows(con, list_id).astype(object)
        stored = stored.where(stored.notna(), "").astype(str)
        stored["ever_2400"] = stored["ever_2400"].str.lower()
        assert sorted_rows(stored[list(written.columns)]) == sorted_rows(written)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from("abcdefgh"), unique=True),
    st.lists(st.sampled_from("abcdefgh"), unique=True),
)
def test_rows_in_finds_each_id_as_a_hash_lookup_does(among, ids):
    """The shared-prefix shortcut gives every id's row as the hash look-up does (a list
    computed from another keeps its rows first: ``among`` then often starts ``ids``)."""
    for given_ids in (ids, among + [i for i in ids if i not in among]):
        cells, universe = pa.array(given_ids, pa.string()), pa.array(among, pa.string())
        expected = positions(pd.Series(given_ids, dtype=str), pd.Series(among, dtype=str))
        assert _rows_in(cells, universe).tolist() == expected.tolist()
