"""Finding players on a list by name or id, the rule of the static site's search
(static/search.js) done on the server for the live site: a player whose id starts with the query,
or whose name holds it from the start of a word, any case, commas and spaces alike: "garc",
"lucia" and "garcia lucia" find "Garcia, Lucia", "number 1" finds "Player, Number 100".

The index is built once per list: every name from each of its words' start to its end (the
name's word suffixes: "garcia lucia" and "lucia" for "Garcia, Lucia"), sorted, with its player's
row. The rule is then one binary search for the whole query, however many words (the suffixes
it begins), never a scan of the names: a common word ("number 1") costs what its matches cost;
ids by binary search too (a list is sorted by id).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

SHOWN = 50
_AFTER = "\U0010ffff"  # sorts after every text that starts with the same prefix


@dataclass(frozen=True)
class NameIndex:
    ids: np.ndarray  # the list's ids, sorted (object array of str)
    ratings: np.ndarray  # the list's ratings, -1 for none (the order of the results)
    suffixes: np.ndarray  # every name from each word's start, sorted (object array of str)
    rows: np.ndarray  # the row of each suffix's player


def name_index(frame: pd.DataFrame) -> NameIndex:
    """The index of a list (``frame`` sorted by id, as ``SiteData.frame`` keeps it)."""
    rest = spaced(frame["name"].fillna("")).reset_index(drop=True)
    rest = rest[rest != ""]
    parts = []
    while len(rest):  # one pass per word position (a name has a few words), column-wise
        parts.append(rest)
        rest = rest.str.partition(" ")[2]
        rest = rest[rest != ""]
    suffixes = pd.concat(parts) if parts else pd.Series([], dtype=object)
    text = suffixes.to_numpy(dtype=object)
    order = np.argsort(text, kind="stable")
    return NameIndex(
        frame["id"].to_numpy(dtype=object),
        frame["rating"].fillna(-1).to_numpy(dtype=np.int64),
        text[order],
        suffixes.index.to_numpy(dtype=np.int64)[order],
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
    needle = str(spaced(pd.Series([query])).iloc[0])
    start, stop = _prefixed(index.suffixes, needle) if needle else (0, 0)  # "," is no name
    # The matched rows as a mask over the list (a name matching at two words counts once):
    # linear in the list, where a sort or hash of the matches costs far more for a common word.
    matched = np.zeros(len(index.ids), dtype=bool)
    matched[low:high] = True
    matched[index.rows[start:stop]] = True
    rows = np.flatnonzero(matched)
    shown = rows
    if len(rows) > SHOWN:  # only the players rated at least the SHOWN-th best are sorted
        rated = index.ratings[rows]
        kth = np.partition(rated, len(rated) - SHOWN)[len(rated) - SHOWN]
        shown = rows[rated >= kth]
    found = frame.iloc[shown].sort_values(
        ["rating", "name", "id"], ascending=[False, True, True], na_position="last", kind="stable"
    )
    return found.head(SHOWN), len(rows)
