"""The static rating site (``fiderate site``): byte-identical from the same history, only the
changed files rewritten after one more month, names and events escaped on every page, player ids
that cannot leave the site's folder, downloads that read back to the list, each profile's table
against the lists and the periods' changes, and the live pages' JSON the static files' own."""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.readers.lists.published_list import read_list
from pipeline.site import addresses as at
from pipeline.site.job import SiteRequest, run_site
from tests.conftest import run_cli
from tests.rating_site.conftest import HOSTILE, HOSTILE_EVENT, covering, december, november
from tests.web.conftest import local_client


def tree(folder: Path) -> dict[str, str]:
    """Every file of ``folder``: relative path -> sha256."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def site(two_months, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("www")
    run_site(SiteRequest(two_months, out))
    return out


def test_the_same_history_writes_a_byte_identical_site(two_months, site, tmp_path):
    again = run_site(SiteRequest(two_months, tmp_path / "again"))
    assert tree(tmp_path / "again") == tree(site)
    assert len(again.written) == len(tree(site))
    # Written over itself: nothing rewritten.
    over = run_site(SiteRequest(two_months, site))
    assert over.written == [] and over.removed == [] and over.unchanged == len(tree(site))


def written_then_december(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """November's history written as a site (its files as they were), then December published
    into the history: the database, the site's folder and its files before the refresh."""
    work = tmp_path / "work"
    work.mkdir()
    database = november(work)
    out = tmp_path / "www"
    run_site(SiteRequest(database, out))
    before = tree(out)
    december(work)
    return database, out, before


def test_after_one_more_month_only_the_changed_files_are_rewritten(tmp_path):
    database, out, before = written_then_december(tmp_path)
    refresh = run_site(SiteRequest(database, out))
    after = tree(out)
    # The refreshed folder is exactly what a fresh write makes of the longer history.
    run_site(SiteRequest(database, tmp_path / "fresh"))
    assert after == tree(tmp_path / "fresh")
    changed = {a for a in after if before.get(a) != after[a]}
    assert set(refresh.written) == changed
    assert refresh.unchanged == len(after) - len(changed) > 0
    # November's list and its downloads, and the first period's calculations, stand as they were.
    unchanged = ("lists/standard/2026-1", "calculations/standard/2026-11/", "static/")
    kept = [a for a in after if a.startswith(unchanged)]
    assert kept and not changed & set(kept)
    assert "lists/standard/2027-01.html" in changed and "index.html" in changed


def test_a_refresh_keeps_the_profile_of_a_player_who_did_not_play(tmp_path):
    """After December, whose games only some players played: the profile (page and JSON) of
    each player who did not play is the same bytes and not written; each who played is
    rewritten; the ranks, which move for everyone, are in the rank files."""
    from tests.rating_site.conftest import DECEMBER

    database, out, before = written_then_december(tmp_path)
    refresh = run_site(SiteRequest(database, out))
    after = tree(out)
    played = {p for white, black, _ in DECEMBER for p in (white, black)}
    listed = set(read_list(out / at.download("standard", "2027-01", "csv")).players["id"])
    idle = sorted(listed - played)
    assert idle and played <= listed
    for player_id in idle:
        for address in (at.player_page(player_id), at.json_of(at.player_page(player_id))):
            assert address in before and after[address] == before[address], address
            assert address not in refresh.written
    for player_id in played:
        page = at.player_page(player_id)
        assert after[page] != before[page] and page in refresh.written
        assert at.json_of(page) in refresh.written
    assert any(a.startswith("ranks/") for a in refresh.written)


def test_a_refresh_renders_no_old_periods_calculation_page(tmp_path, monkeypatch):
    """After December: every calculation page rendered is one of December's (the new
    period), none of November's, whose pages stay the same bytes; the refreshed folder is what
    a fresh write makes. (Counted at the page's context, pages.calculation, which reads the
    period's calculation from the history: a page made is a page rendered.)"""
    from pipeline.site import pages

    database, out, before = written_then_december(tmp_path)
    made: list[str] = []
    calculation = pages.calculation

    def counted(data, kind, player_id, period):  # type: ignore[no-untyped-def]
        made.append(period)
        return calculation(data, kind, player_id, period)

    monkeypatch.setattr(pages, "calculation", counted)
    refresh = run_site(SiteRequest(database, out))
    old = [a for a in before if a.startswith("calculations/standard/2026-11/")]
    assert old and set(made) == {"2026-12"}
    assert not set(old) & set(refresh.written)
    assert all(tree(out)[a] == before[a] for a in old)
    monkeypatch.setattr(pages, "calculation", calculation)
    run_site(SiteRequest(database, tmp_path / "fresh"))
    assert tree(out) == tree(tmp_path / "fresh")


def test_the_manifest_keys_pages_by_their_lists_rows_not_the_databases_ids(two_months, tmp_path):
    """Another history (the sample without the hostile names) has the same content ids: written
    over the first one's site, its folder is what a fresh write makes, list pages and downloads
    included; a file gone from a held group, or a broken manifest, is made again."""
    from pipeline.jobs.period import PeriodRequest, run_period
    from pipeline.site.static_site import MANIFEST
    from tests.rating_site.conftest import SAMPLE

    work = tmp_path / "plain"
    shutil.copytree(SAMPLE / "events", work / "events")
    run_period(PeriodRequest(list_path=SAMPLE / "list_2026-11.csv", events=(work / "events",),
                             period="2026-11", out_dir=work / "out"))  # fmt: skip
    other = work / "out" / "ratings.db"
    out = tmp_path / "www"
    run_site(SiteRequest(two_months, out))
    over = run_site(SiteRequest(other, out))
    run_site(SiteRequest(other, tmp_path / "fresh"))
    assert tree(out) == tree(tmp_path / "fresh")
    assert "lists/standard/2026-11.html" in over.written
    assert "lists/standard/rating_list_standard_2026-11.csv" in over.written
    download = out / "lists" / "standard" / "rating_list_standard_2026-11.xlsx"
    download.unlink()
    (out / MANIFEST).write_text("{not json", encoding="utf-8")
    again = run_site(SiteRequest(other, out))
    assert tree(out) == tree(tmp_path / "fresh")
    assert set(again.written) == {download.relative_to(out).as_posix(), MANIFEST}


def test_a_gone_file_is_removed_from_the_sites_folders_only(two_months, site, tmp_path):
    out = tmp_path / "www"
    shutil.copytree(site, out)
    (out / "players" / "p-stale.html").write_text("old", encoding="utf-8")
    (out / "notes.txt").write_text("the federation's own file", encoding="utf-8")
    done = run_site(SiteRequest(two_months, out))
    assert done.removed == ["players/p-stale.html"] and done.written == []
    assert (out / "notes.txt").exists()


def test_names_and_events_are_escaped_on_every_page(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "<img" not in text and "<b>Co" not in text, page
    profile = (site / at.player_page("5100010")).read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in profile
    calculation = at.calculation_page("standard", "5100010", "2026-12")
    calc = (site / calculation).read_text(encoding="utf-8")
    assert "&lt;/td&gt;&lt;script&gt;alert(3)&lt;/script&gt; Open" in calc
    # The JSON holds the names as they are (text, for programs).
    data = json.loads((site / at.json_of(at.player_page("5100037"))).read_text("utf-8"))
    assert data["player"]["name"] == HOSTILE["5100037"]
    games = json.loads((site / at.json_of(calculation)).read_text("utf-8"))["calc"]["games"]
    assert {g["event"] for g in games} == {HOSTILE_EVENT}


@given(st.text(min_size=1, max_size=at.ID_CHARS))
def test_an_id_encodes_to_one_file_name_in_its_folder_and_back(player_id):
    token = at.id_token(player_id)
    assert "/" not in token and "\\" not in token and "." not in token
    assert token == token.lower() and token.startswith("p-")
    assert at.token_id(token) == player_id
    assert at.parse(at.player_page(player_id)) == at.Address("player", player_id=player_id)


@given(st.text(alphabet=st.sampled_from("az09-_A.é/\x00"), max_size=at.ID_CHARS) | st.text())
def test_an_ids_token_is_its_bytes_kept_or_written_as_hex(player_id):
    """The rule byte by byte (the shortcut for an id of kept characters writes the same)."""
    kept = b"abcdefghijklmnopqrstuvwxyz0123456789-"
    spelled = "".join(chr(b) if b in kept else f"_{b:02x}" for b in player_id.encode())
    assert at.id_token(player_id) == "p-" + spelled


@given(
    st.text(min_size=1, max_size=at.ID_CHARS),
    st.sampled_from(at.KINDS),
    st.integers(1900, 2999),
    st.integers(1, 12),
)
def test_a_calculation_address_names_its_kind_period_and_player(player_id, kind, year, month):
    period = f"{year}-{month:02d}"
    address = at.calculation_page(kind, player_id, period)
    assert address.startswith(f"calculations/{kind}/{period}/")
    assert at.parse(address) == at.Address(
        "calculation", kind=kind, month=period, player_id=player_id
    )


@pytest.mark.parametrize("player_id", ["../../etc/passwd", "a/b", "..", ".", "CON", "A", "a"])
def test_hostile_ids_stay_in_the_players_folder(player_id, tmp_path):
    page = tmp_path / at.player_page(player_id)
    assert page.resolve().parent == (tmp_path / "players").resolve()
    assert at.id_token("A") != at.id_token("a")  # distinct on a case-insensitive disk too


def test_the_live_site_refuses_addresses_it_does_not_write(two_months):
    from pipeline.web.app import create_app

    with local_client(create_app(two_months), raise_server_exceptions=False) as client:
        for address in [
            "players/../../etc/passwd",
            "players/p-..%2Fx.html",
            "players/x.html",
            "lists/standard/../../../etc/passwd",
            "calculations/2026-11/p-_2e.html",
            "calculations/2026-11/p-5100010.html",  # no kind: not an address the site writes
            "calculations/bullet/2026-11/p-5100010.html",
            "players/p-_zz.html",
            "top/standard/fed-..html",
            "static/../app.py",
        ]:
            assert client.get(f"/site/{address}").status_code == 404, address


def test_each_download_reads_back_to_the_list(two_months, site):
    shown = ["id", "name", "federation", "title", "birth_year", "rating", "k"]
    for month in ("2026-11", "2026-12", "2027-01"):
        published = pd.read_csv(site / at.download("standard", month, "csv"), dtype=str,
                                keep_default_na=False)  # fmt: skip
        expected = read_list(site / at.download("standard", month, "csv")).players[shown]
        assert list(expected["id"]) == list(published["id"]) and len(expected) >= 12
        for layout in ("xlsx", "txt", "xml"):
            back = read_list(site / at.download("standard", month, layout)).players
            got = back.set_index("id").loc[expected["id"], shown[1:]].reset_index()
            pd.testing.assert_frame_equal(
                got.astype(str), expected.reset_index(drop=True).astype(str), check_dtype=False
            )
            sex = back.set_index("id")["sex"].str.lower().replace({"f": "w"})
            assert dict(sex) == dict(zip(published["id"], published["sex"], strict=True))


def test_each_profile_matches_the_lists_and_the_periods_changes(two_months, site):
    out = two_months.parent
    lists = {m: read_list(site / at.download("standard", m, "csv")).players.set_index("id")
             for m in ("2026-11", "2026-12", "2027-01")}  # fmt: skip
    changes = {
        p: {r["id"]: r for r in csv.DictReader(
            (out / f"changes_{p}.csv").read_text("utf-8").splitlines())}
        for p in ("2026-11", "2026-12")
    }  # fmt: skip
    checked = 0
    for player_id in lists["2027-01"].index:
        profile = json.loads((site / at.json_of(at.player_page(player_id))).read_text("utf-8"))
        periods = profile["kinds"][0]["periods"]
        for month, period, before in (("2026-12", "2026-11", "2026-11"),
                                      ("2027-01", "2026-12", "2026-12")):  # fmt: skip
            row = covering(periods, month)
            new = lists[month].loc[player_id, "rating"]
            assert row["rating"] == (None if pd.isna(new) else int(new))
            old = lists[before]["rating"].get(player_id)
            change = changes[period].get(player_id)
            if row["month"] != month:  # no row of its own: no games, the rating as before
                games = [lists[m]["games"].get(player_id) for m in (before, month)]
                assert change is None and str(games[0]) == str(games[1])  # played none
                assert row["rating"] == (None if old is None or pd.isna(old) else int(old))
                continue
            if row["rating"] is not None and old is not None and not pd.isna(old):
                assert row["difference"] == row["rating"] - int(old)
            if change is None or not change["k"]:  # no K: a first rating, not a change
                assert row["change"] is None
                continue
            assert (row["games"], row["k_used"], row["change"], row["score"]) == (
                int(change["games"]),
                int(change["k"]),
                int(change["change"]),
                change["score"],
            )
            if change["status"] == "rated":
                assert row["change"] == row["difference"]  # new - old
            assert row["calculation_href"] == at.calculation_page("standard", player_id, period)
            checked += 1
    assert checked >= 10


def test_the_live_pages_are_the_static_files_context(two_months, site):
    from pipeline.web.app import create_app

    with local_client(create_app(two_months), raise_server_exceptions=False) as client:
        for address in ["index.html", "lists/standard/2027-01.html", "top/standard/open.html",
                        "top/standard/girls.html", at.player_page("5100037"),
                        at.calculation_page("standard", "5100010", "2026-12")]:  # fmt: skip
            live = client.get(f"/site/{address}", params={"format": "json"})
            assert live.status_code == 200
            assert live.content == (site / at.json_of(address)).read_bytes(), address
            page = client.get(f"/site/{address}")
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        for layout in ("csv", "xlsx", "txt", "xml"):
            download = at.download("standard", "2027-01", layout)
            assert client.get(f"/site/{download}").content == (site / download).read_bytes()


def test_fiderate_site_command(two_months, tmp_path):
    result = run_cli("site", "--db", two_months, "--out", tmp_path / "www")
    assert result.exit_code == 0, result.output
    assert "files written" in result.stdout and (tmp_path / "www" / "index.html").is_file()
    again = run_cli("site", "--db", two_months, "--out", tmp_path / "www", "--json")
    assert json.loads(again.stdout)["written"] == []
    missing = run_cli("site", "--db", tmp_path / "none.db", "--out", tmp_path / "w2")
    assert missing.exit_code == 1 and "no history database" in missing.stderr
    assert not (tmp_path / "w2").exists() and "Traceback" not in missing.output


def test_the_live_site_answers_for_the_database_as_it_is_now(tmp_path):
    from pipeline.web.app import create_app

    work = tmp_path / "work"
    work.mkdir()
    database = november(work)
    with local_client(create_app(database), raise_server_exceptions=False) as client:
        before = client.get("/site/index.json").json()
        assert client.get("/site/index.json").json() == before  # kept for this state
        december(work)
        after = client.get("/site/index.json").json()
    assert before["lists"][0]["month"] == "2026-12" and after["lists"][0]["month"] == "2027-01"


def test_the_server_decodes_the_latest_list_and_its_search_index_as_it_starts(two_months):
    """The warm-up: at FIDE's scale the first profile, top list or search would otherwise wait
    seconds for the latest list to be decoded."""
    from pipeline.site.history_data import SEARCH_KEY, SiteData
    from pipeline.web.app import create_app

    app = create_app(two_months)
    data = SiteData.open(two_months)
    try:
        latest = data.latest(data.kinds()[0])
    finally:
        data.close()
    assert latest is not None
    with local_client(app) as client:
        pages = app.state.pages
        assert pages.site_indexed.wait(60) and pages.site_warm.wait(60)
        held = pages.site_frames[1]
        assert latest.content_id in held and SEARCH_KEY in held
        found = client.get("/site/search.json?q=5100010").json()
        assert [p["id"] for p in found["players"]] == ["5100010"]
        assert pages.site_frames[1] is held  # the request used the lists decoded at start


def test_the_search_index_is_built_from_the_search_columns_alone(tmp_path):
    """The search index (what the live server's first search waits for) decodes no whole
    list: a profile's or a top list's (SiteData.frame, which the server's other warm-up
    thread decodes meanwhile) is not among the lists held after it, and it finds what the
    rule finds, the dropped player (on an older list only) and the rapid-only one too."""
    from pipeline.site.history_data import SEARCH_KEY, SiteData
    from tests.rating_site.search_history import DROPPED, RAPID_ONLY, search_history

    database = search_history(tmp_path)
    frames: dict = {}
    data = SiteData.open(database, frames)
    try:
        index = data.search_index()
        assert list(frames) == [SEARCH_KEY]
        assert {DROPPED, RAPID_ONLY[0]} <= set(index.rows["id"])
        assert data.find_players(DROPPED)[0]["id"].tolist() == [DROPPED]
    finally:
        data.close()


def test_a_folder_that_cannot_be_written_is_a_clear_error(two_months, tmp_path):
    blocked = tmp_path / "www"
    blocked.mkdir()
    (blocked / "players").write_text("a file where the site needs a folder", encoding="utf-8")
    result = run_cli("site", "--db", two_months, "--out", blocked)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "the site cannot be written to" in result.stderr and "players" in result.stderr


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("garc", ["5100070"]),  # a name's first word
        ("LUCIA", ["5100070"]),  # another word, any case
        ("arcia", []),  # inside a word: not a word's beginning
        (
            "51000",
            [
                "5100010",
                "5100029",
                "5100037",
                "5100045",
                "5100053",
                "5100061",
                "5100070",
                "5100088",
                "5100096",
            ],
        ),  # an id's beginning  # fmt: skip
        ("<script>", ["5100010"]),
        ("garcia lucia", ["5100070"]),  # the name as written without its comma
        ("", []),
        (",", []),
    ],
)
def test_the_live_search_finds_a_names_word_or_an_ids_beginning(two_months, query, found):
    from pipeline.web.app import create_app

    with local_client(create_app(two_months), raise_server_exceptions=False) as client:
        answer = client.get("/site/search.json", params={"q": query}).json()
        page = client.get("/site/search.html", params={"q": query}).text
    ids = [p["id"] for p in answer["players"]]
    assert sorted(ids) == sorted(found)
    assert "<script>alert" not in page


def test_a_refresh_decodes_no_list_whose_pages_it_holds(two_months, site, tmp_path, monkeypatch):
    """Written again from the same history, the site's held list months are keyed by the rows'
    digest the store keeps (no old list decoded to know it unchanged): the oldest list, which
    only its own month's pages and the month after it are made from, is never decoded."""
    from pipeline.site.history_data import SiteData

    out = tmp_path / "www"
    shutil.copytree(site, out)
    decoded: list[int] = []
    frame = SiteData.frame

    def counted(self: SiteData, month):  # type: ignore[no-untyped-def]
        decoded.append(month.content_id)
        return frame(self, month)

    monkeypatch.setattr(SiteData, "frame", counted)
    data = SiteData.open(two_months)
    try:
        oldest = data.months_of("standard")[0]
    finally:
        data.close()
    again = run_site(SiteRequest(two_months, out))
    assert again.written == [] and again.removed == []
    assert decoded, "the latest list is decoded (the top lists of its federations are listed)"
    assert oldest.content_id not in decoded


def test_a_file_gone_from_a_held_group_is_made_again(two_months, site, tmp_path):
    """The manifest intact, a held group with a file missing is made again: that file written,
    the folder what a fresh write makes."""
    out = tmp_path / "www"
    shutil.copytree(site, out)
    gone = [
        "lists/standard/rating_list_standard_2026-11.xlsx",
        "players/"
        + next(p.name for p in sorted((out / "players").iterdir()) if p.suffix == ".json"),
    ]
    for address in gone:
        (out / address).unlink()
    again = run_site(SiteRequest(two_months, out))
    assert sorted(again.written) == sorted(gone)
    assert tree(out) == tree(site)


def test_a_site_written_again_from_the_same_history_makes_no_file(
    two_months, site, tmp_path, monkeypatch
):
    """Written over itself, every group of files is held by its key and none is made: not the
    home page, the search page and the top lists (made from the latest lists), the rank files
    and the search's index (from every list), nor the assets."""
    from dataclasses import replace

    from pipeline.site import static_site
    from pipeline.site.site_files import site_groups

    out = tmp_path / "www"
    shutil.copytree(site, out)
    made: list[tuple[str, ...] | None] = []

    def counted(group):  # type: ignore[no-untyped-def]
        def make():  # type: ignore[no-untyped-def]
            made.append(group.addresses)
            return group.make()

        return replace(group, make=make)

    monkeypatch.setattr(
        static_site, "site_groups", lambda data, held=None: map(counted, site_groups(data, held))
    )
    again = run_site(SiteRequest(two_months, out))
    assert again.written == [] and again.removed == [] and made == []
    assert again.unchanged == len(tree(site))
    assert tree(out) == tree(site)


def test_a_profiles_facts_read_in_words_from_the_players_codes(two_months, site):
    """The facts as FIDE's profile words them: the list's sex code ``m`` / ``w`` reads "Male" /
    "Female" (the JSON keeps the code, which a program reads), no title reads "None"; each
    compared with the player's row of the list the profile takes its facts from."""
    import re

    listed = read_list(site / at.download("standard", "2027-01", "csv")).players
    seen = set()
    for row in listed.itertuples():
        page = (site / at.player_page(str(row.id))).read_text("utf-8")
        facts = dict(re.findall(r"<div><dt>([^<]+)</dt><dd>([^<]*)</dd></div>", page))
        profile = json.loads((site / at.json_of(at.player_page(str(row.id)))).read_text("utf-8"))
        assert profile["player"]["sex"] == row.sex
        assert facts["Sex"] == {"m": "Male", "w": "Female", "": "unknown"}[row.sex or ""]
        title = "" if pd.isna(row.title) else str(row.title)
        assert facts["Title"] == (title or "None")
        seen.add((facts["Sex"], bool(title)))
    assert {("Male", True), ("Male", False), ("Female", True), ("Female", False)} <= seen


@pytest.mark.parametrize(
    ("code", "words"),
    [("m", "Male"), ("M", "Male"), ("w", "Female"), ("W", "Female"), ("f", "Female"),
     (" F ", "Female"), ("", "unknown"), (None, "unknown"), ("x", "x")],
)  # fmt: skip
def test_a_sex_code_reads_as_fide_words_it(code, words):
    from pipeline.rules.sexes import sex_words

    assert sex_words(code) == words


def test_after_a_month_of_one_kind_the_other_kinds_top_lists_are_not_made(tmp_path, monkeypatch):
    """A history of standard and rapid lists written, then one more standard month: the top
    lists made again are every standard one and no rapid one (a top list is keyed by its kind's
    latest list), and the refreshed folder is what a fresh write makes."""
    from pipeline.site import pages
    from tests.rating_site.conftest import rapid_december

    work = tmp_path / "work"
    work.mkdir()
    november(work)
    database = rapid_december(work)
    out = tmp_path / "www"
    run_site(SiteRequest(database, out))
    before = tree(out)
    december(work)
    made: list[tuple[str, str]] = []
    top_list = pages.top_list

    def counted(data, kind, top):  # type: ignore[no-untyped-def]
        made.append((kind, top))
        return top_list(data, kind, top)

    monkeypatch.setattr(pages, "top_list", counted)
    refresh = run_site(SiteRequest(database, out))
    tops = {(kind, a.split("/")[2].removesuffix(".html"))
            for a in before if a.startswith("top/") and a.endswith(".html")
            for kind in [a.split("/")[1]]}  # fmt: skip
    assert {k for k, _ in tops} == {"standard", "rapid"}
    # (a federation's top list with no rated player has no file, but is made)
    assert {k for k, _ in made} == {"standard"} and len(made) == len(set(made))
    assert {t for t in tops if t[0] == "standard"} <= set(made)
    assert not [a for a in refresh.written if a.startswith("top/rapid/")]
    monkeypatch.setattr(pages, "top_list", top_list)
    run_site(SiteRequest(database, tmp_path / "fresh"))
    assert tree(out) == tree(tmp_path / "fresh")
