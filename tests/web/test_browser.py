"""``fiderate serve`` in a real browser: the real server (a process of its own, on a free port)
driven by headless Chromium through Selenium. One server for the module, the run's browser.

Expected numbers come from ../shared/fide/EXAMPLES.md's worked cases (copied here with their
line), and an event's from ``fiderate rate`` run on the same file in the same test. Each page is
also photographed at a desktop and a phone width into docs/web/ (shown by docs/web.md).
"""

from __future__ import annotations

import csv
import io
import subprocess
import sys
import threading
import urllib.request
import uuid
import zipfile
from decimal import Decimal
from pathlib import Path

import pytest

from pipeline.lists.next_list import STATUS_POOL
from tests.web.conftest import ROOT

SHOTS = ROOT / "docs" / "web"
SAMPLE = ROOT / "sample_data"
PHONE = 390
WIDTHS = {"desktop": 1366, "phone": PHONE}


def wait_for(driver, condition, timeout: float = 30):
    """Poll ``condition(driver)`` until it is true. The condition re-finds its elements on every
    poll, and an element replaced between the find and the read (the calculator swaps its results
    as the answers arrive; a click swaps the page) is one more poll, never a failure."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    ignored = (NoSuchElementException, StaleElementReferenceException)
    return WebDriverWait(driver, timeout, ignored_exceptions=ignored).until(condition)


def wait_for_page(driver, css: str) -> None:
    """The new page is there (an element only it has) and fully parsed."""
    wait_for(
        driver,
        lambda d: (
            d.find_elements("css selector", css)
            and d.execute_script("return document.readyState") == "complete"
        ),
    )


def text_of(driver, css: str) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, css).text


def shoot(driver, name: str) -> None:
    """The page at each width, as tall as its content (at most 2,400 pixels)."""
    SHOTS.mkdir(exist_ok=True)
    for label, width in WIDTHS.items():
        driver.set_window_size(width, 900)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        # the window's frame takes some of its height: the page gets what is left
        driver.set_window_size(width, min(max(int(height) + 140, 600), 2400))
        driver.save_screenshot(str(SHOTS / f"{name}-{label}.png"))
    driver.set_window_size(1280, 900)


# Per table, the columns a reader of that page needs on a phone without scrolling.
KEY_COLUMNS = {
    "calculator": (
        "#results table.num", ["opponent", "result", "PD (FIDE table)", "S - PD", "K x (S - PD)"]
    ),
    "event": ("table.standings", ["player", "points", "change", "new rating"]),
    "player": ("table.calc", ["opponent", "result", "expected (PD)", "S - PD", "K x (S - PD)"]),
}  # fmt: skip

# The headers of ``arguments[0]`` named in ``arguments[1]`` that are not wholly on screen (the
# viewport's width, no scrolling), each with where it is.
OFF_SCREEN = """
const table = document.querySelector(arguments[0]);
if (!table) { return ["no table " + arguments[0]]; }
const width = document.documentElement.clientWidth;
const heads = [...table.tHead.rows[0].cells];
return arguments[1].flatMap(name => {
  const th = heads.find(h => h.textContent.trim() === name);
  if (!th) { return [name + ": no such column"]; }
  const r = th.getBoundingClientRect();
  return r.width > 0 && r.left >= 0 && r.right <= width + 0.5
    ? [] : [`${name}: ${Math.round(r.left)}..${Math.round(r.right)} of ${width} px`];
});
"""

# Every table box that scrolls sideways, and whether it shows the cue (a shadow at its edge).
SCROLLERS = """
return [...document.querySelectorAll("main table")].map(t => t.parentElement)
  .filter(box => box.getClientRects().length && box.scrollWidth > box.clientWidth + 1)
  .map(box => [box.querySelector("table").className || "table",
               getComputedStyle(box).overflowX,
               getComputedStyle(box).backgroundImage.includes("gradient")]);
"""


def at_width(driver, width: int) -> None:
    driver.set_window_size(width, 900)
    wait_for(driver, lambda d: d.execute_script("return window.innerWidth") == width)


def check_phone_layout(driver, page: str) -> None:
    """At 390 px the page's key columns are on screen, the page itself does not scroll sideways,
    and every table that does scroll says so."""
    at_width(driver, PHONE)
    table, columns = KEY_COLUMNS[page]
    try:
        assert driver.execute_script(OFF_SCREEN, table, columns) == []
        overflow = driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the {page} page scrolls sideways by {overflow} px"
        for name, scrolls, cue in driver.execute_script(SCROLLERS):
            assert scrolls == "auto" and cue, f"{name} scrolls without a cue"
    finally:
        driver.set_window_size(1280, 900)


def type_into(driver, css: str, value: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    field = driver.find_element(By.CSS_SELECTOR, css)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE)
    field.send_keys(value)


def test_calculator_as_you_type(browser, server):
    """EXAMPLES.md: 1650 beats 1800 at K 20 (FIDE): +14, new 1664; the URL carries the inputs."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(server.url + "/calc")
    type_into(browser, "#r", "1650")
    type_into(browser, "#games li:first-child input[name=o]", "1800")
    Select(browser.find_element(By.CSS_SELECTOR, "#games li select")).select_by_value("1")
    wait_for(
        browser,
        lambda d: (
            text_of(d, "#change") == "+14"
            and text_of(d, "#new-rating") == "1664"
            and "o=1800" in d.current_url
        ),
    )
    assert "r=1650" in browser.current_url
    # A second game, added by keyboard-free clicking and typing: EXAMPLES.md whole event 2 is
    # 1600 beating 1800 and drawing 1550: +13.8 -> +14, new 1614.
    browser.find_element(By.ID, "add").click()
    type_into(browser, "#games li:nth-child(2) input[name=o]", "1550")
    Select(browser.find_element(By.CSS_SELECTOR, "#games li:nth-child(2) select")).select_by_value(
        "0.5"
    )
    type_into(browser, "#r", "1600")
    wait_for(
        browser,
        lambda d: text_of(d, "#new-rating") == "1614" and "+13.80" in text_of(d, "#results"),
    )
    check_phone_layout(browser, "calculator")
    shoot(browser, "calculator")


def test_calculator_from_the_url_shows_the_exemption_and_the_cap(browser, server):
    """EXAMPLES.md: 2700 beats 2200 (standard, from 2025-10-01): PD 0.96 with no cap at 2650+,
    K 10: +0.4 -> 0; the 2200 side is capped: PD 0.08, -1.6 -> -2."""
    browser.get(server.url + "/calc?r=2700&kp=fide&o=2200&s=1&rules=standard-2025")
    wait_for_page(browser, "#change")
    assert text_of(browser, "#change") == "0"
    results = text_of(browser, "#results")
    assert "exempt" in results and "+500" in results
    assert "-1.60 -> -2" in results
    assert "0.96" in results


def rate_with_cli(event: Path, tmp: Path) -> Path:
    out = tmp / f"cli-{uuid.uuid4().hex}"
    subprocess.run(
        [sys.executable, "-m", "pipeline", "rate", str(event), "--out", str(out), "--quiet"],
        cwd=tmp,
        check=True,
    )
    return out


def upload(browser, server, path: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(server.url + "/rate")
    browser.find_element(By.ID, "event").send_keys(str(path))
    browser.find_element(By.CSS_SELECTOR, "form.upload button[type=submit]").click()


def test_upload_an_event_and_read_a_change_its_calculation_and_the_zip(browser, server, tmp_path):
    from selenium.webdriver.common.by import By

    upload(browser, server, SAMPLE / "event.trf")
    wait_for_page(browser, "table.standings")
    # At 1366 px the whole standings fit (an unrated player's words wrap in their cell).
    at_width(browser, WIDTHS["desktop"])
    assert browser.execute_script(SCROLLERS) == []
    check_phone_layout(browser, "event")
    shoot(browser, "event")
    cli_out = rate_with_cli(SAMPLE / "event.trf", tmp_path)
    with (cli_out / "rating_list.csv").open(encoding="utf-8", newline="") as f:
        cli_changes = {row["id"]: row["change"] for row in csv.DictReader(f)}
    shown = {
        row.get_attribute("data-id"): row.find_element(By.CSS_SELECTOR, "td.change").text
        for row in browser.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
    }
    for player, change in cli_changes.items():
        if shown[player] == STATUS_POOL:  # unrated: no change, the changes CSV's words
            continue
        assert int(shown[player].replace("+", "")) == int(change), player
    assert shown["4100093"] == STATUS_POOL  # Schmidt, Hanna: unrated in the TRF

    # Every file of the zip is byte for byte the file `fiderate rate` writes for that input.
    href = browser.find_element(By.ID, "download").get_attribute("href")
    with urllib.request.urlopen(href, timeout=30) as answer:
        archive = zipfile.ZipFile(io.BytesIO(answer.read()))
    cli_files = sorted(p.relative_to(cli_out).as_posix() for p in cli_out.rglob("*") if p.is_file())
    assert sorted(archive.namelist()) == cli_files
    for name in cli_files:
        assert archive.read(name) == (cli_out / name).read_bytes(), name

    # Silva, Tiago (4100050): five games, K 20, from the TRF; the games against 2712, 2194
    # and 2205 are more than 400 points above him, so they count as -400 (PD 0.08).
    browser.find_element(By.CSS_SELECTOR, "tr[data-id='4100050'] a").click()
    wait_for_page(browser, "#player-change")
    assert text_of(browser, "#player-change") == cli_changes["4100050"]
    rows = browser.find_elements(By.CSS_SELECTOR, "table.calc tbody tr")
    assert len(rows) == 5
    assert len(browser.find_elements(By.CSS_SELECTOR, "table.calc tr.capped")) == 3
    assert "-1062" in rows[0].text and "-400" in rows[0].text
    check_phone_layout(browser, "player")
    shoot(browser, "player")


def test_a_broken_upload_lists_its_problems(browser, server):
    upload(browser, server, SAMPLE / "broken" / "result-mismatch.trf")
    wait_for_page(browser, "table.problems-table")
    table = text_of(browser, "table.problems-table")
    assert "result-mismatch" in table and "result-mismatch.trf" in table
    shoot(browser, "problems")
    # The server is still up: the next page answers.
    browser.get(server.url + "/rate")
    assert browser.find_elements("id", "event")
    shoot(browser, "rate")


def multipart(files: dict[str, Path]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = b""
    for field, path in files.items():
        body += (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; '
                f'filename="{path.name}"\r\nContent-Type: application/octet-stream\r\n\r\n'
            ).encode()
            + path.read_bytes()
            + b"\r\n"
        )
    body += f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def post_and_read(server, files: dict[str, Path]) -> str:
    body, kind = multipart(files)
    request = urllib.request.Request(server.url + "/rate", data=body, method="POST")
    request.add_header("Content-Type", kind)
    with urllib.request.urlopen(request, timeout=60) as answer:  # follows the 303
        return answer.read().decode("utf-8")


def test_two_uploads_at_once_see_only_their_own_files(browser, server):
    """The TRF (10 players) and the games CSV with its list (a different field) rated at the
    same time: each result page names its own file and players, none of the other's."""
    pages: dict[str, str] = {}
    jobs = {
        "trf": {"event": SAMPLE / "event.trf"},
        "csv": {"event": SAMPLE / "games.csv", "players": SAMPLE / "players.csv"},
    }
    threads = [
        threading.Thread(target=lambda k=k, f=f: pages.__setitem__(k, post_and_read(server, f)))
        for k, f in jobs.items()
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert "<h1>Autumn Open 2026</h1>" in pages["trf"] and "<h1>games.csv</h1>" in pages["csv"]
    assert "players.csv" in pages["csv"] and "players.csv" not in pages["trf"]
    # Schmidt, Hanna is in the TRF only (unrated there, no rated game).
    assert "Schmidt, Hanna" in pages["trf"]


def test_history_pages(browser, server):
    browser.get(server.url + "/history")
    lists = text_of(browser, "main")
    assert "2026-12" in lists and "5100134" in lists
    shoot(browser, "history")
    browser.get(server.url + "/history/player?id=5100029")
    points = browser.find_elements("css selector", "svg.chart circle")
    assert len(points) == 2  # rated on the list given (2391) and the one published (2410)
    assert "2391" in text_of(browser, "svg.chart") and "2410" in text_of(browser, "svg.chart")
    shoot(browser, "history-player")


# Each chart label's size on screen: its CSS font size times the drawing's scale (viewBox to
# pixels), and its box, to find overlaps.
CHART_LABELS = """
const svg = document.querySelector('svg.chart');
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
return [...svg.querySelectorAll('text')].map(t => {
  const r = t.getBoundingClientRect();
  return [parseFloat(getComputedStyle(t).fontSize) * scale, r.left, r.right, r.top, r.bottom];
});
"""


def overlapping(boxes: list[list[float]]) -> list[tuple[int, int]]:
    return [
        (i, j)
        for i, a in enumerate(boxes)
        for j, b in enumerate(boxes)
        if i < j and a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]
    ]


def test_history_on_a_phone_k_change_chart_and_calculation(browser, server, history_db):
    """At 390 px: the chart's labels are legible (>= 11 px) and apart, the period's row shows
    the K that rated its games beside the next K, and its link opens the calculation, whose
    main columns stay on screen and whose K x (S - PD) column sums to the change."""
    from selenium.webdriver.common.by import By

    with (history_db.parent / "changes_2026-11.csv").open(encoding="utf-8") as fh:
        expected = {r["id"]: r for r in csv.DictReader(fh)}["5100029"]
    browser.set_window_size(390, 900)
    try:
        browser.get(server.url + "/history/player?id=5100029")
        wait_for_page(browser, "svg.chart text")
        labels = browser.execute_script(CHART_LABELS)
        assert labels and min(size for size, *_ in labels) >= 11, labels
        assert overlapping([box for _, *box in labels]) == []
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        shown = [th for th in browser.find_elements(By.CSS_SELECTOR, "#periods th")]
        shown = [th for th in shown if th.is_displayed()]  # the columns kept on a phone
        assert all(th.rect["x"] + th.rect["width"] <= 390 for th in shown), [
            (th.text, th.rect, browser.execute_script("return window.innerWidth")) for th in shown
        ]
        header = [th.text.replace("\n", " ") for th in shown]
        assert {"period", "games", "score", "change", "K", "next K"} <= set(header)
        row = browser.find_element(By.XPATH, "//table[@id='periods']//tr[td[1]/a]")
        tds = [td for td in row.find_elements(By.TAG_NAME, "td") if td.is_displayed()]
        cells = dict(zip(header, [td.text for td in tds], strict=True))
        assert (cells["K"], cells["next K"]) == (expected["k"], expected["next_k"])
        assert cells["change"] == f"{int(expected['change']):+d}"
        shoot(browser, "history-player")
        browser.set_window_size(390, 900)
        row.find_element(By.TAG_NAME, "a").click()
        wait_for_page(browser, "#calculation tbody tr")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        # opponent, rating and difference (as played: wide screens only, as on an event's
        # player page), counted, PD, score, S - PD, K x (S - PD)
        kept = browser.find_elements(By.XPATH, "//table[@id='calculation']/thead//th")[:8]
        assert [th.text.replace("\n", " ") for th in kept][-1] == "K x (S - PD)"
        assert all(th.rect["x"] + th.rect["width"] <= 390 for th in kept), [th.rect for th in kept]
        column = browser.find_elements(By.CSS_SELECTOR, "#calculation tbody tr td:nth-child(8)")
        total = sum(Decimal(td.text) for td in column)
        assert total == Decimal(expected["change_exact"]) and len(column) == int(expected["games"])
        shoot(browser, "history-calculation")
        browser.set_window_size(390, 900)
        browser.get(server.url + "/history/search")
        type_into(browser, "#q", "becker")
        browser.find_element(By.CSS_SELECTOR, "form[role=search] button").click()
        wait_for_page(browser, "#found a")
        assert "5100029" in text_of(browser, "#found")
        shoot(browser, "history-search")
    finally:
        browser.set_window_size(1280, 900)


def test_home_page(browser, server):
    browser.get(server.url + "/")
    assert "Rate an event" in text_of(browser, "main")
    shoot(browser, "home")


# For each select of the page, the options whose words do not fit the box (the box's inner width
# less its padding and the arrow's 20 px), measured in the box's own font.
CUT_OPTIONS = """
const canvas = document.createElement("canvas").getContext("2d");
const width = document.documentElement.clientWidth;
return [...document.querySelectorAll("select")].filter(s => s.getClientRects().length)
  .flatMap(s => {
    const css = getComputedStyle(s), r = s.getBoundingClientRect();
    if (r.left < 0 || r.right > width + 0.5) { return [`${s.name}: box ${r.left}..${r.right}`]; }
    canvas.font = css.font;
    const room = s.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 20;
    const needs = o => Math.round(canvas.measureText(o.text).width);
    return [...s.options].filter(o => canvas.measureText(o.text).width > room)
      .map(o => `${s.name}: "${o.text}" needs ${needs(o)} of ${Math.round(room)} px`);
  });
"""


def test_the_sequential_calculation_fits_a_phone(browser, server):
    """Games in order add the rating before each game: the key columns still fit 390 px."""
    browser.get(server.url + "/calc?r=1600&o=1800&s=1&o=1550&s=0.5&mode=sequential")
    wait_for_page(browser, "#change")
    assert "rating before" in text_of(browser, "#results thead")
    check_phone_layout(browser, "calculator")


def test_the_calculator_fields_fit_a_phone(browser, server):
    """At 390 px every select (the K factor, the mode) shows each of its choices whole."""
    browser.get(server.url + "/calc")
    at_width(browser, PHONE)
    try:
        assert browser.execute_script(CUT_OPTIONS) == []
    finally:
        browser.set_window_size(1280, 900)


@pytest.mark.parametrize("page", ["/calc", "/rate"])
def test_every_field_has_a_label(browser, server, page):
    browser.get(server.url + page)
    unlabeled = browser.execute_script(
        "return [...document.querySelectorAll('input, select')].filter(e => e.type !== 'hidden'"
        " && !(e.labels && e.labels.length)).map(e => e.name)"
    )
    assert unlabeled == []
