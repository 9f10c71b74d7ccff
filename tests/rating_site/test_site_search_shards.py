"""The static search's shards split by longer keys where large (name_search.shard_keys): with a
budget small enough that the search history's shards split (the 256 KiB of a real site split
only at thousands of players), every query, 1-character ones and ones that cross the shards'
keys, reads from the shards it needs the live search's players in the live search's order;
the same history writes the same bytes; no name makes a file outside search/; and, for any
players, the keys are prefix-free and a needle's shards hold every player the rule finds."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.site import addresses as at
from pipeline.site.history_data import SiteData
from pipeline.site.name_search import (
    DEEPEST,
    SHOWN,
    find,
    fold,
    name_index,
    order,
    shard_keys,
    shard_name,
    shards_of,
    trimmed,
)
from pipeline.site.site_files import search_shards
from tests.rating_site.search_history import search_history
from tests.rating_site.test_site_search import (
    NAME_WORDS,
    QUERIES,
    _script_argument,
    plain_rule,
    shard_search,
)

BUDGET = 120  # bytes: about a row; the search history's letters and ids split into many shards


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Path:
    return search_history(tmp_path_factory.mktemp("search-shards"))


def _write(files, out: Path) -> list[str]:
    addresses = []
    for address, body in files:
        path = out / address
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
        addresses.append(address)
    return addresses


@pytest.fixture(scope="module")
def small_shards(history, tmp_path_factory) -> tuple[Path, list[str]]:
    out = tmp_path_factory.mktemp("small-shards")
    data = SiteData.open(history)
    try:
        return out, _write(search_shards(data, BUDGET), out)
    finally:
        data.close()


def _queries(data: SiteData) -> list[str]:
    """Every beginning (1 to 4 characters, and the whole) of every folded word suffix and id,
    and the QUERIES: the ones that cross two shards' keys among them."""
    index = data.search_index()
    texts = [*index.suffixes, *index.rows["id"]]
    return sorted({t[:n] for t in texts for n in (1, 2, 3, 4, len(t))} | set(QUERIES))


def test_the_shards_split_and_answer_every_query_as_the_live_search(history, small_shards):
    out, addresses = small_shards
    keys = _script_argument(out / at.search_shard("keys"))
    shards = [a for a in addresses if not a.startswith(("search/keys", "search/first-"))]
    assert sorted(at.search_shard(shard_name(k)) for k in keys) == sorted(shards)
    assert max(len(k.rstrip("\n")) for k in keys) >= 3  # split deeper than a first letter
    data = SiteData.open(history)
    try:
        queries = _queries(data)
        crossing = [q for q in queries if fold(q) and len(shards_of(keys, fold(q))) > 1]
        assert {"5", "510", "m", "mu", "muller"} <= set(crossing), crossing
        ahead = 0
        for query in queries:
            found, matched = data.find_players(query)
            static = shard_search(out, query)
            assert list(found["id"]) == static[:SHOWN], query
            assert matched == len(static), query
            written = answer_ahead(out, keys, query)
            if written is not None:  # the page shows it instead of the shards'
                assert written == (list(found["id"]), matched), query
                ahead += 1
        assert ahead > 10
    finally:
        data.close()


def answer_ahead(site: Path, keys: list[str], query: str) -> tuple[list[str], int] | None:
    """(the ids, the count) of the answer written ahead that search.js shows for ``query``,
    None when it reads the shards: a query folding to a needle shorter than the keys under it,
    the query its own fold or both with a letter (the search history's ids are digits)."""
    query = trimmed(query)
    needle = fold(query)
    if not needle or len(shards_of(keys, needle)) < 2:
        return None
    if query != needle and not (re.search("[^0-9]", query) and re.search("[^0-9]", needle)):
        return None
    path = site / at.search_shard("first-" + shard_name(needle))
    text = path.read_text(encoding="ascii")
    head = text[: text.index("[")]
    count = int(head.rsplit(",", 2)[1])
    return [row[1] for row in _script_argument(path)], count


def test_the_same_history_writes_the_same_shards(history, small_shards, tmp_path):
    out, addresses = small_shards
    data = SiteData.open(history)
    try:
        again = dict(search_shards(data, BUDGET))
        default = dict(search_shards(data))
    finally:
        data.close()
    assert list(again) == addresses
    assert all((out / a).read_bytes() == body for a, body in again.items())
    # At the real budget the search history's shards are its names' first letters.
    assert all(len(k) == 1 for k in _script_argument_of(default["search/keys.js"]))


def _script_argument_of(body: bytes) -> list:
    import json

    text = body.decode("ascii")
    return json.loads(text[text.index("[") : text.rindex("]") + 1])


HOSTILE_NAMES = ["../../etc/passwd", "..\\..\\x", "/abs", "CON", "nul.txt", "a/b", ".", "~"]


def test_no_name_makes_a_file_outside_the_search_folder():
    rows = pd.DataFrame({
        "id": pd.Series([f"{n}" for n in range(len(HOSTILE_NAMES))], dtype=str),
        "name": pd.Series(HOSTILE_NAMES, dtype=str),
        "rating_standard": pd.array(range(len(HOSTILE_NAMES)), dtype="Int64"),
    })  # fmt: skip
    index = name_index(order(rows, ("standard",)))
    keys = shard_keys(index, np.full(len(rows), 1_000), budget=1)
    names = {shard_name(k) for k in keys["key"]}
    assert len(names) == keys["key"].nunique()  # one file a key
    for name in names:
        assert re.fullmatch(r"[0-9a-f]+(-[0-9a-f]+)*", name), name
        assert not Path(at.search_shard(name)).is_absolute()
        assert Path(at.search_shard(name)).parent == Path("search")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.from_regex(r"[0-9]{1,4}", fullmatch=True), NAME_WORDS), max_size=30,
             unique_by=lambda p: p[0]),
    st.one_of(NAME_WORDS, st.from_regex(r"[0-9]{1,3}", fullmatch=True)),
    st.integers(1, 400),
)  # fmt: skip
def test_a_needles_shards_hold_what_the_rule_finds(players, query, budget):
    rows = pd.DataFrame({
        "id": pd.Series([p[0] for p in players], dtype=str),
        "name": pd.Series([p[1] for p in players], dtype=str),
        "rating_standard": pd.array(range(len(players)), dtype="Int64"),
    })  # fmt: skip
    index = name_index(order(rows, ("standard",)))
    sizes = np.arange(len(rows), dtype=np.int64) % 7 * 30 + 20
    pairs = shard_keys(index, sizes, budget)
    keys = sorted(set(pairs["key"]))
    for a in keys:  # prefix-free: a needle starting with a key needs that shard alone
        assert not any(b != a and b.startswith(a) for b in keys)
    for key, part in pairs.groupby("key")["row"]:  # over budget only where no key can split it
        assert sizes[part.to_numpy()].sum() <= budget or key.endswith("\n") or len(key) == DEEPEST
    found, _ = find(index, query)
    needle = fold(trimmed(query))
    held = set(pairs[pairs["key"].isin(shards_of(keys, needle))]["row"]) if needle else set()
    rows_found = set(index.rows.index[index.rows["id"].isin(found["id"])])
    assert rows_found <= held


def test_a_federations_shards_stay_under_the_budget():
    """20,000 players whose ids share their first digits and whose names share their words
    (the bench's worst case, smaller): split by the first character, three shards of every
    player; split by longer keys, none over SHARD_BYTES, and every needle's shards hold its
    players."""
    from pipeline.site.name_search import SHARD_BYTES

    count = 20_000
    rows = pd.DataFrame({
        "id": pd.Series([str(1_000_000 + n) for n in range(count)], dtype=str),
        "name": pd.Series([f"Player, Number {n}" for n in range(count)], dtype=str),
        "rating_standard": pd.array([1000 + n % 1500 for n in range(count)], dtype="Int64"),
    })  # fmt: skip
    index = name_index(order(rows, ("standard",)))
    sizes = np.full(count, 100, dtype=np.int64)  # about a row's bytes in a shard
    pairs = shard_keys(index, sizes)
    by_key = pairs.groupby("key")["row"].size() * 100
    assert by_key.max() <= SHARD_BYTES and len(by_key) > 3 * count * 100 // SHARD_BYTES
    keys = sorted(by_key.index)
    players = dict(zip(index.rows["id"], index.rows["name"], strict=True))
    for query in ("1", "10", "1000", "1019999", "p", "player", "player number 1", "n", "number 19"):
        held = pairs[pairs["key"].isin(shards_of(keys, fold(query)))]["row"]
        expected = plain_rule(players, query)
        assert expected and expected <= set(index.rows["id"].iloc[held.unique()]), query
