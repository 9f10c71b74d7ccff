"""The pending table (the first-rating pool) as the history stores it: rows go in in player order
(the pending_player index grows at the end, issue 13), and come back the same, each player's rows
in their order; one player's rows are looked up through the index."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.history import store
from pipeline.lists.first_rating import POOL_DTYPES

pool_rows = st.lists(
    st.tuples(
        st.sampled_from(["10", "9", "100", "2", "ab", "Ä1"]),
        st.sampled_from(["e1", "e2"]),
        st.sampled_from(["2026-10", "2026-11"]),
        st.integers(0, 20),
    ),
    max_size=40,
)


def _pool(rows: list[tuple[str, str, str, int]]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "player_id": [r[0] for r in rows],
            "event_sha256": [r[1] * 32 for r in rows],
            "event": [r[1] for r in rows],
            "period": [r[2] for r in rows],
            "start_date": [r[2] + "-01" for r in rows],
            "games": [r[3] for r in rows],
            "points_h": [r[3] * 50 for r in rows],
            "opp_sum": [r[3] * 1500 for r in rows],
            "disregarded": [r[3] == 0 for r in rows],
        }
    ).astype(POOL_DTYPES)


def _stored(tmp_path, pool: pd.DataFrame):
    path = tmp_path / "h.db"
    path.unlink(missing_ok=True)
    con = store.connect(path)
    run_id = store.insert_run(
        con, started_at="s", finished_at="f", user="u", command="c", outcome="published"
    )
    store.insert_rows(con, "pending", pool, run_id)
    return con


@settings(max_examples=40, deadline=None)
@given(pool_rows)
def test_pool_comes_back_each_players_rows_in_order(tmp_path_factory, rows):
    pool = _pool(rows)
    con = _stored(tmp_path_factory.mktemp("pool"), pool)
    got = store.pending_results(con)
    key = ["period", "start_date", "event"]
    want = pool.sort_values(key, kind="stable")
    # The same rows; among rows equal in the ORDER BY, each player's keep their order.
    assert sorted(map(tuple, got.to_numpy().tolist())) == sorted(
        map(tuple, want.to_numpy().tolist())
    )
    assert got[key].to_numpy().tolist() == want[key].to_numpy().tolist()
    for player in set(pool["player_id"]):
        mine = store.pending_results(con, player=player).reset_index(drop=True)
        expected = want[want["player_id"] == player].reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, expected)
        assert mine.to_numpy().tolist() == [r for r in got.to_numpy().tolist() if r[0] == player]


def test_pending_rows_go_in_in_player_order_and_one_player_uses_the_index(tmp_path):
    pool = _pool([("9", "e1", "2026-11", 3), ("10", "e1", "2026-11", 4), ("2", "e2", "2026-11", 1)])
    con = _stored(tmp_path, pool)
    assert [r[0] for r in con.execute("SELECT player_id FROM pending ORDER BY rowid")] == [
        "10",
        "2",
        "9",
    ]
    sql, params = store.pending_query(None, "9")
    plan = con.execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()
    assert any("pending_player" in str(step) for step in plan)
    sql, params = store.pending_query(None, None)
    assert not any(
        "pending_player" in str(s) for s in con.execute("EXPLAIN QUERY PLAN " + sql, params)
    )


first_rows = st.lists(
    st.tuples(
        st.sampled_from(["10", "9", "100", "2", "ab", "Ä1"]),
        st.sampled_from(["2026-09", "2026-10", "2026-11"]),
        st.booleans(),  # superseded
        st.booleans(),  # written by the run being replaced
    ),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(pool_rows, first_rows, st.booleans())
def test_a_first_rating_hides_the_pool_rows_of_its_period_and_before(
    tmp_path_factory, rows, firsts, replacing
):
    pool = _pool(rows)
    con = _stored(tmp_path_factory.mktemp("first"), pool)
    other = store.insert_run(
        con, started_at="s", finished_at="f", user="u", command="c", outcome="published"
    )
    con.executemany(
        "INSERT INTO first_ratings (run_id, player_id, period, rating, games, points_h, "
        "opp_sum, superseded) VALUES (?, ?, ?, 1500, 5, 200, 7000, ?)",
        [
            (other if mine else 1, player, period, int(gone))
            for player, period, gone, mine in firsts
        ],
    )
    replaced = other if replacing else None
    live = [
        (player, period)
        for player, period, gone, mine in firsts
        if not gone and not (replacing and mine)
    ]
    # The rule, row by row: hidden when a live first rating (not the replaced run's) of the
    # player is in the row's period or later.
    hidden = pool.apply(
        lambda r: any(p == r["player_id"] and f >= r["period"] for p, f in live), axis=1
    )
    want = pool[~hidden.astype(bool)] if len(pool) else pool
    got = store.pending_results(con, replaced)
    assert sorted(map(tuple, got.to_numpy().tolist())) == sorted(
        map(tuple, want.to_numpy().tolist())
    )
    for player in set(pool["player_id"]):
        mine = store.pending_results(con, replaced, player=player)
        assert mine.to_numpy().tolist() == [r for r in got.to_numpy().tolist() if r[0] == player]
