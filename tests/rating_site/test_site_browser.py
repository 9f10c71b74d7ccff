"""The rating site in a real browser (headless Chromium through Selenium, as
tests/web/test_browser.py): the static site opened from disk (``file://``) and the live one from
``fiderate serve``, each walked at 1366 and 390 px: search by a name, open a profile, follow a
period link to its calculation, open a top list, download a list and read it back. Each page
of the static site is photographed at both widths into docs/web/ (shown by docs/web.md)."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pandas as pd
import pytest

from pipeline.readers.lists.published_list import read_list
from pipeline.site.job import SiteRequest, run_site
from tests.web.conftest import Server
from tests.web.test_browser import PHONE, WIDTHS, shoot, type_into, wait_for, wait_for_page

SEARCHED = "Garcia, Lucia"


@pytest.fixture(scope="module")
def history(standard_and_rapid) -> Path:
    return standard_and_rapid


@pytest.fixture(scope="module")
def static_site(history) -> Path:
    out = history.parent.parent / "www"
    run_site(SiteRequest(history, out))
    return out


@pytest.fixture(scope="module")
def live(history):
    running = Server("--history", str(history))
    yield running
    running.stop()


def _click(driver, css: str) -> None:
    from selenium.webdriver.common.by import By

    element = driver.find_element(By.CSS_SELECTOR, css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def _no_sideways_scroll(driver) -> None:
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{driver.current_url} scrolls sideways by {overflow} px"


def _read_download(driver, tmp_path: Path, layout: str) -> list[tuple[str, int | None]]:
    """The list page's ``layout`` download, fetched from the address the page links to (a
    file:// or http:// URL), read back by fiderate's own reader: (id, rating) in the list's
    order of ids."""
    href = driver.execute_script(
        "return [...document.querySelectorAll('a[download]')]"
        ".find(a => a.textContent === arguments[0]).href",
        layout.upper(),
    )
    with urllib.request.urlopen(href) as answer:
        body = answer.read()
    path = tmp_path / f"downloaded.{layout}"
    path.write_bytes(body)
    players = read_list(path).players
    ratings = [None if pd.isna(r) else int(r) for r in players["rating"].astype(object)]
    return sorted(zip(players["id"], ratings, strict=True))


def _shown_list(driver) -> list[tuple[str, int | None]]:
    """(id, rating) of every row of the list page's table, as the browser shows them."""
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#list tbody tr')]"
        ".map(r => [r.cells[1].textContent, r.cells[4].textContent])"
    )
    return sorted((i, int(r) if r else None) for i, r in rows)


def _ranks_filled(driver) -> None:
    """The profile's world and national ranks, filled in by static/ranks.js from its rank
    file (they are not written on the profile: docs/web.md)."""
    wait_for(driver, lambda d: d.find_element("css selector", "#standard p.ranks").text
             .startswith("World rank "))  # fmt: skip
    text = driver.find_element("css selector", "#standard p.ranks").text
    assert "national rank" in text and "list" in text, text


def _profile_to_calculation_to_top_to_list(driver, tmp_path: Path, width: int) -> None:
    """From a site profile: its kind switch to the rapid ratings, a rapid period's link to its
    calculation (the static site's page; live, the history's page of that kind), back, a top
    list, the list month and its downloads read back (the same walk live and from disk)."""
    wait_for_page(driver, "table[id^=periods-]")
    _ranks_filled(driver)
    _no_sideways_scroll(driver)
    assert driver.find_element("css selector", "#standard svg.chart").is_displayed()
    _click(driver, "nav.kind-switch a[href='#rapid']")
    wait_for(driver, lambda d: d.execute_script("return location.hash") == "#rapid")
    assert driver.find_element("css selector", "#rapid svg.chart").is_displayed()
    _no_sideways_scroll(driver)
    profile = driver.current_url
    _click(driver, "#rapid a.calculation")
    wait_for_page(driver, "#calculation")
    heading = driver.find_element("css selector", "h1").text
    assert "period" in heading and "rapid" in heading, heading
    assert "calculations/rapid/" in driver.current_url or (
        "/history/calculation?" in driver.current_url and "kind=rapid" in driver.current_url
    ), driver.current_url
    _no_sideways_scroll(driver)
    driver.get(profile)
    wait_for_page(driver, "table[id^=periods-]")
    _click(driver, "nav a[href$='top/standard/open.html']")
    wait_for_page(driver, "#top tbody tr")
    _no_sideways_scroll(driver)
    first = driver.find_element("css selector", "#top tbody tr td").text
    assert first == "1"
    _click(driver, "p.tops a[href$='.html']:last-child")
    wait_for_page(driver, "#list tbody tr")
    _no_sideways_scroll(driver)
    shown = _shown_list(driver)
    for layout in ("csv", "xlsx", "txt", "xml"):
        assert _read_download(driver, tmp_path, layout) == shown, layout
    # Sorting and filtering in the browser (static/list.js).
    _click(driver, "#list th:nth-child(5)")
    wait_for(driver, lambda d: d.find_element("css selector", "#list th:nth-child(5)")
             .get_attribute("aria-sort") == "descending")  # fmt: skip
    type_into(driver, "#filter-text", "garcia")
    wait_for(driver, lambda d: len(d.find_elements("css selector", "#list tbody tr:not([hidden])"))
             == 1)  # fmt: skip
    assert width in (1366, PHONE)


@pytest.mark.parametrize("width", list(WIDTHS.values()))
def test_the_static_site_from_disk(browser, static_site, tmp_path, width):
    browser.set_window_size(width, 900)
    try:
        browser.get((static_site / "search.html").as_uri())
        wait_for_page(browser, "#search-text")
        type_into(browser, "#search-text", "garc")
        wait_for(browser, lambda d: d.find_elements("link text", SEARCHED))
        _click(browser, "#search-results a[href$='p-5100070.html']")
        wait_for(browser, lambda d: SEARCHED in d.find_element("css selector", "h1").text)
        _profile_to_calculation_to_top_to_list(browser, tmp_path, width)
        # An id finds its player too.
        browser.get((static_site / "search.html").as_uri() + "?q=5100088")
        wait_for(browser, lambda d: d.find_elements("link text", "Horvat, Marko"))
    finally:
        browser.set_window_size(1280, 900)


@pytest.mark.parametrize("width", list(WIDTHS.values()))
def test_the_live_site(browser, live, tmp_path, width):
    browser.set_window_size(width, 900)
    try:
        browser.get(live.url + "/site/search.html")
        wait_for_page(browser, "#search-text")
        type_into(browser, "#search-text", "garcia")
        _click(browser, "#search-form button")  # answered by the server (name_search.py)
        wait_for_page(browser, "#search-results a")
        _click(browser, "#search-results a[href$='p-5100070.html']")
        wait_for(browser, lambda d: SEARCHED in d.find_element("css selector", "h1").text)
        _profile_to_calculation_to_top_to_list(browser, tmp_path, width)
    finally:
        browser.set_window_size(1280, 900)


def test_screenshots_of_the_static_site(browser, static_site):
    pages = {
        "site-home": ("index.html", "section.kind"),
        "site-list": ("lists/standard/2027-01.html", "#list tbody tr"),
        "site-top": ("top/standard/open.html", "#top tbody tr"),
        "site-player": ("players/p-5100037.html", "svg.chart"),
        "site-calculation": ("calculations/standard/2026-12/p-5100010.html", "#calculation"),
    }
    for name, (address, ready) in pages.items():
        browser.get((static_site / address).as_uri())
        wait_for_page(browser, ready)
        if name == "site-player":
            _ranks_filled(browser)
        shoot(browser, name)
    browser.get((static_site / "search.html").as_uri() + "?q=gar")
    wait_for(browser, lambda d: d.find_elements("css selector", "#search-results a"))
    shoot(browser, "site-search")


# Per table of a profile, how far the text of the last column's header and cells stands clear
# of the scroller's right edge once it is scrolled to its end (negative: cut off), less the
# width of the shadow style.css draws at that edge (.9rem), in pixels.
LAST_COLUMN_CLEAR = """
const found = [];
for (const region of document.querySelectorAll(".scroll")) {
  region.scrollLeft = region.scrollWidth;
  const box = region.getBoundingClientRect();
  const right = box.left + region.clientLeft + region.clientWidth;
  const shadow = 0.9 * parseFloat(getComputedStyle(document.documentElement).fontSize);
  const text = cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return range.getBoundingClientRect().right;
  };
  const last = [...region.querySelectorAll("tr")].map(r => r.cells[r.cells.length - 1])
    .filter(cell => cell.textContent.trim()).map(text);
  found.push([region.getAttribute("aria-label"), region.scrollWidth > region.clientWidth,
              Math.min(...last.map(x => right - shadow - x))]);
}
return found;
"""


def test_a_profiles_last_column_reads_whole_at_390_px_once_scrolled_to_the_end(
    browser, static_site
):
    """At 390 px a profile's table of periods scrolls; scrolled to its end, the last column
    (the period, linked to its calculation) is wholly inside the scroller and clear of the
    shadow drawn at its edge (docs/web/site-player-phone.png)."""
    browser.set_window_size(PHONE, 900)
    try:
        browser.get((static_site / "players" / "p-5100037.html").as_uri())
        wait_for_page(browser, "table[id^=periods-]")
        found = browser.execute_script(LAST_COLUMN_CLEAR)
        assert [label for label, _, _ in found] == ["standard ratings by period",
                                                    "rapid ratings by period"]  # fmt: skip
        assert all(scrolls for _, scrolls, _ in found), found  # else the test tests nothing
        assert all(clear >= 0 for _, _, clear in found), found
    finally:
        browser.set_window_size(1280, 900)


def test_ranks_js_works_out_the_bucket_of_an_id_as_rank_files_does(browser, static_site):
    """static/ranks.js's bucket (the CRC-32 of the id's UTF-8, in hex as wide as the largest
    bucket's) is rank_files.bucket's, for ids of any characters and counts of any width."""
    from pipeline.site.rank_files import bucket

    browser.get((static_site / "players" / "p-5100037.html").as_uri())
    wait_for_page(browser, "table[id^=periods-]")
    ids = ["5100037", "", "a/b", "..", "Müller", "ΣΙΣΥΦΟΣ", "😀x", "<script>", "x" * 300]
    for count in (1, 2, 16, 4096, 65536):
        shown = browser.execute_script(
            "return arguments[0].map(i => fiderateRanks.bucket(i, arguments[1]))", ids, count
        )
        assert shown == [bucket(i, count) for i in ids], count
