"""The ids of a stored list, and the ids of one list that others lack: what the search index
asks of every older list (:meth:`history_data.SiteData.search_rows`: who is on it and on no
newer one), without decoding the list's other columns and, for FIDE's numeric ids, without
hashing 1.9 M strings per list (``pc.is_in`` builds a hash table of its whole value set on
every call: about a second a list at FIDE's scale, most of the old lists' part of the index).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.history.list_blocks import content_table
from pipeline.history.list_reading import Content, content_of

DIGITS = 18  # at most: below 2**63


def numbers(ids: pa.Array) -> np.ndarray | None:
    """``ids`` as int64 when every one is a decimal number of ASCII digits without a leading
    zero, of at most :data:`DIGITS` digits (FIDE's ids are), else None.

    Why comparing the numbers compares the ids: such a text is the one decimal spelling of its
    value (no sign, no leading zero, no other character), so two of them are equal exactly when
    their values are, and 18 digits never overflow an int64. (Arrow's kernels, not a regular
    expression: a fifth of the time at 1.9 M ids.)"""
    if ids.null_count:
        return None
    spelled = pc.and_(pc.ascii_is_decimal(ids), pc.invert(pc.starts_with(ids, "0")))
    short = pc.less_equal(pc.binary_length(ids), DIGITS)
    if len(ids) and not pc.all(pc.and_(spelled, short)).as_py():
        return None
    found: np.ndarray = pc.cast(ids, pa.int64()).to_numpy(zero_copy_only=False)
    return found


@dataclass(frozen=True)
class Ids:
    """Ids as text, and as :func:`numbers` (None when not every one is a number): each made
    once, compared many times."""

    text: pa.Array
    number: np.ndarray | None

    @classmethod
    def of(cls, ids: pa.Array) -> Ids:
        return cls(ids, numbers(ids))

    def __len__(self) -> int:
        return len(self.text)

    def plus(self, more: Ids) -> Ids:
        both = None
        if self.number is not None and more.number is not None:
            both = np.concatenate([self.number, more.number])
        return Ids(pa.concat_arrays([self.text, more.text]), both)

    def not_in(self, others: Ids) -> Ids:
        """Those of these ids that ``others`` does not hold, in their order: as numbers when
        both are (``np.isin`` sorts int64: no hash of strings), else by ``pc.is_in``."""
        if self.number is None or others.number is None:
            keep = pc.invert(pc.is_in(self.text, value_set=others.text))
            return Ids.of(pc.filter(self.text, keep))
        kept = ~np.isin(self.number, others.number)
        return Ids(pc.filter(self.text, pa.array(kept)), self.number[kept])


def list_ids(con: sqlite3.Connection, content: Content, bases: dict[int, Ids]) -> Ids:
    """The ids on the list stored as ``content``, by the rule of
    :func:`pipeline.history.list_reading.list_table` (its stored rows that are not removed,
    then its base's rows it does not store), the ids column alone decoded. ``bases``: the ids
    of base lists already read."""
    stored = content_table(con, content.id, ["id", "removed"])
    ids = Ids.of(stored.column("id").combine_chunks())
    removed = stored.column("removed").combine_chunks().to_numpy(zero_copy_only=False)
    live = Ids(
        pc.filter(ids.text, pa.array(~removed)),
        None if ids.number is None else ids.number[~removed],
    )
    if content.base_id is None:
        return live
    if content.base_id not in bases:
        bases[content.base_id] = list_ids(con, content_of(con, content.base_id), bases)
    return live.plus(bases[content.base_id].not_in(ids))
