"""What people read on the web pages is what report.html and the CSVs say (issue 35 item 5): the
same numbers under the same words, the event called by its own name, the problems in the words
of the page that shows them.

Starlette's TestClient in this process; report.html is read from the run's own zip, so the page
and the report compared come from one run.
"""

from __future__ import annotations

import html
import re
import zipfile
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path

import pytest

from pipeline.errors import in_face
from pipeline.lists.next_list import STATUS_POOL

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data"


def post(client, event: Path, players: Path | None = None, name: str | None = None):
    files = {"event": (name or event.name, event.read_bytes())}
    if players is not None:
        files["players"] = (players.name, players.read_bytes())
    return client.post("/rate", files=files, follow_redirects=True)


class Tables(HTMLParser):
    """Every table's header cells and body rows (cell texts), in page order."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[list[str], list[list[str]]]] = []
        self.cell: list[str] | None = None
        self.row: list[str] | None = None
        self.in_head = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append(([], []))
        elif tag == "thead":
            self.in_head = True
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            head, body = self.tables[-1]
            (head.extend if self.in_head else body.append)(self.row)
            self.row = None
        elif tag == "thead":
            self.in_head = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def standings(page: str, first_header: str) -> list[dict[str, str]]:
    """The rows of the page's first table whose first header is ``first_header``, by header."""
    parser = Tables()
    parser.feed(page)
    head, body = next(t for t in parser.tables if t[0] and t[0][0] == first_header)
    return [dict(zip(head, row, strict=True)) for row in body]


def player_id(cell: str) -> str:
    return cell.split()[-1]


def zipped(client, page: str, name: str) -> str:
    token = re.search(r'href="/event/([^/"]+)/outputs.zip"', page).group(1)
    archive = zipfile.ZipFile(BytesIO(client.get(f"/event/{token}/outputs.zip").content))
    return archive.read(name).decode("utf-8")


def test_the_event_is_called_by_its_trf_tournament_name_on_every_face(client):
    answer = post(client, SAMPLE / "event.trf")
    assert answer.status_code == 200, answer.text
    # sample_data/event.trf's 012 record: "Autumn Open 2026" (not the file name).
    name = next(
        line[4:].strip()
        for line in (SAMPLE / "event.trf").read_text(encoding="utf-8").splitlines()
        if line.startswith("012 ")
    )
    assert "<h1>" + html.escape(name) + "</h1>" in answer.text
    assert re.search(r"<title>[^<]*" + re.escape(html.escape(name)), answer.text)
    report = zipped(client, answer.text, "report.html")
    assert "<h1>" + html.escape(name) + "</h1>" in report
    assert re.search(r"<title>" + re.escape(html.escape(name)) + r"[^<]*</title>", report)
    assert "<h1>event.trf</h1>" not in answer.text + report


def test_a_games_file_is_called_by_its_file_name(client):
    answer = post(client, SAMPLE / "games.csv", SAMPLE / "players.csv")
    assert answer.status_code == 200, answer.text
    assert "<h1>games.csv</h1>" in answer.text
    assert "<h1>games.csv</h1>" in zipped(client, answer.text, "report.html")


@pytest.mark.parametrize("event", ["event.trf", "games.csv"])
def test_web_standings_show_k_and_expected_as_report_html_does(client, event):
    players = None if event.endswith(".trf") else SAMPLE / "players.csv"
    answer = post(client, SAMPLE / event, players)
    web = {player_id(r["player"]): r for r in standings(answer.text, "rank")}
    report_page = zipped(client, answer.text, "report.html")
    report = {player_id(r["player"]): r for r in standings(report_page, "#")}
    assert web.keys() == report.keys() and len(web) >= 10
    for pid, row in report.items():
        assert web[pid]["K"] == row["K"], pid
        assert web[pid]["expected"] == row["expected"], pid
    assert {r["K"].rstrip("*") for r in web.values()} >= {"10", "20", "40"}  # * = assumed


def test_an_unrated_players_change_is_said_in_the_changes_csv_words(client):
    # Schmidt, Hanna (4100093) is unrated in the TRF: no change of "0.00 / 0" anywhere.
    answer = post(client, SAMPLE / "event.trf")
    web = {player_id(r["player"]): r for r in standings(answer.text, "rank")}
    report_page = zipped(client, answer.text, "report.html")
    report = {player_id(r["player"]): r for r in standings(report_page, "#")}
    assert web["4100093"]["rating"] == "unrated"
    assert (web["4100093"]["change exact"], web["4100093"]["change"]) == ("", STATUS_POOL)
    assert (report["4100093"]["change (exact)"], report["4100093"]["change"]) == ("", STATUS_POOL)
    assert "0.00 exact, 0 rounded" not in report_page
    # words: neither "up" nor "down" (class words: they wrap in their cell)
    assert f'<td class="words">{STATUS_POOL}</td>' in report_page
    link = re.search(r'href="(/event/[^"]+/player\?id=4100093)"', answer.text).group(1)
    player_page = client.get(link).text
    headline = re.search(r'id="player-change">(.*?)</strong>', player_page).group(1)
    assert headline == STATUS_POOL
    # A rated player's change is still the number, signed alike on both faces.
    assert web["4100085"]["change"] == "+27" and report["4100085"]["change"] == "+27"


def problems_table(page: str) -> list[dict[str, str]]:
    return standings(page, "file")


def test_problems_speak_of_the_upload_form_not_of_cli_options(client):
    # A games file without ratings and no list: the CLI says "no --players file"; a browser
    # user has the form's "Rating list in force" field, and no option to type.
    answer = post(client, SAMPLE / "broken" / "games_unknown_player.csv")
    assert answer.status_code == 422
    rows = problems_table(answer.text)
    assert rows and all(r["code"] == "unknown-player" for r in rows)
    text = html.unescape(answer.text)
    assert "--players" not in text
    assert '(no "Rating list in force" file)' in rows[0]["problem"]


def test_a_problems_value_is_quoted_as_the_console_quotes_it(client, tmp_path):
    from tests.conftest import run_cli

    players = tmp_path / "players.csv"
    text = (SAMPLE / "players.csv").read_text(encoding="utf-8")
    players.write_text(text.replace('"Kowalski, Adam",2712', '"Kowalski, Adam",25OO'), "utf-8")
    answer = post(client, SAMPLE / "games.csv", players)
    assert answer.status_code == 422
    (row,) = problems_table(answer.text)
    assert (row["code"], row["column"], row["value"]) == ("bad-rating", "rating", "'25OO'")
    # The console quotes it alike: `fiderate rate` ("value '25OO'") and `fiderate validate`.
    rate = run_cli("rate", str(SAMPLE / "games.csv"), "--players", str(players), "--out",
                   str(tmp_path / "out"))  # fmt: skip
    assert rate.exit_code == 1 and f"value {row['value']}" in rate.stderr
    validate = run_cli("validate", str(SAMPLE / "games.csv"), "--players", str(players))
    assert validate.exit_code == 1 and f"  {row['value']}  " in validate.stdout


def calc_tables(client, query: str) -> tuple[list[dict[str, str]], list[dict[str, str]], str]:
    """(the every-result table, the expectancy table, the expectancy table's note)."""
    fragment = client.get("/api/calc?" + query).json()["html"]
    note = re.search(r'<p class="small" id="table-rule">(.*?)</p>', fragment, re.S)
    return standings(fragment, "result"), standings(fragment, "gap"), html.unescape(note.group(1))


@pytest.mark.parametrize("rules", ["standard-2025", "standard-2009", "standard-2008"])
@pytest.mark.parametrize("gap", [300, 400, 450, 600, 800])
def test_the_expectancy_table_is_worth_what_the_calculator_gives(client, rules, gap):
    """A game at a gap is worth in the table what the calculator gives for that very game: the
    era's cap counts above it (400 or 350 points), as in the rating (issue 35 item 5)."""
    every, table, note = calc_tables(client, f"r={1000 + gap}&o=1000&s=?&rules={rules}")
    mine = {r["result"]: r["your change"] for r in every}
    (row,) = [r for r in table if r["gap"] == str(gap)]
    assert row["favourite W / D / L"] == " / ".join(mine[x] for x in ("win", "draw", "loss"))
    theirs = {r["result"]: r["opponent's change"] for r in every}
    assert row["underdog W / D / L"] == " / ".join(theirs[x] for x in ("loss", "draw", "win"))
    # The note names the era's rule in the words the rest of the site uses.
    from pipeline.rules.counted_words import cap_rule_name
    from pipeline.rules.sets import get_rules

    assert cap_rule_name(get_rules(rules)) in note and "no 400-point rule" not in note


@pytest.mark.parametrize(
    "query, words",
    [
        ("kp=custom&k=30", "K 30: custom K, used as given"),
        ("kp=us32", "K 32: US Chess 32 (below 2100), used as given"),
        ("kp=us16", "K 16: US Chess 16 (2400 and above), used as given"),
    ],
)
def test_a_k_the_user_chose_is_not_called_published(client, query, words):
    fragment = client.get(f"/api/calc?r=1650&{query}&o=1800&s=1").json()["html"]
    line = re.search(r'<p class="k">(.*?)</p>', fragment).group(1)
    assert html.unescape(line) == words and "published" not in line


def test_the_cli_k_is_the_one_on_the_card(tmp_path):
    # `fiderate calc --k` is "K on the player's card": FIDE's published K, said so.
    from tests.conftest import run_cli

    done = run_cli("calc", "1650", "--k", "30", "--vs", "1800:1")
    assert done.exit_code == 0, done.stderr
    assert "K 30: published K (used as given)" in done.stdout


def test_a_period_given_on_the_form_is_said_so(client):
    # The CLI says "given with --period"; the page says the form's field, from the same words.
    files = {"event": ("event.trf", (SAMPLE / "event.trf").read_bytes())}
    answer = client.post("/rate", files=files, data={"period": "2026-11"}, follow_redirects=True)
    assert answer.status_code == 200, answer.text
    text = html.unescape(answer.text)
    assert 'given with the "Rating period" field' in text and "--period" not in text


def test_the_event_pages_facts_are_rate_jsons_summary(client, tmp_path):
    # One run summary (writers.summary.summary_data) for `rate --json` and the web event page:
    # the period, the rule set and its reason, the counts, the warnings, in the same words.
    import json

    from tests.conftest import run_cli

    done = run_cli("rate", str(SAMPLE / "event.trf"), "--out", str(tmp_path / "o"), "--json")
    assert done.exit_code == 0, done.stderr
    cli = json.loads(done.stdout)
    page = html.unescape(post(client, SAMPLE / "event.trf").text)
    assert f"<dd>{cli['period']}: {cli['period_reason']}</dd>" in page
    assert f"<dd>{cli['rules']}: {cli['rules_reason']} (method {cli['method']})</dd>" in page
    total = cli["rated_game_sides"] + cli["unrated_game_sides"]
    assert (
        f"<dd>{cli['players']}; rated game sides {cli['rated_game_sides']} of {total}</dd>" in page
    )
    # The web says each warning in the form's words (errors.in_face), nothing else changed.
    assert cli["warnings"]
    assert all(f"warning: {in_face(w, 'web')}" in page for w in cli["warnings"])
