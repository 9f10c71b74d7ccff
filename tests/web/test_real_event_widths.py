"""A real event's pages at the widths people read them (issue 35, tried as a user on the real TRF
files of ../shared/trf): the standings' and the calculation's key columns on screen, a table that
scrolls saying so. The sample's short names fit everywhere; a real open's do not: 8-digit ids,
names such as ``Heymann-Lobzhanidze,Anna-Luise`` and ``Esterluss,Johannes`` (no space after the
comma, so no place to break the line)."""

from __future__ import annotations

import pytest

from tests.conftest import SHARED
from tests.web.test_browser import (
    KEY_COLUMNS,
    OFF_SCREEN,
    at_width,
    check_phone_layout,
    upload,
    wait_for_page,
)

LAPTOP = 1366


@pytest.fixture(scope="module")
def karl_mala_event(chromium, server) -> str:
    """The 2005 open uploaded once (by the run's browser, as the module's fixture it outlives);
    the address of its event page."""
    trf = SHARED / "trf" / "karl-mala-2005.trf"
    if not trf.is_file():
        pytest.skip("../shared/trf is not present")
    upload(chromium, server, trf)
    wait_for_page(chromium, "table.standings")
    return str(chromium.current_url)


def test_the_standings_of_a_real_open_fit_a_laptop(browser, karl_mala_event):
    # At 1366 px the 2005 open's standings ran 87 px past their box: "new rating", the number
    # the page is for, was cut at the right edge of a laptop's screen.
    browser.get(karl_mala_event)
    wait_for_page(browser, "table.standings")
    at_width(browser, LAPTOP)
    try:
        heads = browser.execute_script(
            "return [...document.querySelector('table.standings').tHead.rows[0].cells]"
            ".map(c => c.textContent.trim())"
        )
        assert browser.execute_script(OFF_SCREEN, "table.standings", heads) == []
    finally:
        browser.set_window_size(1280, 900)


def test_a_real_opens_pages_fit_a_phone(browser, karl_mala_event):
    # Names as a German TRF writes them ("Esterluss,Johannes") have no space to wrap at: the
    # opponent column kept its whole width and pushed K x (S - PD) past a phone's edge.
    browser.get(karl_mala_event)
    wait_for_page(browser, "table.standings")
    check_phone_layout(browser, "event")
    browser.get(karl_mala_event + "/player?id=14102340")  # Mikhaletz: 7 rated games
    wait_for_page(browser, "table.calc")
    assert KEY_COLUMNS["player"][0] == "table.calc"
    check_phone_layout(browser, "player")


# The smallest a chart's words may be drawn on screen, in CSS pixels.
SMALLEST_LABEL = 10
CHART_LABELS = """
return [...document.querySelectorAll(".chart svg")].map(svg => {
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const size = parseFloat(getComputedStyle(svg.querySelector("text")).fontSize);
  return Math.round(size * scale * 10) / 10;
});
"""


def test_report_html_charts_are_readable_on_a_phone(browser, tmp_path):
    # report.html's event chart is drawn 750 px wide with 12 px words; squeezed into a phone's
    # 370 px its ticks and axis names were 6 px high, too small to read.
    from pipeline.jobs.rate import RateOutputs, RateRequest, rate
    from pipeline.model import RateOptions
    from tests.conftest import SAMPLE

    out = tmp_path / "out"
    rate(
        RateRequest(
            inputs=(SAMPLE / "event.trf",),
            out_dir=out,
            options=RateOptions(),
            outputs=RateOutputs(xlsx=False, html=True),
        )
    )
    browser.get((out / "report.html").as_uri())
    wait_for_page(browser, ".chart svg")
    at_width(browser, 390)
    try:
        sizes = browser.execute_script(CHART_LABELS)
        assert sizes and min(sizes) >= SMALLEST_LABEL, sizes
    finally:
        browser.set_window_size(1280, 900)
