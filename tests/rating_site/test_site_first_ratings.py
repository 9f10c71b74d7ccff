"""A first rating on the rating site reads as the changes file says it (issue 35: the same
number with the same words on every face). After the README's period run (November 2026:
Kovacs and Lindqvist get first ratings, 5100134 keeps results for one):

- the list month's change column says "first rating" where ``changes_2026-11.csv``'s status
  does (it was blank), and a rated player's change is ``published_rating - rating``, signed;
- the home page's "New players" are the players rated for the first time on the list, as
  FIDE's list of the month counts them (it said "New players (0)": nobody was absent from the
  list before); the list page names them, and apart the new players not rated yet.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from pipeline.lists.next_list import STATUS_FIRST
from pipeline.rules.signs import signed
from pipeline.site import addresses as at
from pipeline.site.job import SiteRequest, run_site
from tests.conftest import period_sample
from tests.history.test_player_calculation import parse, table_dicts


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("first-site")
    out = root / "out"
    period_sample(out)
    site = root / "www"
    run_site(SiteRequest(out / "ratings.db", site))
    return out, site


def changes(out: Path) -> dict[str, dict[str, str]]:
    with (out / "changes_2026-11.csv").open(encoding="utf-8", newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)}


def test_the_list_month_says_first_rating_as_the_changes_file(runs):
    out, site = runs
    want = changes(out)
    firsts = {i for i, r in want.items() if r["status"] == STATUS_FIRST}
    assert firsts  # the sample has first ratings
    page = parse((site / at.list_page("standard", "2026-12")).read_text(encoding="utf-8"))
    rows = {r["id"]: r for r in table_dicts(page, "list")}
    for player in firsts:
        assert rows[player]["change"] == STATUS_FIRST == want[player]["status"]
        assert rows[player]["rating"] == want[player]["published_rating"]
    for player, row in want.items():
        if row["status"] == "rated" and row["published_rating"]:
            change = int(row["published_rating"]) - int(row["rating"])
            assert rows[player]["change"] == signed(change), player


def test_new_players_are_the_first_ratings_on_home_and_list(runs):
    out, site = runs
    want = changes(out)
    firsts = sorted(i for i, r in want.items() if r["status"] == STATUS_FIRST)
    home = json.loads((site / at.json_of(at.home())).read_text(encoding="utf-8"))
    (standard,) = [s for s in home["lists"] if s["kind"] == "standard"]
    assert standard["new_count"] == len(firsts)
    assert sorted(p["id"] for p in standard["new_players"]) == firsts
    html = (site / at.home()).read_text(encoding="utf-8")
    assert re.search(rf"New players <span[^>]*>\({len(firsts)}, rated for the first time\)", html)
    listed = json.loads(
        (site / at.json_of(at.list_page("standard", "2026-12"))).read_text(encoding="utf-8")
    )
    assert sorted(p["id"] for p in listed["new_players"]) == firsts
    assert all(p["rating"] is None for p in listed["new_unrated"])


def test_a_player_never_rated_has_the_live_profile_of_the_static_site(runs):
    """5100134 keeps results for a first rating: every list row of theirs has no rating. The
    live server makes a profile from the player's own rows (the static writer from every
    player's runs); it was an internal error (a column with no value at all taken for text),
    and must be the static site's page and JSON."""
    from pipeline.site.history_data import SiteData
    from pipeline.site.site_files import page_bytes

    out, site = runs
    address = at.player_page("5100134")
    data = SiteData.open(out / "ratings.db")
    try:
        page = page_bytes(data, address, "static")
        data_json = page_bytes(data, at.json_of(address), "live")
    finally:
        data.close()
    assert page is not None and data_json is not None
    assert page[0] == (site / address).read_bytes()
    assert data_json[0] == (site / at.json_of(address)).read_bytes()
    assert json.loads(data_json[0])["player"]["id"] == "5100134"
