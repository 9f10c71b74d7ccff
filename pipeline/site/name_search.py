"""Finding a player of the rating site by name or id: the one rule of its search, done here for
the live site (``fiderate serve``) and step for step in the browser for the static site
(static/search.js, which loads the entries this module orders):

- the query is trimmed (:data:`SEPARATORS` at either end) and cut to :data:`LONGEST` characters;
- a player is found when their id starts with the query, or when a word of their folded name
  starts with the folded query: "garc", "lucia" and "garcia lucia" find "Garcia, Lucia",
  "number 1" finds "Player, Number 100", "arcia" finds nothing;
- folded (:func:`folded`): compatibility-decomposed (NFKD), accents and other combining marks
  dropped, lower case, the letters that have no decomposition spelled as in :data:`LETTERS`
  (ø o, æ ae, ß ss, ł l, ...), every run of spaces, commas and hyphens one space. So "muller"
  finds "Müller" and "müller" finds "Muller"; "odegaard" finds "Ødegaard"; "pierre" finds
  "Dupont, Jean-Pierre"; a query that folds to nothing (",") finds nobody;
- the players searched are every player the site has a profile for (:meth:`SiteData.
  search_rows`), in one order: the strongest first (the highest of their ratings on the latest
  lists), then by name, then id; the first :data:`SHOWN` are shown with how many matched.

The index (:class:`NameIndex`): every folded name from each of its words' start to its end (the
name's word suffixes: "garcia lucia" and "lucia" for "Garcia, Lucia"), sorted, with its
player's row; the ids sorted. A query is then two binary searches, never a scan of the names:
a common word costs what its matches cost.

The static site's index is the same texts split into shards by their beginnings, longer where
a shard would be large (:func:`shard_keys`, :func:`shards_of`, :func:`split_keys`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

SHOWN = 50  # players shown at most (the page says how many matched)
LONGEST = 80  # characters of a query kept (after trimming)
_AFTER = "\U0010ffff"  # sorts after every text that starts with the same prefix

# What separates the words of a name (and is trimmed from a query): every character Python's
# str.isspace or JavaScript's \s takes for a space, commas and hyphens. Written out, not as a
# regex class: the two languages' \s differ (\x1c-\x1f, \x85, \ufeff).
SEPARATORS = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff,-"
)
_SEPARATOR_RUNS = "[" + "".join(f"\\x{{{ord(c):x}}}" for c in SEPARATORS) + "]+"  # RE2
# Letters that keep their look after NFKD (no decomposition), as a reader would type them; the
# final sigma as the plain one (JavaScript's toLowerCase writes "ς" at a word's end).
LETTERS = {
    "ø": "o",
    "æ": "ae",
    "œ": "oe",
    "ß": "ss",
    "ł": "l",
    "đ": "d",
    "ð": "d",
    "þ": "th",
    "ı": "i",
    "ħ": "h",
    "ŧ": "t",
    "ς": "σ",
}


def folded(names: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Names as searched (the module's rule), column-wise; a blank name folds to "". Only the
    names that are not ASCII are decomposed (most of a list: the decomposition and the marks'
    regex are most of the time), the others lowered as they are."""
    text = names.combine_chunks() if isinstance(names, pa.ChunkedArray) else names
    text = pc.fill_null(text, "")
    other = pc.invert(pc.string_is_ascii(text))
    lowered = pc.ascii_lower(text)
    if pc.any(other).as_py():
        wide = pc.utf8_normalize(text.filter(other), "NFKD")
        wide = pc.utf8_lower(pc.replace_substring_regex(wide, r"\p{M}+", ""))
        for letter, plain in LETTERS.items():
            wide = pc.replace_substring(wide, letter, plain)
        lowered = pc.replace_with_mask(lowered, other, wide)
    return pc.utf8_trim(pc.replace_substring_regex(lowered, _SEPARATOR_RUNS, " "), " ")


def fold(text: str) -> str:
    """One text folded (:func:`folded`): the query's needle."""
    return str(folded(pa.array([text], pa.string()))[0].as_py())


def trimmed(query: str) -> str:
    """The query as searched: :data:`SEPARATORS` trimmed from either end, at most
    :data:`LONGEST` characters."""
    return query.strip(SEPARATORS)[:LONGEST]


def order(rows: pd.DataFrame, kinds: tuple[str, ...]) -> pd.DataFrame:
    """``rows`` (one per player: ``id``, ``name`` and a ``rating_<kind>`` per kind) in the
    search's order: the highest of the player's ratings first (none last), then name, then id
    (text by code point, as Python compares it: Arrow's sort of UTF-8 bytes)."""
    best = rows[[f"rating_{k}" for k in kinds]].max(axis=1, skipna=True)
    keys = pa.table({
        "best": pa.array(best.astype("Int64").fillna(-1), pa.int64()),  # none: last
        "name": pc.fill_null(pa.array(rows["name"].astype(object), pa.string()), ""),
        "id": pa.array(rows["id"].astype(object), pa.string()),
    })  # fmt: skip
    by = [("best", "descending"), ("name", "ascending"), ("id", "ascending")]
    taken = pc.sort_indices(keys, sort_keys=by).to_numpy()
    return rows.iloc[taken].reset_index(drop=True)


@dataclass(frozen=True)
class NameIndex:
    rows: pd.DataFrame  # the players searched, in the search's order (:func:`order`)
    ids: np.ndarray  # their ids, sorted (object array of str)
    id_rows: np.ndarray  # the row of each sorted id
    suffixes: np.ndarray  # every folded name from each word's start, sorted (object array)
    suffix_rows: np.ndarray  # the row of each suffix's player


def name_index(rows: pd.DataFrame) -> NameIndex:
    """The index of ``rows`` (ordered by :func:`order`), built column-wise in Arrow (at FIDE's
    1.9 M players a sort of Python strings takes ten times as long)."""
    rest = folded(pa.array(rows["name"].astype(object), pa.string()))
    row = pa.array(np.arange(len(rows), dtype=np.int64))
    texts, text_rows = [], []
    while True:  # one pass per word position (a name has a few words)
        kept = pc.not_equal(rest, "")
        rest, row = rest.filter(kept), row.filter(kept)
        if len(rest) == 0:
            break
        texts.append(rest)
        text_rows.append(row)
        rest = pc.replace_substring_regex(rest, "^[^ ]* ?", "", max_replacements=1)
    text = pa.chunked_array(texts, pa.string())
    suffix_rows = pa.chunked_array(text_rows, pa.int64())
    by_text = pc.sort_indices(text)
    ids = pa.array(rows["id"].astype(object), pa.string())
    by_id = pc.sort_indices(ids)
    return NameIndex(
        rows,
        ids.take(by_id).to_numpy(zero_copy_only=False),
        by_id.to_numpy(),
        text.take(by_text).to_numpy(),
        suffix_rows.take(by_text).to_numpy(),
    )


def _prefixed(sorted_text: np.ndarray, prefix: str) -> tuple[int, int]:
    """The range of ``sorted_text`` that starts with ``prefix`` (binary search)."""
    return (
        int(sorted_text.searchsorted(prefix, side="left")),
        int(sorted_text.searchsorted(prefix + _AFTER, side="left")),
    )


def find(index: NameIndex, query: str) -> tuple[pd.DataFrame, int]:
    """(the first ``SHOWN`` players found by ``query``, in the index's order; how many)."""
    query = trimmed(query)
    needle = fold(query)
    if not needle:
        return index.rows[:0], 0
    low, high = _prefixed(index.ids, query)
    start, stop = _prefixed(index.suffixes, needle)
    # The matched rows as a mask over the players (a name matching at two words counts once):
    # linear in the players, where a sort or hash of the matches costs more for a common word;
    # the mask's order is the index's, so the first SHOWN need no sort.
    matched = np.zeros(len(index.rows), dtype=bool)
    matched[index.id_rows[low:high]] = True
    matched[index.suffix_rows[start:stop]] = True
    rows = np.flatnonzero(matched)
    return index.rows.iloc[rows[:SHOWN]], len(rows)


SHARD_BYTES = 256 * 1024  # a shard's bytes at most, where a longer prefix can split it
DEEPEST = 24  # characters of a shard's key at most (its file name stays short)
_WHOLE = "\n"  # ends the key of a text as long as the key (never in a folded text nor query)


def shard_keys(index: NameIndex, row_bytes: np.ndarray, budget: int = SHARD_BYTES) -> pd.DataFrame:
    """The static search's shards: (``row``, ``key``) for each player and each shard holding
    them, in (key, row) order. The texts a query is matched against are the folded names'
    word suffixes (:class:`NameIndex`) and the folded ids; a shard holds the players of the
    texts that start with its key. Keys grow one character at a time where a shard would be
    over ``budget`` bytes (``row_bytes``: each row's bytes in a shard), so a common first
    letter is split by its second, third, ... character and a rare one stays whole; a text
    shorter than the next key length ends its key with :data:`_WHOLE` ("a" under an "a" too
    big to keep is in "a\\n", beside "ab", "ac", ...). The keys are prefix-free: a needle
    starting with a key needs that shard alone (every text starting with the needle starts
    with the key); a shorter needle needs every shard whose key starts with it
    (:func:`shards_of`)."""
    ids = folded(pa.array(index.rows["id"].astype(object), pa.string()))
    texts = pd.DataFrame({
        "row": np.concatenate([index.suffix_rows, np.arange(len(index.rows))]),
        "text": np.concatenate([index.suffixes, ids.to_numpy(zero_copy_only=False)]),
    })  # fmt: skip
    texts = texts[texts["text"].str.len() > 0]
    placed = []
    depth = 1
    while len(texts):
        text = texts["text"]
        whole = text.str.len() < depth
        key = text.str[:depth].where(~whole, text + _WHOLE)
        pairs = pd.DataFrame({"row": texts["row"].to_numpy(), "key": key.to_numpy()})
        pairs = pairs.drop_duplicates()
        size = pd.Series(row_bytes[pairs["row"].to_numpy()]).groupby(pairs["key"].to_numpy()).sum()
        kept = size.index[(size <= budget) | (depth >= DEEPEST)]
        done = whole.to_numpy() | key.isin(kept).to_numpy()
        placed.append(pairs[pairs["key"].isin(kept) | pairs["key"].str.endswith(_WHOLE)])
        texts = texts[~done]
        depth += 1
    keys = pd.concat(placed, ignore_index=True) if placed else pd.DataFrame({"row": [], "key": []})
    return keys.sort_values(["key", "row"], kind="stable").reset_index(drop=True)


def split_keys(keys: list[str]) -> list[str]:
    """The beginnings of ``keys`` that are no key (a shard too big at that length, split by
    the next character), sorted: the needles that need several shards (:func:`shards_of`).
    For each the static site writes the search's answer to it ahead (:func:`find` of the
    needle as the query), so a short query loads a few rows, not every shard under it."""
    given = set(keys)
    split = {key[:n] for key in keys for n in range(1, len(key))} - given
    return sorted(k for k in split if not k.endswith(" "))  # a trimmed needle never does


def shard_name(key: str) -> str:
    """A shard's file name (without ".js"): its key's code points in hex, joined by "-"
    ("ga" -> "67-61"): [0-9a-f-] whatever the name, so no key leaves the index's folder."""
    return "-".join(f"{ord(c):x}" for c in key)


def shards_of(keys: list[str], needle: str) -> list[str]:
    """The keys of the shards a (folded) ``needle`` needs: the one key it starts with, else
    every key starting with it (a needle shorter than the keys under it). search.js does the
    same."""
    for key in keys:
        if needle.startswith(key):
            return [key]
    return [key for key in keys if key.startswith(needle)]
