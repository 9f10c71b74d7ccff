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


def shard_keys(index: NameIndex) -> pd.DataFrame:
    """The static search's shards: (``row``, ``key``) for each player and each first character
    of their folded name's words and of their folded id, ``key`` its code point in hex (a file
    name of [0-9a-f] whatever the letter). A query's one shard is its needle's first
    character's: a word starting with the needle, or an id starting with the query, starts
    with that character once folded."""
    words = pd.Series(index.suffixes, dtype=object).str[0]
    ids = folded(pa.array(index.rows["id"].astype(object), pa.string()))
    id_firsts = pd.Series(ids.to_numpy(zero_copy_only=False), dtype=object).str[0]
    firsts = pd.concat([
        pd.DataFrame({"row": index.suffix_rows, "first": words.to_numpy()}),
        pd.DataFrame({"row": np.arange(len(index.rows)), "first": id_firsts.to_numpy()}),
    ])  # fmt: skip
    firsts = firsts[firsts["first"].notna()]
    key_of = {c: f"{ord(c):x}" for c in firsts["first"].unique()}
    pairs = pd.DataFrame({"row": firsts["row"].to_numpy(), "key": firsts["first"].map(key_of)})
    return pairs.drop_duplicates().sort_values(["key", "row"], kind="stable")
