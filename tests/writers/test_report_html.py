"""report.html: parsed with html.parser and checked against rating_list.csv and games.csv; the page
must need no network. Also opened in a real headless browser when one is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from pipeline.lists.next_list import STATUS_POOL
from pipeline.rules.signs import signed
from pipeline.writers.text.norms_text import norms_text
from tests.conftest import SAMPLE
from tests.reportfixtures import rate_into, read_csv


class Page(HTMLParser):
    """Collects table rows (by table id / section id), svgs per section and every URL attribute."""

    def __init__(self) -> None:
        super().__init__()
        self.section: str | None = None
        self.table: str | None = None
        self.in_body = False
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.rows: dict[str, list[list[str]]] = {}
        self.svgs: dict[str, int] = {}
        self.urls: list[str] = []
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        for key in ("src", "href", "action", "data", "poster"):
            if key in a:
                self.urls.append(a[key])
        if tag == "section":
            self.section = a.get("id")
        if tag == "table":
            self.table = a.get("id") or self.section or "?"
        if tag == "tbody":
            self.in_body = True
        if tag == "tr" and self.in_body:
            self.row = []
        if tag in ("td", "th") and self.row is not None:
            self.cell = []
        if tag == "svg":
            key = self.section or "event"
            self.svgs[key] = self.svgs.get(key, 0) + 1

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append("".join(self.cell).strip())
            self.cell = None
        if tag == "tr" and self.row is not None:
            self.rows.setdefault(self.table or "?", []).append(self.row)
            self.row = None
        if tag == "tbody":
            self.in_body = False
        if tag == "section":
            self.section = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)
        self.text.append(data)


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    folder = tmp_path_factory.mktemp("html")
    rate_into(
        folder, SAMPLE / "games.csv", players=SAMPLE / "players.csv", extra=("--player", "4100042")
    )
    return folder


@pytest.fixture(scope="module")
def page(out):
    parser = Page()
    parser.feed((out / "report.html").read_text(encoding="utf-8"))
    return parser


def test_standings_match_rating_list(out, page):
    rating_list = {r["id"]: r for r in read_csv(out / "rating_list.csv")}
    rows = page.rows["standings"]
    assert len(rows) == len(rating_list)
    seen = set()
    for row in rows:
        rank, name, rating, k, games, points, score, expected, perf, exact, change, new = row
        player_id = name.split()[-1]
        want = rating_list[player_id]
        seen.add(player_id)
        assert (rating, k, games, score, expected) == (
            want["rating"],
            want["k"],
            want["games"],
            want["score"],
            want["expected"],
        )
        if want["rating"]:
            # Signed, as the web and every other face show a change (+27.40, +27).
            assert (exact, change) == (signed(want["change_exact"]), signed(want["change"]))
        else:  # no change for an unrated player: the changes CSV's words (issue 35 item 5)
            assert (exact, change) == ("", STATUS_POOL)
        assert new == want["new_rating"]
    assert seen == set(rating_list)
    assert [r[0] for r in rows] == [str(i) for i in range(1, len(rows) + 1)]


def test_player_sections_hold_their_games(out, page):
    games = read_csv(out / "games.csv")
    by_player: dict[str, list[dict[str, str]]] = {}
    for g in games:
        by_player.setdefault(g["player"], []).append(g)
    names = {r["id"]: r["name"] for r in read_csv(out / "rating_list.csv")}
    for player, mine in by_player.items():
        rows = page.rows[f"p-{player}"]
        assert len(rows) == len(mine)
        for row, g in zip(rows, mine, strict=True):
            assert row[0] == g["round"]
            assert row[1] == (names.get(g["opponent"]) or g["opponent"] or "-")
            assert row[2] == g["opponent_rating"]
            assert row[3] == g["result"]
            # Differences signed as on every face (+0.18), the PD as written.
            assert row[5] == signed(g["diff"]) and row[6] == g["pd"] and row[7] == signed(g["dev"])


def test_charts_exist(out, page):
    played = {r["id"] for r in read_csv(out / "rating_list.csv") if r["games"] != "0"}
    for player in played:
        assert page.svgs.get(f"p-{player}") == 1, player
    assert page.svgs.get("event") == 1  # rating changes against starting rating
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Rating changes against starting rating" in html
    assert html.count("actual score") >= len(played) and "expected score (sum of PD)" in html


def test_self_contained_no_external_urls(out, page):
    html = (out / "report.html").read_text(encoding="utf-8")
    assert all(u.startswith("#") for u in page.urls), [
        u for u in page.urls if not u.startswith("#")
    ]
    assert "@import" not in html
    assert not re.search(r"url\(\s*['\"]?(https?:)?//", html)
    assert "<link" not in html and "<img" not in html.replace("<image", "")
    assert "<style>" in html and "<script>" in html
    assert 'name="viewport"' in html
    assert "@media print" in html and "@media (max-width" in html


def test_player_page_on_its_own(out):
    parser = Page()
    parser.feed((out / "player-4100042.html").read_text(encoding="utf-8"))
    assert [r[1].split()[-1] for r in parser.rows["standings"]] == ["4100042"]
    sections = [k for k in parser.rows if k.startswith("p-")]
    assert sections == ["p-4100042"]
    # The header counts that player's rated sides (games.csv's), not the event's.
    games = read_csv(out / "games.csv")
    mine = sum(g["player"] == "4100042" and g["rated"] == "true" for g in games)
    assert 0 < mine < sum(g["rated"] == "true" for g in games)
    page = (out / "player-4100042.html").read_text(encoding="utf-8")
    assert f"1 players &middot; {mine} rated game sides" in page


def test_sequential_mode_is_labelled(tmp_path, monkeypatch):
    import pipeline.writers.html.report_page as page_module

    monkeypatch.setattr(page_module, "CHARTS_MAX_PLAYERS", 0)  # charts are tested above; speed
    rate_into(
        tmp_path,
        SAMPLE / "games.csv",
        players=SAMPLE / "players.csv",
        extra=("--mode", "sequential"),
    )
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "NOT the FIDE method" in html
    assert "mode sequential" in html
    assert "expected-vs-actual charts are drawn for the first 0 players" in html
    assert '<th class="">rating before</th>' in html  # the running rating each game used


def test_large_event_caps_sections_and_charts(monkeypatch):
    from helpers import report_tables

    import pipeline.writers.html.report_page as page_module
    from pipeline.jobs.rate.stages import rate_files
    from pipeline.model import RateOptions

    monkeypatch.setattr(page_module, "SECTIONS_MAX_PLAYERS", 3)
    monkeypatch.setattr(page_module, "CHARTS_MAX_PLAYERS", 1)
    result = rate_files(
        [SAMPLE / "games.csv"], SAMPLE / "players.csv", RateOptions(period="2026-11")
    )
    result, table, detail = report_tables(result)
    parser = Page()
    norms = norms_text(result.norms)
    parser.feed(page_module.render_report(result, table, detail, norms=norms))
    assert len(parser.rows["standings"]) == 10  # every player in the standings
    sections = [k for k in parser.rows if k.startswith("p-")]
    assert sections == [f"p-{i}" for i in table["id"].head(3)]
    assert sum(v for k, v in parser.svgs.items() if k.startswith("p-")) == 1
    text = "".join(parser.text)
    assert "player sections are shown for the first 3 players of 10" in text
    assert "charts are drawn for the first 1 players" in text


def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def test_renders_in_headless_browser(out, tmp_path):
    browser = _browser()
    if browser is None:
        pytest.skip("no headless browser (chromium) installed")
    shot = tmp_path / "shot.png"
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    url = (out / "report.html").resolve().as_uri()
    subprocess.run(
        [browser, *flags, "--window-size=1000,1400", f"--screenshot={shot}", url],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert shot.stat().st_size > 10_000
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    dom = subprocess.run(
        [browser, *flags, "--dump-dom", url],
        check=True,
        capture_output=True,
        timeout=120,
        text=True,
    ).stdout
    assert 'id="standings"' in dom and "Kowalski, Adam" in dom


def test_names_are_escaped(tmp_path, monkeypatch):
    from helpers import report_tables

    import pipeline.writers.html.report_page as page_module
    from pipeline.jobs.rate.stages import rate_files
    from pipeline.model import RateOptions

    monkeypatch.setattr(page_module, "CHARTS_MAX_PLAYERS", 0)
    (tmp_path / "p.csv").write_text(
        'id,name,rating\n1,"<script>alert(1)</script>",1800\n2,"O\'Neil & Sons ""X""",1700\n',
        encoding="utf-8",
    )
    (tmp_path / "g.csv").write_text(
        "event,round,white,black,result\nE,1,1,2,1-0\n", encoding="utf-8"
    )
    result = rate_files([tmp_path / "g.csv"], tmp_path / "p.csv", RateOptions(period="2026-11"))
    model, table, detail = report_tables(result)
    text = page_module.render_report(model, table, detail, norms=norms_text(model.norms))
    assert "<script>alert" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    parser = Page()
    parser.feed(text)
    names = [r[1] for r in parser.rows["standings"]]
    assert names == ["<script>alert(1)</script> 1", 'O\'Neil & Sons "X" 2']
    assert parser.rows["p-2"][0][1] == "<script>alert(1)</script>"  # the opponent column
    assert [t for t in parser.tags if t == "script"] == ["script"]  # only the sorting script


# Appended to a copy of the page: click the "rating" header of the standings twice (the page's own
# click handler sorts), and write the order seen after each click where --dump-dom shows it.
_CLICK_PROBE = """
<script>
(function () {
  var table = document.getElementById("standings");
  var th = Array.prototype.find.call(table.tHead.rows[0].cells, function (c) {
    return c.textContent.trim() === "rating"; });
  var col = Array.prototype.indexOf.call(th.parentNode.cells, th);
  var order = function () { return Array.prototype.map.call(table.tBodies[0].rows,
    function (r) { return r.cells[col].textContent.trim(); }).join("|"); };
  th.click(); var up = order() + "#" + th.getAttribute("aria-sort");
  th.click(); var down = order() + "#" + th.getAttribute("aria-sort");
  var out = document.createElement("pre"); out.id = "probe";
  out.textContent = "UP=" + up + "\\nDOWN=" + down; document.body.appendChild(out);
})();
</script>
"""


def test_real_event_sorts_by_clicking_a_header_in_a_browser(shared_trf, tmp_path):
    # CI installs Chromium (.ci/run); locally the test skips without a browser.
    browser = _browser()
    if browser is None:
        pytest.skip("no headless browser (chromium) installed")
    out = tmp_path / "out"
    rate_into(out, shared_trf / "open-gros-2010-r4.trf", extra=("--no-xlsx", "--html"))
    page = (out / "report.html").read_text(encoding="utf-8")
    probe = tmp_path / "probe.html"
    probe.write_text(page.replace("</body>", _CLICK_PROBE + "</body>"), encoding="utf-8")
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run(
        [browser, *flags, "--dump-dom", probe.resolve().as_uri()],
        check=True,
        capture_output=True,
        timeout=120,
        text=True,
    ).stdout
    found = re.search(r"UP=(.*)#(\w+)\s+DOWN=(.*)#(\w+)", dom)
    assert found, dom[-2000:]
    up, up_state, down, down_state = found.groups()
    assert (up_state, down_state) == ("ascending", "descending")
    ratings = [r for r in read_csv(out / "rating_list.csv")]
    numbers = sorted(int(r["rating"]) for r in ratings if r["rating"])
    blanks = sum(1 for r in ratings if not r["rating"])
    assert numbers and blanks  # the event has rated and unrated players
    # Numbers sort as numbers (not as text), blanks last in both directions.
    assert up.split("|") == [str(n) for n in numbers] + [""] * blanks
    assert down.split("|") == [str(n) for n in reversed(numbers)] + [""] * blanks
    shot = tmp_path / "shot.png"
    subprocess.run(
        [browser, *flags, "--window-size=1200,1600", f"--screenshot={shot}", probe.as_uri()],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def test_unrated_players_who_played_are_left_off_the_event_chart(tmp_path):
    # A players file where some who played have no rating (the synthetic federation has them):
    # report.html's chart of change against starting rating used to end in an internal error
    # (a blank rating read as NaN). Rated players who played are its points, nobody else.
    from benchmarks.synthetic import write_period

    games, players = write_period(tmp_path / "in", 2000, 100)
    out = tmp_path / "out"
    rate_into(out, *games, players=players)
    listed = read_csv(out / "rating_list.csv")
    unrated_played = [r for r in listed if r["rating"] == "" and r["games"] != "0"]
    assert unrated_played, "the input must hold an unrated player who played"
    rated_played = [r for r in listed if r["rating"] != "" and r["games"] != "0"]
    page = (out / "report.html").read_text(encoding="utf-8")
    chart = page.split("<h2>Rating changes against starting rating</h2>", 1)[1].split("</svg>")[0]
    assert chart.count("<circle") == len(rated_played)
