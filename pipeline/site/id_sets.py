"""The ids of a stored list, and the ids of one array that another lacks: what the search index
asks of every older list (:meth:`history_data.SiteData.search_rows`: who is on it and on no
newer one), without decoding the list's other columns and, for FIDE's numeric ids, without
hashing 1.9 M strings per list (``pc.is_in`` builds a hash table of its whole value set on
every call: about a second a list at FIDE's scale, most of the old lists' part of the index).
"""

from __future__ import annotations

import sqlite3

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.history.list_blocks import content_table
from pipeline.history.list_reading import Content, content_of

# A decimal number without a leading zero, of at most 18 digits (below 2**63).
NUMBER = r"^[1-9][0-9]{0,17}$"


def numbers(ids: pa.Array) -> np.ndarray | None:
    """``ids`` as int64 when every one is :data:`NUMBER` (FIDE's ids are), else None.

    Why comparing the numbers compares the ids: a text matching NUMBER is the one decimal
    spelling of its value (no sign, no leading zero, no other characters), so two such ids are
    equal exactly when their values are, and 18 digits never overflow an int64."""
    if ids.null_count or not pc.all(pc.match_substring_regex(ids, NUMBER)).as_py():
        return None
    found: np.ndarray = pc.cast(ids, pa.int64()).to_numpy(zero_copy_only=False)
    return found


def not_in(ids: pa.Array, others: pa.Array) -> pa.Array:
    """The ids of ``ids`` that ``others`` does not hold, in their order: as numbers when both
    are (:func:`numbers`: ``np.isin`` sorts int64, no hash of strings), else by
    ``pc.is_in``."""
    mine, theirs = numbers(ids), numbers(others)
    if mine is None or theirs is None:
        return pc.filter(ids, pc.invert(pc.is_in(ids, value_set=others)))
    return pc.filter(ids, pa.array(~np.isin(mine, theirs)))


def list_ids(con: sqlite3.Connection, content: Content, bases: dict[int, pa.Array]) -> pa.Array:
    """The ids on the list stored as ``content``, by the rule of
    :func:`pipeline.history.list_reading.list_table` (its stored rows that are not removed,
    then its base's rows it does not store), the ids column alone decoded. ``bases``: the ids
    of base lists already read."""
    stored = content_table(con, content.id, ["id", "removed"])
    ids = stored.column("id").combine_chunks()
    live = pc.filter(ids, pc.invert(stored.column("removed").combine_chunks()))
    if content.base_id is None:
        return live
    if content.base_id not in bases:
        bases[content.base_id] = list_ids(con, content_of(con, content.base_id), bases)
    return pa.concat_arrays([live, not_in(bases[content.base_id], ids)])
