"""The rating site over one history of standard, rapid and blitz lists (issue 36): a year of
monthly lists of the three kinds (tests/history/three_kinds_year.py, built once per run and
shared with tests/history/test_history_three_kinds_year.py), written as the static site, and
checked against the CSV files the runs published (not against the history): each kind's home
summary, list months, downloads and top lists; each profile's table per kind (change = new - old,
games, K, the link to that kind's calculation); the live pages' JSON the static files' own. A
history written before schema 5 (one kind) writes the same site as before, under its one kind."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from pipeline.readers.lists.published_list import read_list as read_published
from pipeline.rules.months import add_months
from pipeline.rules.rating_kinds import KINDS
from pipeline.site import addresses as at
from pipeline.site.job import SiteRequest, run_site
from pipeline.site.rank_files import bucket
from tests.history.three_kinds_year import MONTHS, NEWCOMER, PLAYERS, number, read_list
from tests.rating_site.conftest import covering
from tests.web.conftest import local_client

LISTED = ["2026-01", *(add_months(m, 1) for m in MONTHS)]  # each kind's thirteen lists
V4 = Path(__file__).resolve().parents[1] / "history" / "data"


def published(root: Path, kind: str, month: str) -> dict[str, dict[str, str]]:
    """The list of ``kind`` in force in ``month`` as the runs wrote it (or was given)."""
    if month == LISTED[0]:
        return read_list(root / f"{kind}_{month}.csv")
    return read_list(root / kind / f"rating_list_{month}.csv")


def page_json(site: Path, address: str) -> dict:
    return json.loads((site / at.json_of(address)).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def site(three_kinds_year, tmp_path_factory) -> Path:
    db, _ = three_kinds_year
    out = tmp_path_factory.mktemp("www-kinds")
    run_site(SiteRequest(db, out))
    return out


def test_home_shows_the_latest_list_of_each_kind(three_kinds_year, site):
    _, root = three_kinds_year
    home = page_json(site, at.home())
    assert [(s["kind"], s["month"]) for s in home["lists"]] == [(k, LISTED[-1]) for k in KINDS]
    for summary in home["lists"]:
        latest = published(root, summary["kind"], LISTED[-1])
        assert summary["players"] == len(latest)
        for gain in summary["gains"]:  # the kind's own change, not another kind's
            before = published(root, summary["kind"], LISTED[-2])[gain["id"]]
            assert gain["change"] == number(latest[gain["id"]]["rating"]) - number(before["rating"])
    months = [(m["kind"], m["month"]) for m in home["months"]]
    assert months == [(k, m) for k in KINDS for m in reversed(LISTED)]
    html = (site / at.home()).read_text(encoding="utf-8")
    for kind in KINDS:
        assert f'href="top/{kind}/open.html"' in html


def test_each_kinds_lists_downloads_and_top_lists_are_its_own(three_kinds_year, site):
    _, root = three_kinds_year
    for kind in KINDS:
        for month in LISTED:
            listed = published(root, kind, month)
            page = page_json(site, at.list_page(kind, month))
            shown = {p["id"]: p["rating"] for p in page["players"]}
            assert shown == {i: number(r["rating"]) for i, r in listed.items()}, (kind, month)
            download = read_published(site / at.download(kind, month, "csv")).players
            ratings = [None if pd.isna(r) else int(r) for r in download["rating"].astype(object)]
            assert dict(zip(download["id"], ratings, strict=True)) == shown
        top = page_json(site, at.top_page(kind, "open"))
        latest = published(root, kind, LISTED[-1])
        rated = sorted((number(r["rating"]) for r in latest.values() if r["rating"]), reverse=True)
        assert [p["rating"] for p in top["players"]] == rated
        assert top["kind"] == kind and top["month"] == LISTED[-1]


def test_each_profile_table_per_kind_agrees_with_the_published_lists(three_kinds_year, site):
    _, root = three_kinds_year
    played = 0
    for pid in PLAYERS:
        profile = page_json(site, at.player_page(pid))
        assert [k["kind"] for k in profile["kinds"]] == list(KINDS)
        html = (site / at.player_page(pid)).read_text(encoding="utf-8")
        for shown in profile["kinds"]:
            kind = shown["kind"]
            latest = published(root, kind, LISTED[-1])
            ranked = sorted((number(r["rating"]) for r in latest.values() if r["rating"]),
                            reverse=True)  # fmt: skip
            rating = number(latest[pid]["rating"])
            # The ranks are in the profile's rank file (they move for everyone every month);
            # every player is FRA: the national rank is the world rank.
            # The profile names the bucket count's file; the bucket follows from the id.
            count = json.loads((site / profile["ranks"]).read_text(encoding="utf-8"))
            name = bucket(pid, count["buckets"])
            ranks = json.loads((site / at.rank_file(name, "json")).read_text("utf-8"))
            assert ranks["lists"][kind] == LISTED[-1]
            assert shown["rating"] == rating and shown["ranked"]
            assert ranks["ranks"][pid][kind] == [ranked.index(rating) + 1] * 2
            ratings = {m: number(published(root, kind, m)[pid]["rating"]) for m in LISTED}
            # The chart's points are the changes: the rating of every month is the one of the
            # last point at or before it.
            points = shown["points"]
            assert points[0][0] == LISTED[0]
            for month in LISTED:
                assert [r for m, r in points if m <= month][-1] == ratings[month], month
            # A chart per kind on the page, in the kind's own section.
            section = html.split(f'<section class="kind" id="{kind}">', 1)[1]
            assert section.split("</section>", 1)[0].count('<svg class="chart"') == 1
            periods = shown["periods"]
            assert periods[-1]["until"] is None  # on the latest list
            for month in LISTED:
                assert covering(periods, month)["rating"] == ratings[month]
            for month in MONTHS:
                before = published(root, kind, month)[pid]
                after = published(root, kind, add_months(month, 1))[pid]
                row = covering(periods, add_months(month, 1))
                if not number(after["period_games"]):  # no games: a row with no change (the
                    if row["month"] == add_months(month, 1):  # rating moved), or none
                        assert row["change"] is None and row["calculation_href"] is None
                    else:
                        assert number(after["rating"]) == number(before["rating"])
                    continue
                played += 1
                assert row["month"] == add_months(month, 1) and row["period"] == month
                assert row["rating"] == number(after["rating"])
                assert row["period_games"] == number(after["period_games"])
                assert row["difference"] == number(after["rating"]) - number(before["rating"])
                assert row["change"] == row["difference"]  # new - old
                assert row["games"] == number(after["period_games"])
                if before["k"]:  # the first list leaves K to the rules
                    assert row["k_used"] == number(before["k"])
                assert row["calculation_href"] == at.calculation_page(kind, pid, month)
                calc = page_json(site, row["calculation_href"])["calc"]
                assert (calc["rating_kind"], calc["change"], calc["k"], calc["period"]) == (
                    kind, row["change"], row["k_used"], month,
                )  # fmt: skip
    assert played > 3 * 12 * 4  # most months, most players: the checks above ran


def test_a_newcomer_has_the_one_kind_played(site):
    profile = page_json(site, at.player_page(NEWCOMER))
    assert [k["kind"] for k in profile["kinds"]] == ["rapid"]
    assert profile["kinds"][0]["rating"] is None


def test_the_live_pages_are_the_static_files(three_kinds_year, site):
    from pipeline.web.app import create_app

    db, _ = three_kinds_year
    pid = PLAYERS[0]
    rapid = next(r for r in page_json(site, at.player_page(pid))["kinds"][1]["periods"]
                 if r["calculation_href"])  # fmt: skip
    addresses = [at.home(), at.player_page(pid), rapid["calculation_href"]]
    for kind in KINDS:
        addresses += [at.list_page(kind, LISTED[-1]), at.list_page(kind, LISTED[3]),
                      at.top_page(kind, "open"), at.top_page(kind, "fed-FRA")]  # fmt: skip
    with local_client(create_app(db), raise_server_exceptions=False) as client:
        for address in addresses:
            live = client.get(f"/site/{address}", params={"format": "json"})
            assert live.status_code == 200, address
            assert live.content == (site / at.json_of(address)).read_bytes(), address
        for kind in KINDS:
            download = at.download(kind, LISTED[-1], "txt")
            assert client.get(f"/site/{download}").content == (site / download).read_bytes()
        # The live profile links each period to the history's calculation page of its kind,
        # which answers with that kind's calculation.
        html = client.get(f"/site/{at.player_page(pid)}").text
        link = f"/history/calculation?id={pid}&amp;period={rapid['period']}&amp;kind=rapid"
        assert link in html
        calc = client.get(link.replace("&amp;", "&"))
        assert calc.status_code == 200 and f"{rapid['change']:+d}" in calc.text


@pytest.mark.parametrize("kind", ["standard", "rapid"])
def test_a_history_of_schema_4_writes_its_one_kind(kind, tmp_path):
    """The databases main wrote before schema 5 (tests/history/data, one of each kind; what
    that code read back from them in ratings_v4_expected.json): the site holds that one kind,
    each profile's table as the history read it then, the calculations under that kind."""
    name = "ratings_v4.db" if kind == "standard" else "ratings_v4_rapid.db"
    expected = json.loads((V4 / "ratings_v4_expected.json").read_text(encoding="utf-8"))[kind]
    db = tmp_path / "ratings.db"
    shutil.copyfile(V4 / name, db)
    out = tmp_path / "www"
    done = run_site(SiteRequest(db, out))
    assert done.kinds == (kind,)
    home = page_json(out, at.home())
    assert [s["kind"] for s in home["lists"]] == [kind]
    for folder in ("lists", "top", "calculations"):
        assert [p.name for p in (out / folder).iterdir()] == [kind], folder
    checked = 0
    for pid, history in expected["histories"].items():
        (shown,) = page_json(out, at.player_page(pid))["kinds"]
        assert shown["kind"] == kind
        then = [r for r in history["lists"] if not r["superseded"]]
        rows = shown["periods"]
        assert rows[0]["month"] == then[0]["list"] and rows[-1]["until"] is None
        for before in then:  # each list as the history read it then, in the row standing for it
            row = covering(rows, before["list"])
            assert row["rating"] == before["rating"]
            if row["month"] != before["list"]:  # no row of its own: nothing happened
                assert before["change"] is None and not before["period_games"]
                continue
            assert (row["change"], row["k_used"], row["period_games"]) == (
                before["change"], before["k_used"], before["period_games"],
            )  # fmt: skip
            if before["calculation"] and before["change"] is not None:  # a rated change
                checked += 1
                assert row["calculation_href"] == at.calculation_page(kind, pid, row["period"])
                calc = page_json(out, row["calculation_href"])["calc"]
                assert (calc["rating_kind"], calc["change"]) == (kind, row["change"])
    assert checked >= 5


def test_a_profile_shows_the_facts_of_the_newest_list_of_any_kind(tmp_path):
    """Standard published up to December, rapid up to January with the player's new
    federation: the profile shows the January rapid list's federation, and each kind's own
    rating."""
    from tests.rating_site.conftest import DECEMBER, november

    work = tmp_path / "work"
    work.mkdir()
    db = november(work)  # standard: the lists of November and December
    moved = "5100045"
    given = (work / "list_2026-11.csv").read_text(encoding="utf-8").splitlines()
    at_row = next(i for i, line in enumerate(given) if line.startswith(moved + ","))
    assert ",FRA," in given[at_row]
    given[at_row] = given[at_row].replace(",FRA,", ",ESP,", 1)
    (work / "rapid_2026-12.csv").write_text("\n".join(given) + "\n", encoding="utf-8")
    events = work / "rapid-events"
    events.mkdir()
    rows = ["event,round,date,white,black,result"]
    rows += [f"Rapid,{n + 1},2026-12-20,{w},{b},{r}" for n, (w, b, r) in enumerate(DECEMBER)]
    (events / "rapid.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    from pipeline.jobs.period import PeriodRequest, run_period

    run_period(PeriodRequest(list_path=work / "rapid_2026-12.csv", events=(events,),
                             period="2026-12", out_dir=work / "out-rapid", db_path=db,
                             rules="rapid"))  # fmt: skip
    out = tmp_path / "www"
    run_site(SiteRequest(db, out))
    profile = page_json(out, at.player_page(moved))
    # Each kind on its own latest list: standard's December, rapid's January.
    assert {k["kind"]: k["until"] for k in profile["kinds"]} == {"standard": None, "rapid": None}
    assert [k["periods"][-1]["month"] for k in profile["kinds"]] == ["2026-12", "2027-01"]
    assert profile["player"]["federation"] == "ESP"
    standard = read_list(work / "out" / "rating_list_2026-12.csv")[moved]
    rapid = read_list(work / "out-rapid" / "rating_list_2027-01.csv")[moved]
    ratings = {k["kind"]: k["rating"] for k in profile["kinds"]}
    assert ratings == {"standard": number(standard["rating"]), "rapid": number(rapid["rating"])}
