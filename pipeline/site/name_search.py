"""Finding players on a list by name or id, the rule of the static site's search
(static/search.js) done on the server for the live site: a player whose id starts with the query,
or whose name holds it from the start of a word, any case, commas and spaces alike: "garc",
"lucia" and "garcia lucia" find "Garcia, Lucia", "number 1" finds "Player, Number 100".

The index is built once per list: every word of every name, sorted, with its player's row. A
query's first word is looked up by binary search (the words it begins), so only those players'
names are tested against the whole query; ids by binary search too (a list is sorted by id).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

SHOWN = 50
_AFTER = "\U0010ffff"  # sorts after every text that starts with the same prefix


@dataclass(frozen=True)
class NameIndex:
    ids: np.ndarray  # the list's ids, sorted (object array of str)
    ratings: np.ndarray  # the list's ratings, -1 for none (the order of the results)
    names: pd.Series  # the list's names, lower case, commas as spaces
    words: np.ndarray  # every word of every name, sorted (object array of str)
    rows: np.ndarray  # the row of each word's player


def name_index(frame: pd.DataFrame) -> NameIndex:
    """The index of a list (``frame`` sorted by id, as ``SiteData.frame`` keeps it)."""
    names = spaced(frame["name"].fillna("")).reset_index(drop=True)
    words = names.str.split(" ").explode()
    words = words[words.notna() & (words != "")]
    text = words.to_numpy(dtype=object)
    order = np.argsort(text, kind="stable")
    return NameIndex(
        frame["id"].to_numpy(dtype=object),
        frame["rating"].fillna(-1).to_numpy(dtype=np.int64),
        names,
        text[order],
        words.index.to_numpy(dtype=np.int64)[order],
    )


def spaced(text: pd.Series) -> pd.Series:
    """Names as searched: lower case, every run of commas and spaces one space, trimmed."""
    return text.str.lower().str.replace(r"[,\s]+", " ", regex=True).str.strip()


def _prefixed(sorted_text: np.ndarray, prefix: str) -> tuple[int, int]:
    """The range of ``sorted_text`` that starts with ``prefix`` (binary search)."""
    return (
        int(sorted_text.searchsorted(prefix, side="left")),
        int(sorted_text.searchsorted(prefix + _AFTER, side="left")),
    )


def find(frame: pd.DataFrame, index: NameIndex, query: str) -> tuple[pd.DataFrame, int]:
    """(up to ``SHOWN`` players matching ``query``, by rating then name; how many matched)."""
    query = query.strip()
    if not query:
        return frame[:0], 0
    low, high = _prefixed(index.ids, query)
    by_id = np.arange(low, high, dtype=np.int64)
    needle = str(spaced(pd.Series([query])).iloc[0])
    first, _, rest = needle.partition(" ")
    start, stop = _prefixed(index.words, first) if first else (0, 0)  # "," is no name
    candidates = np.unique(index.rows[start:stop])
    if rest:  # more than one word: the whole phrase, from a word's start
        phrase = index.names.iloc[candidates].str.contains("(?:^| )" + re.escape(needle))
        candidates = candidates[phrase.to_numpy(dtype=bool)]
    rows = np.union1d(by_id, candidates)
    shown = rows
    if len(rows) > SHOWN:  # only the players rated at least the SHOWN-th best are sorted
        rated = index.ratings[rows]
        kth = np.partition(rated, len(rated) - SHOWN)[len(rated) - SHOWN]
        shown = rows[rated >= kth]
    found = frame.iloc[shown].sort_values(
        ["rating", "name", "id"], ascending=[False, True, True], na_position="last", kind="stable"
    )
    return found.head(SHOWN), len(rows)
