"""Finding players on a list by name or id, the rule of the static site's search
(static/search.js) done on the server for the live site: a player whose id starts with the query,
or whose name (commas as spaces, any case) holds it from the start of a word: "garc" and "lucia"
find "Garcia, Lucia", "number 1" finds "Player, Number 100".

The index is built once per list: the row positions of every name word's first character (the
static site's shards, in memory), so a query looks only at the players one of whose words starts
with its first character, and at the ids by binary search (a list is sorted by id).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

SHOWN = 50


@dataclass(frozen=True)
class NameIndex:
    names: pd.Series  # the list's names, lower case, commas as spaces
    by_first: dict[str, np.ndarray]  # a word's first character -> row positions (ascending)


def name_index(frame: pd.DataFrame) -> NameIndex:
    """The index of a list (``frame`` sorted by id, as ``SiteData.frame`` keeps it)."""
    names = frame["name"].fillna("").str.lower().str.replace(",", " ", regex=False)
    words = names.reset_index(drop=True).str.split().explode().dropna()
    firsts = pd.DataFrame({"row": words.index.to_numpy(), "first": words.str[0].to_numpy()})
    firsts = firsts.drop_duplicates()
    by_first = {
        str(first): np.sort(group["row"].to_numpy(dtype=np.int64))
        for first, group in firsts.groupby("first", sort=True)
    }
    return NameIndex(names.reset_index(drop=True), by_first)


def find(frame: pd.DataFrame, index: NameIndex, query: str) -> tuple[pd.DataFrame, int]:
    """(up to ``SHOWN`` players matching ``query``, by rating then name; how many matched)."""
    query = query.strip()
    if not query:
        return frame[:0], 0
    ids = frame["id"]
    low = int(ids.searchsorted(query, side="left"))
    high = int(ids.searchsorted(query + "\U0010ffff", side="left"))
    by_id = np.arange(low, high, dtype=np.int64)
    needle = query.lower()
    candidates = index.by_first.get(needle[0], np.array([], dtype=np.int64))
    words = index.names.iloc[candidates]
    pattern = "(?:^| )" + re.escape(needle)
    hit = words.str.contains(pattern, regex=True).to_numpy(dtype=bool)
    rows = np.union1d(by_id, candidates[hit])
    found = frame.iloc[rows].sort_values(
        ["rating", "name", "id"], ascending=[False, True, True], na_position="last", kind="stable"
    )
    return found.head(SHOWN), len(rows)
