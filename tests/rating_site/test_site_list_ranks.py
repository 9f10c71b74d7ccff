"""A decoded list's ranks (pipeline/site/list_ranks.py: ``ranked`` and its ``min_ranks``) are
pandas' ``rank(method="min", ascending=False)`` of the rated active players, world-wide and by
federation (a player without a federation has no national rank), on any ratings, flags and
federations: ties, blanks, one player, none."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.site.list_ranks import min_ranks, ranked, world_ranks


def _pandas_ranked(frame: pd.DataFrame) -> pd.DataFrame:
    """The ranks as pandas makes them, a rank of a group at a time (the oracle)."""
    active = frame["rating"].notna() & ~frame["flags"].fillna("").str.contains("i", regex=False)
    rating = frame["rating"].where(active)
    world = rating.rank(method="min", ascending=False)
    national = rating.groupby(frame["federation"]).rank(method="min", ascending=False)
    return frame.assign(
        world_rank=world.astype("Int64"),
        national_rank=national.astype("Int64"),
        active=active.to_numpy(),
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-(2**62), 2**62)), max_size=30))
def test_min_ranks_is_pandas_groupby_rank(rows):
    groups = np.array([g for g, _ in rows], dtype=np.int64)
    values = np.array([v for _, v in rows], dtype=np.int64)
    want = pd.Series(values).groupby(groups).rank(method="min", ascending=False)
    assert min_ranks(groups, values).tolist() == want.astype(np.int64).tolist()
    alone = pd.Series(values).rank(method="min", ascending=False)
    assert world_ranks(values).tolist() == alone.astype(np.int64).tolist()


PLAYER = st.tuples(
    st.one_of(st.none(), st.sampled_from([1000, 1800, 1800, 2000, 2650]), st.integers(0, 3000)),
    st.one_of(st.none(), st.sampled_from(["", "i", "wi", "w", "I"])),
    st.one_of(st.none(), st.sampled_from(["GER", "FRA", "", "FID"])),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(PLAYER, max_size=25))
def test_ranked_is_pandas_rank_world_and_national(players):
    frame = pd.DataFrame(players, columns=["rating", "flags", "federation"])
    frame = frame.astype({"rating": "Int64", "flags": "str", "federation": "str"})
    pd.testing.assert_frame_equal(ranked(frame), _pandas_ranked(frame))
