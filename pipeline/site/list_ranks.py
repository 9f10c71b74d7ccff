"""A list's ranks as FIDE prints them: the world and national rank among the rated active
players, equal ratings sharing the best rank (:func:`ranked`), each by one numpy sort
(:func:`min_ranks`, :func:`world_ranks`; pandas' two ranks were a third of a list's decoding).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc


def ranked(frame: pd.DataFrame) -> pd.DataFrame:
    """A list with ``world_rank`` and ``national_rank``: the rank among the rated active
    players (FIDE's top lists leave the inactive out), equal ratings sharing a rank; an
    inactive or unrated player has none, nor a national rank a player without a federation."""
    rating = pa.array(frame["rating"], pa.int64(), from_pandas=True)
    inactive = pc.match_substring(pa.array(frame["flags"], from_pandas=True), "i")
    on = pc.and_(pc.is_valid(rating), pc.invert(pc.fill_null(inactive, False)))
    on = on.to_numpy(zero_copy_only=False)
    values = pc.fill_null(rating, 0).to_numpy()
    world = np.zeros(len(frame), dtype=np.int64)
    world[on] = world_ranks(values[on])
    codes, _ = pd.factorize(frame["federation"])  # -1: no federation
    national = np.zeros(len(frame), dtype=np.int64)
    grouped = on & (codes >= 0)
    national[grouped] = min_ranks(codes[grouped], values[grouped])
    return frame.assign(
        world_rank=pd.arrays.IntegerArray(world, ~on),  # the mask: blank
        national_rank=pd.arrays.IntegerArray(national, ~grouped),
        active=on,
    )


def world_ranks(values: np.ndarray) -> np.ndarray:
    """:func:`min_ranks` of one group: 1 + how many values are strictly higher, counted in
    the sorted values by a binary search (everything after the value's last equal)."""
    ordered = np.sort(values)
    return len(values) - np.searchsorted(ordered, values, side="right") + 1


def min_ranks(groups: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each value's rank in its group, highest first, equal values sharing the best rank:
    pandas' ``groupby(groups).rank(method="min", ascending=False)``, by one sort (pandas'
    two ranks were a third of a list's decoding).

    Proof: the rank is 1 + the number of values of the group strictly above the value.
    Sorted by (group, value) ascending, those are exactly the rows after the value's run of
    equal (group, value) up to the group's end, so the rank is ``group_end - run_end + 1``
    with both ends the position of the last row of the group and of the run."""
    order = np.lexsort((values, groups))
    group, value = groups[order], values[order]
    at = np.arange(len(order))
    group_last = np.ones(len(order), dtype=bool)
    group_last[:-1] = group[1:] != group[:-1]
    run_last = group_last.copy()
    run_last[:-1] |= value[1:] != value[:-1]
    ranks = np.empty(len(order), dtype=np.int64)
    ranks[order] = _next_marked(group_last, at) - _next_marked(run_last, at) + 1
    return ranks


def _next_marked(marked: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Each position's first marked position at or after it (the last position is marked)."""
    return np.minimum.accumulate(np.where(marked, at, len(at))[::-1])[::-1]
