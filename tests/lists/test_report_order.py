"""The period report reads ``old``, ``new`` and the totals at the moved players' own rows when
they list the players in the statuses' order (a period run), and looks them up otherwise: both
give the same tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.lists.change_report import build_report
from pipeline.lists.first_rating import FirstRatings, compute, empty_pool
from pipeline.lists.next_list import STATUS_IDLE, STATUS_NEW, STATUS_RATED, status_dropped

LABELS = [STATUS_IDLE, STATUS_RATED, STATUS_NEW, status_dropped(1400)]


def frames(n: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    ids = pd.Series([str(100 + i) for i in range(n)], dtype=str)
    rated = rng.random(n) < 0.7
    rating = pd.array(np.where(rated, rng.integers(1400, 2500, n), 0), dtype="Int64")
    rating[~rated] = pd.NA
    games = np.where(rng.random(n) < 0.6, rng.integers(1, 9, n), 0).astype(np.int64)
    change = np.where(games > 0, rng.integers(-30, 30, n), 0).astype(np.int64)
    totals = pd.DataFrame(
        {
            "id": ids,
            "name": [f"Player {i}" for i in range(n)],
            "rating": rating,
            "k": pd.array(np.where(rated, 20, 0), dtype="Int64"),
            "games": games,
            "score_h": games * 50,
            "expected_units": games * 40,
            "dev_units": games * 10,
            "change_units": change * 100,
            "change": change,
            "new_rating": rating + pd.array(change, dtype="Int64"),
            "k_assumed": rated & (rng.random(n) < 0.3),
        }
    )
    new = pd.DataFrame(
        {
            "id": ids,
            "name": totals["name"],
            "rating": totals["new_rating"],
            "k": pd.array(np.full(n, 20), dtype="Int64"),
        }
    )
    codes = rng.integers(0, len(LABELS), n)
    status = pd.Series(pd.Categorical.from_codes(codes, categories=LABELS), index=pd.Index(ids))
    sides = pd.DataFrame(
        {
            "player": ids.repeat(2).to_numpy(),
            "event": ["Open", "Cup"] * n,
            "source": "a.csv",
            "rated": np.tile([True, False], n),
            "score_h": np.int64(50),
            "pd_units": pd.array(np.full(2 * n, 40), dtype="Int64"),
            "dev_units": pd.array(np.full(2 * n, 10), dtype="Int64"),
        }
    )
    pool = pd.DataFrame({"games": [], "points_h": [], "opp_sum": []}, dtype=np.int64)
    first = FirstRatings(empty_pool(), compute(pool.set_axis(pd.Index([], dtype=str))))
    return {
        "old": totals[["id", "rating"]],
        "new": new,
        "status": status,
        "totals": totals,
        "sides": sides,
        "first": first,
    }


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 40), st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_frames_in_another_order_give_the_same_report(n, seed, rnd):
    f = frames(n, seed)
    shuffled = list(range(n))
    rnd.shuffle(shuffled)
    aligned = build_report(
        f["old"], f["new"], f["status"], f["totals"], f["sides"], f["first"], 100, "2026-11"
    )
    moved = build_report(
        f["old"].iloc[shuffled],
        f["new"].iloc[shuffled].reset_index(drop=True),
        f["status"],
        f["totals"],
        f["sides"],
        f["first"],
        100,
        "2026-11",
    )
    for table in ("changes", "breakdown", "gains", "losses", "summary", "first"):
        pd.testing.assert_frame_equal(getattr(moved, table), getattr(aligned, table))
    assert len(aligned.changes) == int(f["status"].ne(STATUS_IDLE).sum())
