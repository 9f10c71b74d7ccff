"""report.html's title norms in a real browser (headless Chromium through Selenium, as the web
tests drive it; skipped without it): two events, each checked for norms, at a laptop's width
(1366 px) and a phone's (390 px).

What is expected comes from the same run's report.xlsx (its Norms sheet: one row per check, with
the event), not from the page.
"""

from __future__ import annotations

from collections import Counter
from contextlib import closing
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.norms.test_norms import norm_trf

FIRST = "Norm Test Open"
SECOND = "Second Norm Test Open Festival"

# The norms tables: per table, the event heading above it, its rows, whether it or the page
# is wider than its box, and whether a box that scrolls shows a cue (a shadow at its edge).
NORMS_LAYOUT = """
const page = document.documentElement;
const section = [];  // what follows the "Title norms" heading, up to the next h2
for (let e = document.getElementById("norms").nextElementSibling; e && e.tagName !== "H2";
     e = e.nextElementSibling) { section.push(e); }
return {
  pageOverflow: page.scrollWidth - page.clientWidth,
  tables: section.flatMap(e => [...e.querySelectorAll("table")]).map(t => {
    const box = t.parentElement;
    let heading = box.previousElementSibling;
    return {
      event: heading && heading.tagName === "H3" ? heading.textContent : null,
      rows: t.tBodies[0].rows.length,
      cells: [...t.tBodies[0].querySelectorAll("td")].map(td => td.textContent),
      overflow: box.scrollWidth - box.clientWidth,
      scrolls: getComputedStyle(box).overflowX,
      cue: getComputedStyle(box).backgroundImage.includes("gradient"),
    };
  }),
};
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path, Counter[str]]:
    """report.html of two events with norm candidates, and the checks per event of report.xlsx."""
    from openpyxl import load_workbook

    work = tmp_path_factory.mktemp("norms-report")
    first = norm_trf(work / "first.trf")
    # The second event: another name and other players (every FIDE id + 1000, columns 58-68),
    # so it is not the first one given twice.
    lines = first.read_text(encoding="utf-8").replace(FIRST, SECOND).splitlines()
    lines = [
        f"{line[:57]}{int(line[57:68]) + 1000:>11}{line[68:]}" if line.startswith("001") else line
        for line in lines
    ]
    second = work / "second.trf"
    second.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("rate", first, second, "--out", work / "out", "-q")
    assert result.exit_code == 0, result.output
    with closing(load_workbook(work / "out" / "report.xlsx", read_only=True)) as book:
        rows = list(book["Norms"].iter_rows(values_only=True))
    event = rows[0].index("event")
    checks = rows[1 : next(i for i, r in enumerate(rows) if not any(r))]  # notes follow a blank row
    return work / "out" / "report.html", Counter(r[event] for r in checks)


def layout(driver, page: Path, width: int) -> dict:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.set_window_size(width, 900)
    driver.get(page.as_uri())
    WebDriverWait(driver, 30).until(
        lambda d: (
            d.execute_script("return document.readyState") == "complete"
            and d.execute_script("return window.innerWidth") == width
        )
    )
    return driver.execute_script(NORMS_LAYOUT)


def test_norms_one_table_per_event_that_fits_a_laptop(browser, report):
    page, checks = report
    assert set(checks) == {FIRST, SECOND}
    try:
        shown = layout(browser, page, 1366)
    finally:
        browser.set_window_size(1280, 900)
    # Each event's checks under its name, once, in the events' order; no row repeats the name.
    assert [(t["event"], t["rows"]) for t in shown["tables"]] == list(checks.items())
    for table in shown["tables"]:
        assert not [c for c in table["cells"] if FIRST in c or SECOND in c]
    # Every column on screen at 1366 px: neither a table nor the page scrolls sideways.
    assert shown["pageOverflow"] <= 0
    assert [t["overflow"] for t in shown["tables"]] == [0] * len(checks)


def test_norms_on_a_phone_scroll_and_say_so(browser, report):
    page, _ = report
    try:
        shown = layout(browser, page, 390)
    finally:
        browser.set_window_size(1280, 900)
    assert shown["pageOverflow"] <= 0
    for table in shown["tables"]:
        if table["overflow"] > 0:
            assert table["scrolls"] == "auto" and table["cue"], table["event"]
