"""Stable orders of small non-negative integer keys in linear time (numpy's radix sort), and
repeats among integer keys by sorting.

numpy sorts 8- and 16-bit integers with a stable radix sort and wider ones with timsort: on the
2 M game sides of a million games, grouping them by player (ranks below 2**32) is 3-4x faster in
two 16-bit radix passes than in one timsort.
"""

from __future__ import annotations

import numpy as np


def stable_order(keys: np.ndarray) -> np.ndarray:
    """``np.argsort(keys, kind="stable")`` for integer keys.

    Proof (least significant digit first): keys in 0..2**32-1 are high * 2**16 + low with both
    digits below 2**16. Sorting stably by ``low``, then stably by ``high``, orders by ``high``
    and, among equal ``high``, keeps the order of the first pass: by ``low``, and among equal
    keys by position. That is the stable order of the keys. Other keys (negative or wider) are
    sorted directly."""
    keys = np.asarray(keys)
    if not len(keys) or keys.min() < 0 or keys.max() >= 2**32:
        return np.argsort(keys, kind="stable")
    if keys.max() < 2**16:
        return np.argsort(keys.astype(np.uint16), kind="stable")
    # astype(uint16) keeps the low 16 bits; the digits are made small before any gather.
    by_low = np.argsort(keys.astype(np.uint16), kind="stable")
    high = np.right_shift(keys, 16).astype(np.uint16)
    return by_low[np.argsort(high[by_low], kind="stable")]


def has_repeats(keys: np.ndarray) -> bool:
    """Whether two of the integer ``keys`` are equal: ``pd.Series(keys).duplicated().any()``
    by sorting (equal keys sort next to each other). On 2 M wide keys (event, round and player
    packed into one int64) numpy's sort takes about a tenth of the hash table's time: random
    keys over a wide range make the table miss the cache on nearly every probe."""
    ordered = np.sort(np.asarray(keys))
    return bool((ordered[1:] == ordered[:-1]).any())
