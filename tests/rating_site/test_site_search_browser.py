"""The rating site's search in a real browser (headless Chromium, as test_site_browser.py): the
static page opened from disk (search.js over the index shards) and the live page of ``fiderate
serve`` (name_search.py) asked the same queries, non-ASCII and hostile ones among them, show
the same players in the same order with the same words and links; a result opens its profile;
both read at 390 and 1366 px without scrolling sideways (photographed into docs/web/)."""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import pytest

from pipeline.site.job import SiteRequest, run_site
from tests.rating_site.search_history import DROPPED, NAMES, search_history
from tests.rating_site.test_site_search import QUERIES, SEPARATORS
from tests.web.conftest import Server
from tests.web.test_browser import PHONE, shoot, type_into, wait_for, wait_for_page

HINT = "Type the beginning of a name (any of its words; accents and case aside) or of an id."


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Path:
    return search_history(tmp_path_factory.mktemp("search-browser"))


@pytest.fixture(scope="module")
def static_site(history, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("www-search-browser")
    run_site(SiteRequest(history, out))
    return out


@pytest.fixture(scope="module")
def live(history):
    running = Server("--history", str(history))
    yield running
    running.stop()


def _answered(driver) -> bool:
    """The page shows an answer (not the hint it starts with)."""
    text = driver.find_element("css selector", "#search-status").text
    return text.split(" ", 1)[0].isdigit()


def _shown(driver, answered: bool) -> tuple[str, list[tuple[str, str]]]:
    """(the status line, each result's text and link as written) of a search page; ``answered``:
    the query is more than separators (else no search is made)."""
    wait_for_page(driver, "#search-status")
    if answered:  # else the page keeps its hint (search.js answers that at once, as it loads)
        wait_for(driver, _answered)
    items = driver.execute_script(
        "return [...document.querySelectorAll('#search-results li')]"
        ".map(li => [li.textContent.replace(/\\s+/g, ' ').trim(),"
        " li.querySelector('a').getAttribute('href')])"
    )
    status = driver.find_element("css selector", "#search-status").text
    return status, [tuple(i) for i in items]


def _no_sideways_scroll(driver) -> None:
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{driver.current_url} scrolls sideways by {overflow} px"


def test_the_static_and_the_live_search_show_the_same(browser, static_site, live):
    page = (static_site / "search.html").as_uri()
    for query, ids in QUERIES.items():
        asked = "?q=" + urllib.parse.quote(query)
        searched = bool(query.strip(SEPARATORS))
        browser.get(page + asked)
        static = _shown(browser, searched)
        browser.get(live.url + "/site/search.html" + asked)
        served = _shown(browser, searched)
        assert static == served, query
        assert static[0] == (f"{len(ids)} found." if searched else HINT), query
        assert len(static[1]) == len(ids), query


# Queries whose shards split at a small budget (test_site_search_shards.py): 1-character ones
# and ones shorter than the keys under them (answered ahead, or from every shard under them).
CROSSING = ["5", "510", "m", "M", "mu", "Mül", "muller", "s", "σ", "Σ", "<", "51009", "j", "Ø"]


@pytest.fixture(scope="module")
def split_site(history, static_site, tmp_path_factory) -> Path:
    """The static site with its search index split into shards of about a row each."""
    import shutil

    from pipeline.site.history_data import SiteData
    from pipeline.site.site_files import search_shards
    from tests.rating_site.test_site_search_shards import BUDGET

    out = tmp_path_factory.mktemp("www-split")
    for name in ("search.html", "static"):
        copy = shutil.copytree if (static_site / name).is_dir() else shutil.copy
        copy(static_site / name, out / name)
    data = SiteData.open(history)
    try:
        for address, body in search_shards(data, BUDGET):
            (out / address).parent.mkdir(exist_ok=True)
            (out / address).write_bytes(body)
    finally:
        data.close()
    return out


def test_split_shards_show_what_the_live_search_shows(browser, split_site, live):
    assert len(list((split_site / "search").glob("*.js"))) > 25
    page = (split_site / "search.html").as_uri()
    served = {}
    for query in CROSSING:
        asked = "?q=" + urllib.parse.quote(query)
        browser.get(live.url + "/site/search.html" + asked)
        served[query] = _shown(browser, True)
        assert served[query][1], query
        browser.get(page + asked)
        assert _shown(browser, True) == served[query], query
    # Without the answers written ahead, a short query merges every shard under it.
    for path in (split_site / "search").glob("first-*.js"):
        path.unlink()
    for query in CROSSING:
        browser.get(page + "?q=" + urllib.parse.quote(query))
        assert _shown(browser, True) == served[query], query
    # Typed letter by letter: each keystroke answers for the box as it is then.
    browser.get(page)
    wait_for_page(browser, "#search-text")
    type_into(browser, "#search-text", "mül")
    wait_for(browser, lambda d: d.find_element("css selector", "#search-status").text
             == "2 found.")  # fmt: skip


def test_typing_finds_a_dropped_player_and_opens_the_profile(browser, static_site, live):
    try:
        for width in (1366, PHONE):
            browser.set_window_size(width, 900)
            browser.get((static_site / "search.html").as_uri())
            wait_for_page(browser, "#search-text")
            type_into(browser, "#search-text", "Müller")  # search.js answers as one types
            wait_for(browser, lambda d: len(d.find_elements("css selector", "#search-results a"))
                     == 2)  # fmt: skip
            _no_sideways_scroll(browser)
            browser.find_element("css selector", f"#search-results a[href$='p-{DROPPED}.html']")\
                .click()  # fmt: skip
            wait_for(browser, lambda d: NAMES[DROPPED] in d.find_element("css selector", "h1").text)
            browser.get(live.url + "/site/search.html")
            wait_for_page(browser, "#search-text")
            type_into(browser, "#search-text", "odegaard")
            browser.find_element("css selector", "#search-form button").click()  # the server
            wait_for_page(browser, "#search-results a")
            _no_sideways_scroll(browser)
            browser.find_element("css selector", "#search-results a").click()
            wait_for(browser, lambda d: NAMES["5100100"] in d.find_element("css selector", "h1")
                     .text)  # fmt: skip
    finally:
        browser.set_window_size(1280, 900)


def test_screenshots_of_the_search(browser, static_site, live):
    browser.get((static_site / "search.html").as_uri() + "?q=" + urllib.parse.quote("müller"))
    wait_for(browser, _answered)
    shoot(browser, "site-search-static")
    browser.get(live.url + "/site/search.html?q=5")
    wait_for(browser, _answered)
    shoot(browser, "site-search-live")
