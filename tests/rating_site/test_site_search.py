"""The rating site's search (pipeline/site/name_search.py live, static/search.js from disk):
every player the site has a profile for is found (one dropped from the latest list, one on the
rapid list only), by an id's beginning or a name's word, accents, case, commas and hyphens
aside; checked against the rule written plainly here (Python's own unicodedata, not the
Arrow functions the search uses), and the live answer against the static index's shards.
The browser test (test_site_search_browser.py) asks the static page the same queries."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.site import addresses as at
from pipeline.site.job import SiteRequest, run_site
from pipeline.site.name_search import SHOWN
from tests.rating_site.conftest import HOSTILE
from tests.rating_site.search_history import DROPPED, NAMES, RAPID_ONLY, search_history
from tests.web.conftest import local_client

# Queries both faces are asked (here and in the browser), with the ids each must find.
QUERIES = {
    "muller": {"5100053", "5100096"},
    "Müller": {"5100053", "5100096"},
    "MÜLLER, jörg": {"5100096"},
    "jorg": {"5100096"},
    "odegaard": {"5100100"},
    "Ødegaard": {"5100100"},
    "åse": {"5100100"},
    "pierre": {"5100126"},
    "jean-pierre": {"5100126"},
    "Dupont, Jean Pierre": {"5100126"},
    "σισυφος": {"5100118"},
    "ΣΙΣΥΦΟΣ νικος": {"5100118"},
    "strasse": {RAPID_ONLY[0]},
    "Łukasz": {RAPID_ONLY[0]},
    "lukasz": {RAPID_ONLY[0]},
    "<script>": {"5100010"},
    '"><img': {"5100029"},
    "=hyperlink": {"5100037"},
    "eve & <b>co": {"5100037"},
    "5100096": {"5100096"},
    "51009": {RAPID_ONLY[0]},
    "510009": {"5100096"},
    "  garcia  ": {"5100070"},
    "arcia": set(),  # inside a word: not a word's beginning
    ",": set(),  # only separators: no search
    "-": set(),
    "\u0301": set(),  # a combining accent alone: folds to nothing, finds nobody
}


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Path:
    return search_history(tmp_path_factory.mktemp("search-history"))


@pytest.fixture(scope="module")
def site(history, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("www-search")
    run_site(SiteRequest(history, out))
    return out


# The rule's words, written here again: a space (as Python's str.isspace or JavaScript's \s
# has it), a comma or a hyphen separates words; the letters NFKD leaves as they are.
SEPARATORS = "".join(chr(c) for c in range(0x3001) if chr(c).isspace()) + "\ufeff,-"
LETTERS = {"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
           "ı": "i", "ħ": "h", "ŧ": "t", "ς": "σ"}  # fmt: skip
LONGEST = 80  # characters of a query kept, once trimmed


def plain_fold(text: str) -> str:
    """The fold written plainly: NFKD, combining marks out, lower case, LETTERS, separators."""
    text = "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.category(c).startswith("M")).lower()  # fmt: skip
    text = "".join(LETTERS.get(c, c) for c in text)
    return " ".join(w for w in re.split("[" + re.escape(SEPARATORS) + "]+", text) if w)


def plain_rule(players: dict[str, str], query: str) -> set[str]:
    """The ids ``query`` finds among ``players`` (id -> name), by the rule written plainly."""
    query = query.strip(SEPARATORS)[:LONGEST]
    needle = plain_fold(query)
    if not needle:
        return set()
    return {
        player_id
        for player_id, name in players.items()
        if player_id.startswith(query) or f" {needle}" in f" {plain_fold(name)}"
    }


def profiles(site: Path) -> dict[str, str]:
    """Every profile of the static site: id -> the name it shows."""
    found = {}
    for path in (site / "players").glob("*.json"):
        player = json.loads(path.read_text(encoding="utf-8"))["player"]
        found[player["id"]] = player["name"]
    return found


def live_search(client, query: str) -> dict:
    answer = client.get("/site/search.json", params={"q": query})
    assert answer.status_code == 200
    return answer.json()


def shard_search(site: Path, query: str) -> list[str]:
    """The static search's answer read from its shards, as search.js filters them: the ids in
    the shard's order (search.js is run in a browser by test_site_search_browser.py)."""
    query = query.strip(SEPARATORS)[:LONGEST]
    needle = plain_fold(query)
    if not needle:
        return []
    shard = site / at.search_shard(f"{ord(needle[0]):x}")
    if not shard.exists():
        return []
    text = shard.read_text(encoding="ascii")
    rows = json.loads(text[text.index(",") + 1 : text.rindex(")")])
    return [r[0] for r in rows if r[0].startswith(query) or f" {needle}" in f" {plain_fold(r[1])}"]


def test_every_profile_is_in_the_search_and_the_dropped_player_is_found(history, site):
    from pipeline.web.app import create_app

    players = profiles(site)
    assert DROPPED in players and RAPID_ONLY[0] in players
    assert players[DROPPED] == NAMES[DROPPED]
    with local_client(create_app(history)) as client:
        for query in ("müller", "jörg", DROPPED):
            assert DROPPED in shard_search(site, query), query
            found = live_search(client, query)
            assert DROPPED in [p["id"] for p in found["players"]], query
        # On no latest list: no current rating; on the rapid list only: no standard rating.
        # Each player's facts and ratings as the profile's.
        (dropped,) = live_search(client, DROPPED)["players"]
        assert dropped["ratings"] == {"standard": None, "rapid": None}
        (rapid,) = live_search(client, RAPID_ONLY[0])["players"]
        assert rapid["name"] == RAPID_ONLY[1] and rapid["ratings"]["standard"] is None
        for player_id in players:
            (found,) = [p for p in live_search(client, player_id)["players"]
                        if p["id"] == player_id]  # fmt: skip
            profile = json.loads((site / at.json_of(found["href"])).read_text(encoding="utf-8"))
            facts = profile["player"]
            assert [found[k] for k in ("name", "federation", "title")] == [
                facts[k] for k in ("name", "federation", "title")
            ]
            shown = {k["kind"]: k["rating"] for k in profile["kinds"]}
            assert found["ratings"] == {k: shown.get(k) for k in ("standard", "rapid")}


@pytest.mark.parametrize("query", list(QUERIES))
def test_both_faces_find_what_the_rule_says(history, site, query):
    from pipeline.web.app import create_app

    players = profiles(site)
    assert plain_rule(players, query) == QUERIES[query]
    with local_client(create_app(history)) as client:
        answer = live_search(client, query)
        page = client.get("/site/search.html", params={"q": query}).text
    live = [p["id"] for p in answer["players"]]
    assert set(live) == QUERIES[query] and answer["matched"] == len(QUERIES[query])
    assert live == shard_search(site, query)[:SHOWN]  # the same players in the same order
    for name in HOSTILE.values():
        assert name not in page  # escaped


def test_the_order_is_the_strongest_first_then_name_then_id(history):
    from pipeline.web.app import create_app

    with local_client(create_app(history)) as client:
        found = live_search(client, "5")["players"]

    def best(p: dict) -> int:
        ratings = [r for r in p["ratings"].values() if r is not None]
        return -max(ratings) if ratings else 1

    assert found == sorted(found, key=lambda p: (best(p), p["name"], p["id"]))
    assert len(found) == len({p["id"] for p in found})


NAME_WORDS = st.text(alphabet="aAeéÉüÜøØßłŁ Σσς-,'\u00a0\u0301", min_size=1, max_size=6)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.from_regex(r"[0-9]{1,4}", fullmatch=True), NAME_WORDS), max_size=30,
             unique_by=lambda p: p[0]),
    st.one_of(NAME_WORDS, st.from_regex(r"[0-9]{1,3}", fullmatch=True)),
)  # fmt: skip
def test_the_live_search_is_the_rule(players, query):
    """name_search.find (Arrow's fold, binary searches) against the rule written plainly."""
    import pandas as pd

    from pipeline.site.name_search import find, name_index, order

    rows = pd.DataFrame({
        "id": pd.Series([p[0] for p in players], dtype=str),
        "name": pd.Series([p[1] for p in players], dtype=str),
        "federation": pd.Series([""] * len(players), dtype=str),
        "title": pd.Series([""] * len(players), dtype=str),
        "rating_standard": pd.array(range(len(players)), dtype="Int64"),
    })  # fmt: skip
    found, matched = find(name_index(order(rows, ("standard",))), query)
    expected = plain_rule(dict(players), query)
    assert matched == len(expected)
    assert set(found["id"]) <= expected and len(found) == min(len(expected), SHOWN)


def test_the_history_search_is_the_sites(history):
    """/history/search answers with the site's rule and index: the dropped player and the
    accent-blind match too, linked to the history's page of the player."""
    from pipeline.web.app import create_app

    with local_client(create_app(history)) as client:
        for query, ids in QUERIES.items():
            page = client.get("/history/search", params={"q": query}).text
            linked = set(re.findall(r'href="/history/player\?id=(\d+)"', page))
            assert linked == ids, query
            assert "<script>alert" not in page
