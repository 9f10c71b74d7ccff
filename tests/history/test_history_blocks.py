"""History schema version 3 (issue 13): a list content's rows are compressed blocks of rows in key
order. Random histories (lists in force, published lists stored as changed rows over them with
removals, period_games cases, ids of mixed lengths, non-ASCII text, NULLs) come back exactly,
and ``last_played`` / ``player_history`` agree with a plain computation over the frames, with
blocks of a few rows so every boundary is crossed. A version 2 history written by the code
before this change migrates and gives the same lists, months, histories and pool back."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.history import list_blocks, list_contents
from pipeline.history.store import (
    SCHEMA_VERSION,
    connect,
    insert_list,
    insert_run,
    last_played,
    list_rows,
    pending_results,
    player_history,
    typed_list_rows,
)
from tests.helpers import period_on_copy

DATA = Path(__file__).resolve().parent / "data"
# Made by the code before schema version 3 (commit c3932aa, data/make_ratings_v2.py): November
# from sample_data/period (list + events), December from the list it published with one event,
# then December again with --replace and that event corrected.
V2_DATABASE = DATA / "ratings_v2.db"
V2_EXPECTED = DATA / "ratings_v2_expected.json"  # what that code read back from it
V2_LIST = DATA / "rating_list_2027-01_v2.csv"  # the list the replacing run published

ids = st.text(alphabet="0127aÄ€\U0001d11e", min_size=1, max_size=9)  # 1- to 4-byte UTF-8
texts = st.text(alphabet="aZ é,Ä€", max_size=6)
ints = st.none() | st.integers(-1, 3000)
fields = st.fixed_dictionaries(
    {
        "name": texts,
        "federation": st.sampled_from(["FRA", "", "ÄÖÜ"]),
        "title": texts,
        "birth_year": ints,
        "rating": ints,
        "period_games": st.none() | st.integers(0, 3),
        "games": ints,
        "k": st.none() | st.sampled_from([10, 20, 40]),
        "ever_2400": st.booleans(),
        "flags": st.sampled_from(["", "i", "wi"]),
        "last_played": st.sampled_from(["", "2026-10"]),
    }
)
a_list = st.dictionaries(ids, fields, max_size=12)


def frame(rows: dict[str, dict]) -> pd.DataFrame:
    return typed_list_rows([{"id": pid, "sex": "m", **f} for pid, f in sorted(rows.items())])


def sorted_rows(rows: pd.DataFrame) -> list[dict]:
    return rows.sort_values("id").reset_index(drop=True).astype(object).to_dict("records")


def blocks_in_key_order(con: sqlite3.Connection, size: int) -> None:
    """Each content's blocks hold at most ``size`` rows, their id ranges in key order, apart."""
    for (content_id,) in con.execute("SELECT id FROM list_contents").fetchall():
        blocks = con.execute(
            "SELECT first_id, last_id, rows FROM content_blocks WHERE content_id = ? "
            "ORDER BY last_id",
            (content_id,),
        ).fetchall()
        bounds = [i.encode() for b in blocks for i in b[:2]]
        assert bounds == sorted(bounds)
        assert all(a < b for a, b in zip(bounds[1::2], bounds[2::2], strict=False))
        assert all(0 < b[2] <= size for b in blocks)


@settings(max_examples=60, deadline=None)
@given(
    months=st.lists(a_list, min_size=1, max_size=4),
    block=st.integers(1, 4),
    always_changed=st.booleans(),
    superseded=st.lists(st.booleans(), min_size=4, max_size=4),
    replaced=st.none() | st.integers(1, 4),
)
def test_random_histories_read_back_exactly(
    tmp_path_factory, months, block, always_changed, superseded, replaced
):
    frames = [frame(m) for m in months]
    frames[0]["period_games"] = pd.array([pd.NA] * len(frames[0]), dtype="Int64")
    con = connect(tmp_path_factory.mktemp("h") / "h.db")
    lists = []  # (list id, run, kind, effective, period, superseded, rows)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(list_blocks, "BLOCK_ROWS", block)
        if always_changed:
            mp.setattr(list_contents, "MAX_CHANGED_SHARE", 10.0)
        for i, rows in enumerate(frames):
            run = insert_run(con, started_at="s", finished_at="f", user="u", command="c",
                             period=f"2026-{i + 1:02d}", outcome="published")  # fmt: skip
            kind, period = ("input", None) if i == 0 else ("published", f"2026-{i:02d}")
            over = frames[i - 1] if i else None
            list_id = insert_list(con, run, kind, f"2026-{i + 1:02d}", period, "f", "x", rows,
                                  over=over)  # fmt: skip
            gone = superseded[i] and i > 0
            con.execute("UPDATE lists SET superseded = ? WHERE id = ?", (int(gone), list_id))
            lists.append((list_id, run, kind, f"2026-{i + 1:02d}", period, gone, rows))
    blocks_in_key_order(con, block)
    for list_id, *_, rows in lists:
        assert sorted_rows(list_rows(con, list_id)) == sorted_rows(rows)
    assert last_played(con, replaced).to_dict() == reference_last_played(lists, replaced)
    assert list(last_played(con, replaced).index) == sorted(reference_last_played(lists, replaced))
    for pid in {*(i for m in months for i in m), "absent"}:
        assert player_history(con, pid) == reference_history(lists, pid)


def reference_last_played(lists: list, replaced: int | None) -> dict[str, str]:
    latest: dict[str, str] = {}
    for _, run, kind, _, period, gone, rows in lists:
        if kind != "published" or gone or run == replaced:
            continue
        for r in rows.itertuples():
            if pd.notna(r.period_games) and r.period_games > 0:
                latest[r.id] = max(latest.get(r.id, ""), period)
    return latest


def reference_history(lists: list, pid: str) -> list[dict]:
    out = []
    order = sorted(lists, key=lambda entry: (entry[3], -entry[5], entry[0]))
    for _, _, kind, effective, period, gone, rows in order:
        for r in rows[rows["id"] == pid].astype(object).to_dict("records"):
            cells = {c: None if r[c] is pd.NA else r[c] for c in HISTORY}
            out.append({"rating_kind": "standard", "list": effective, "period": period,
                        "kind": kind, "superseded": gone, **cells})  # fmt: skip
    return out


HISTORY = ("name", "rating", "period_games", "games", "k", "flags")


def test_one_player_decodes_one_block_a_list(tmp_path, monkeypatch):
    """A player's history asks for the one block of each content that can hold the player."""
    monkeypatch.setattr(list_blocks, "BLOCK_ROWS", 3)
    con = connect(tmp_path / "h.db")
    run = insert_run(con, started_at="s", finished_at="f", user="u", command="c",
                     period="2026-11", outcome="published")  # fmt: skip
    rows = frame({str(100 + i): {"rating": 1500 + i} for i in range(20)})
    insert_list(con, run, "input", "2026-11", None, "f", "x", rows)
    decoded = []
    real = list_blocks.decode_block
    monkeypatch.setattr(
        "pipeline.history.list_reading.decode_block",
        lambda data, columns: decoded.append(data) or real(data, columns),
    )
    assert [r["rating"] for r in player_history(con, "107")] == [1507]
    assert [r["rating"] for r in player_history(con, "099")] == []
    assert len(decoded) == 1
    assert con.execute("SELECT COUNT(*) FROM content_blocks").fetchone()[0] == 7


def test_a_version_2_history_migrates_with_everything_it_held(tmp_path):
    path = tmp_path / "ratings.db"
    shutil.copy(V2_DATABASE, path)
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 2
    raw.close()
    expected = json.loads(V2_EXPECTED.read_text())
    con = connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
    assert "content_rows" not in tables and "list_rows" not in tables
    contents = con.execute(
        "SELECT id, base_id, unlisted_period_games, players FROM list_contents ORDER BY id"
    ).fetchall()
    assert [list(c) for c in contents] == expected["contents"]
    for list_id, rows in expected["lists"].items():
        got = list_rows(con, int(list_id)).sort_values("id").astype(object)
        got = got.where(got.notna(), None)
        assert [list(r) for r in got.itertuples(index=False)] == rows
    assert last_played(con).to_dict() == expected["last_played"]
    replaced = expected["replaced_run"]
    assert last_played(con, replaced).to_dict() == expected["last_played_replaced"]
    for pid, history in expected["histories"].items():
        # Version 5 names each list's kind: a history of before holds standard lists.
        assert player_history(con, pid) == [{"rating_kind": "standard", **r} for r in history]
    pool = json.loads(pending_results(con).to_json(orient="records"))
    assert pool == expected["pending"]
    assert len(expected["pending"]) == 1 and len(expected["histories"]["5100010"]) == 4
    con.close()


def test_a_migrated_version_2_history_rates_the_next_period(tmp_path):
    """January on the migrated history, from the list it published: the list in force is the
    history's own (nothing stored again for it), the new list goes in over the same full list."""
    games = "event,round,date,white,black,result\nJan,1,2027-01-05,5100029,5100053,1/2-1/2\n"
    out = period_on_copy(tmp_path, V2_DATABASE, V2_LIST, "2027-01", games)
    con = connect(out / "ratings.db")
    newest = con.execute(
        "SELECT l.id, c.base_id FROM lists l JOIN list_contents c ON c.id = l.content_id "
        "ORDER BY l.id DESC LIMIT 1"
    ).fetchone()
    assert newest[1] == 1  # over the November list in force, stored full
    assert con.execute("SELECT COUNT(*) FROM lists WHERE kind = 'input'").fetchone()[0] == 1
    written = pd.read_csv(out / "rating_list_2027-02.csv", dtype=str, keep_default_na=False)
    stored = list_rows(con, newest[0]).astype(object)
    stored = stored.where(stored.notna(), "").astype(str)
    stored["ever_2400"] = stored["ever_2400"].str.lower()
    assert sorted_rows(stored[list(written.columns)]) == sorted_rows(written)
    assert last_played(con)["5100053"] == "2027-01"
