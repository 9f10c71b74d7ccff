"""One model, the same numbers in every face (issue 35): the web's player page and report.xlsx
(read back with openpyxl) show one player's calculation game by game, K, the exact and the
rounded change and the new rating alike, in the FIDE mode (a real upload) and in sequential mode
(which a web upload cannot choose: its run is put in the server's store from the job's own
result, as an upload's is, and the page is asked for by its route)."""

from __future__ import annotations

import re
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from openpyxl import load_workbook

from pipeline.jobs.rate import RateOutputs, RateRequest, rate
from pipeline.model import RateOptions
from pipeline.web.uploads import FinishedRun
from tests.conftest import SAMPLE
from tests.web.conftest import local_client
from tests.web.test_pages import post_event


class CalcTable(HTMLParser):
    """The cells of the player page's calculation table, row by row (body, then footer)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.head: list[str] = []
        self._in, self._cell, self._row = False, None, None  # type: ignore[var-annotated]
        self.headline = ""

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        if tag == "table" and "calc" in (dict(attrs).get("class") or ""):
            self._in = True
        elif self._in and tag == "tr":
            self._row = []
        elif self._in and tag in ("td", "th") and self._row is not None:
            self._cell = ""

    def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
        if tag == "table":
            self._in = False
        elif self._in and tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell.strip())  # type: ignore[union-attr]
            self._cell = None
        elif self._in and tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):  # type: ignore[no-untyped-def]
        if self._cell is not None:
            self._cell += data


def number(text: object) -> Decimal | None:
    """A cell's number: the page's text ("+1.00", "-400 (why)") or the sheet's value; None for
    a blank."""
    if text is None or text == "":
        return None
    if isinstance(text, str):
        return Decimal(text.split()[0])
    return Decimal(str(text))


def sheet_of(book, player_id: str):  # type: ignore[no-untyped-def]
    return next(ws for ws in book.worksheets if ws.title.split()[0] == player_id)


def compare(page_html: str, book, player_id: str, sequential: bool) -> int:  # type: ignore[no-untyped-def]
    """Assert the page's numbers equal the player's sheet's; the rated games compared."""
    table = CalcTable()
    table.feed(page_html)
    head, *body = table.rows
    games, foot = body[:-1], body[-1]
    ws = sheet_of(book, player_id)
    rows = list(ws.iter_rows(values_only=True))
    header = list(rows[0])
    sheet_games = [dict(zip(header, r, strict=False)) for r in rows[1 : 1 + len(games)]]
    totals = {r[0]: r[1] for r in rows[2 + len(games) :] if r and r[0]}
    col = {name: i for i, name in enumerate(head)}
    before = 1 if sequential else 0
    compared = 0
    for cells, g in zip(games, sheet_games, strict=True):
        assert cells[col["round"]] == str(g["round"])
        assert number(cells[col["rating"]]) == number(g["opponent_rating"])
        if sequential:
            assert number(cells[col["rating before"]]) == number(g["rating_used"])
        if g["rated"] != "yes":
            continue
        assert number(cells[col["difference"]]) == number(g["gap"])
        counted = cells[4 + before + 1]
        assert number(counted) == number(g["gap_used"])
        if g["counted"]:  # the reason, in the same words
            assert f"({g['counted']})" in counted
        assert number(cells[col["expected (PD)"]]) == number(g["pd"])
        assert number(cells[col["S - PD"]]) == number(g["dev"])
        assert number(cells[col["K x (S - PD)"]]) == number(g["k_dev"])
        compared += 1
    assert number(foot[-1]) == number(totals["change exact (K x sum(S - PD))"])
    headline = re.search(r'<p class="headline">(.*?)</p>', page_html, re.S).group(1)
    k = re.search(r"K (\d+|-)", headline).group(1)
    assert (None if k == "-" else int(k)) == totals.get("K used")
    change = re.search(r'id="player-change">([^<]+)<', headline).group(1)
    rounded = totals["change (rounded once, .5 away from zero)"]
    if isinstance(rounded, str):  # an unrated player: the same words, no number
        assert change == rounded and totals.get("new rating") is None
        return compared
    assert number(change) == number(rounded)
    new = re.search(r"new rating <strong>(\d+)</strong>", headline).group(1)
    assert int(new) == totals["new rating"]
    return compared


def _cli_workbook(tmp_path, mode: str):  # type: ignore[no-untyped-def]
    result = rate(
        RateRequest(
            inputs=(SAMPLE / "event.trf",),
            out_dir=tmp_path / mode,
            options=RateOptions(mode=mode),
            outputs=RateOutputs(xlsx=True, html=False),
        )
    )
    return result, load_workbook(tmp_path / mode / "report.xlsx")


PLAYERS = ["4100050", "4100018", "4100085"]  # cut by the cap, exempt, an assumed K


def test_the_uploaded_events_player_pages_equal_report_xlsx(client, tmp_path):
    result, book = _cli_workbook(tmp_path, "fide")
    event_page = post_event(client, SAMPLE / "event.trf")
    assert event_page.status_code == 200
    token = re.search(r'href="/event/([^/"]+)/outputs.zip"', event_page.text).group(1)
    compared = 0
    for player_id in result.report.standings["id"]:
        page = client.get(f"/event/{token}/player?id={player_id}")
        assert page.status_code == 200
        compared += compare(page.text, book, player_id, sequential=False)
    assert compared == result.report.rated_sides


@pytest.mark.parametrize("player_id", PLAYERS)
def test_sequential_player_pages_equal_report_xlsx(tmp_path, player_id):
    from pipeline.web.app import create_app

    result, book = _cli_workbook(tmp_path, "sequential")
    shown = rate(
        RateRequest(
            inputs=(SAMPLE / "event.trf",),
            out_dir=tmp_path / "web",
            options=RateOptions(mode="sequential"),
            outputs=RateOutputs(xlsx=False, html=False, report=True),
        )
    )
    app = create_app()
    summary = {"period": shown.rated.period}
    run = FinishedRun("event.trf", summary, shown.report, {"rows": []}, b"", ())
    token = app.state.pages.runs.add(run)
    with local_client(app) as c:
        page = c.get(f"/event/{token}/player?id={player_id}")
    assert page.status_code == 200, page.text
    assert "rating before" in page.text and "NOT the FIDE method" in page.text
    assert compare(page.text, book, player_id, sequential=True) > 0
