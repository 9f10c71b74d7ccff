"""The web's event and player pages say what report.xlsx and report.html say, tried as a user
(issue 35's check by hand, kept): the standings' every number a reader needs to redo a change
(the score of the rated games beside the points of all games), the event's own dates, no
arithmetic for a player the period does not rate, and the upload form true to what the server
does with the files."""

from __future__ import annotations

import re
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from openpyxl import load_workbook

from pipeline.jobs.rate import RateOutputs, RateRequest, rate
from pipeline.model import RateOptions
from tests.conftest import SAMPLE
from tests.web.test_pages import post_event


class Standings(HTMLParser):
    """The event page's standings table: its header and its rows' cell texts, by player id."""

    def __init__(self) -> None:
        super().__init__()
        self.head: list[str] = []
        self.rows: dict[str, list[str]] = {}
        self._in = False
        self._id: str | None = None
        self._row: list[str] | None = None
        self._cell: str | None = None

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        a = dict(attrs)
        if tag == "table" and "standings" in (a.get("class") or ""):
            self._in = True
        elif self._in and tag == "tr":
            self._row, self._id = [], a.get("data-id")
        elif self._in and tag in ("td", "th") and self._row is not None:
            self._cell = ""

    def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
        if tag == "table":
            self._in = False
        elif self._in and tag in ("td", "th") and self._cell is not None:
            self._row.append(" ".join(self._cell.split()))  # type: ignore[union-attr]
            self._cell = None
        elif self._in and tag == "tr" and self._row is not None:
            if self._id is None:
                self.head = self._row
            else:
                self.rows[self._id] = self._row
            self._row = None

    def handle_data(self, data):  # type: ignore[no-untyped-def]
        if self._cell is not None:
            self._cell += data


def _number(value: object) -> Decimal | None:
    if value is None or value == "":
        return None
    return Decimal(str(value).rstrip("*"))


@pytest.fixture(scope="module")
def uploaded(client):
    page = post_event(client, SAMPLE / "event.trf")
    assert page.status_code == 200, page.text
    token = re.search(r'href="/event/([^/"]+)/outputs.zip"', page.text).group(1)
    return token, page.text


@pytest.fixture(scope="module")
def workbook(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli")
    result = rate(
        RateRequest(
            inputs=(SAMPLE / "event.trf",),
            out_dir=out,
            options=RateOptions(),
            outputs=RateOutputs(xlsx=True, html=False),
        )
    )
    return result, load_workbook(out / "report.xlsx")


# The event page's column -> report.xlsx's Summary column, for every number both show.
SAME = {
    "rating": "rating",
    "K": "k",
    "points": "points",
    "rated games": "games",
    "score": "score",
    "expected": "expected",
    "performance": "performance",
    "change exact": "change_exact",
    "change": "change",
    "new rating": "new_rating",
}


def test_the_event_pages_standings_equal_report_xlsx_with_the_rated_score(uploaded, workbook):
    # A reader redoes a change from the standings: K x (score - expected). The score is of the
    # rated games only; with the points of all games beside the expected score and no score,
    # Berg (3 points, 2.5 of them rated) reads as 20 x (3.0 - 1.18) = 36.4, not his 26.4.
    token, page = uploaded
    _, book = workbook
    table = Standings()
    table.feed(page)
    col = {name: i for i, name in enumerate(table.head)}
    assert set(SAME) <= set(col), f"the event page lacks {set(SAME) - set(col)}"
    ws = book["Summary"]
    rows = list(ws.iter_rows(values_only=True))
    header = list(rows[0])
    for values in rows[1:]:
        sheet = dict(zip(header, values, strict=True))
        cells = table.rows[sheet["id"]]
        for shown, stored in SAME.items():
            text, value = cells[col[shown]], sheet[stored]
            if isinstance(value, str) and not re.fullmatch(r"-?\d+(\.\d+)?", value):
                assert text == value, (sheet["id"], shown)  # words: the same words
            elif shown == "rating" and value is None:
                assert text == "unrated"
            else:
                assert _number(text) == _number(value), (sheet["id"], shown, text, value)


def test_the_event_page_shows_the_events_own_dates(uploaded, workbook):
    result, _ = workbook
    first, last = result.report.dates
    assert first and last
    _, page = uploaded
    assert f"{first} to {last}" in page


def test_an_unrated_players_page_does_no_arithmetic_of_a_change(client, uploaded, workbook):
    # Schmidt is unrated: her results are kept for a first rating. Every face says so in those
    # words; the page must not go on to "change = K x sum(S - PD) = 0 x 0.00 = 0.00" and
    # "rounded once: 0", a change of zero no other face shows.
    result, _ = workbook
    s = result.report.standings
    unrated = s.loc[s["rating"].isna(), ["id", "unrated_words"]]
    assert len(unrated)
    token, _ = uploaded
    for player_id, words in unrated.itertuples(index=False):
        page = client.get(f"/event/{token}/player?id={player_id}").text
        assert words in page
        assert "change = K x" not in page
        assert "rounded once" not in page


def test_the_upload_form_says_the_files_stay_in_memory(client):
    # An upload is read into memory and rated from there (web.uploads): no folder is made.
    page = client.get("/rate").text
    assert "folder" not in page
    assert "memory" in page


def test_report_html_standings_fit_a_laptop_with_an_unrated_player(browser, tmp_path):
    # report.html's standings at 1366 px: an unrated player's change is words ("unrated:
    # results kept for a first rating"); kept on one line they widened the change column so far
    # that the names broke into three lines and the last column went past the table's edge.
    out = tmp_path / "out"
    rate(
        RateRequest(
            inputs=(SAMPLE / "event.trf",),
            out_dir=out,
            options=RateOptions(),
            outputs=RateOutputs(xlsx=False, html=True),
        )
    )
    browser.set_window_size(1366, 900)
    try:
        browser.get((out / "report.html").as_uri())
        fits = browser.execute_script(
            "var t = document.getElementById('standings'), box = t.parentElement;"
            "return box.scrollWidth <= box.clientWidth;"
        )
        assert fits
    finally:
        browser.set_window_size(1280, 900)
