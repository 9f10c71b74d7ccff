"""``fiderate serve``'s pages without a browser (Starlette's TestClient, in this process): the
calculator's numbers (../shared/fide/EXAMPLES.md's worked cases), escaping, the upload limits,
bad uploads, concurrent uploads, the private folders, the history pages read-only.
"""

from __future__ import annotations

import re
import tempfile
import threading
import zipfile
from io import BytesIO
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.web.app import create_app
from pipeline.web.uploads import RunStore, safe_name
from tests.web.conftest import local_client

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data"


def change(client, query: str) -> int | None:
    return client.get("/api/calc?" + query).json()["change"]


@pytest.mark.parametrize(
    "query, expected",
    [
        # EXAMPLES.md, single games (FIDE): 1650 vs 1800 at K 20: +14 / +4 / -6.
        ("r=1650&o=1800&s=1", 14),
        ("r=1650&o=1800&s=0.5", 4),
        ("r=1650&o=1800&s=0", -6),
        # 1500 vs 1700, K 20: +15 / +5 / -5; 1800 vs 1500 draw: -7.
        ("r=1500&o=1700&s=1", 15),
        ("r=1800&o=1500&s=0.5", -7),
        # 2700 beats 2200 (standard from 2025-10-01): no cap at 2650+, K 10: +0.4 -> 0.
        ("r=2700&o=2200&s=1&rules=standard-2025", 0),
        # ... and under the 2024-03 rules, capped: 0.92, +0.8 -> +1.
        ("r=2700&o=2200&s=1&rules=standard-2024", 1),
        # Whole event 1: a junior (K 40) at 1500: +53.
        ("r=1500&jr=1&o=1620&s=1&o=1480&s=0.5&o=1710&s=0&o=1555&s=1&o=1390&s=1", 53),
        # Whole event 2: 1600 beats 1800 and draws 1550: +13.8 -> +14.
        ("r=1600&o=1800&s=1&o=1550&s=0.5", 14),
        # US Chess presets and a custom K: 1650 beats 1800 (PD 0.30): 32 x 0.70 = 22.4 -> +22,
        # 24 x 0.70 = 16.8 -> +17, 16 x 0.70 = 11.2 -> +11; K 30: 21.
        ("r=1650&kp=us32&o=1800&s=1", 22),
        ("r=1650&kp=us24&o=1800&s=1", 17),
        ("r=1650&kp=us16&o=1800&s=1", 11),
        ("r=1650&kp=custom&k=30&o=1800&s=1", 21),
        # K 20 with 39 games: the 700 rule gives K 17 (EXAMPLES.md); 39 draws at an even gap
        # are worth 0, so one win more: 17 x 0.5 = 8.5 -> +9 (.5 away from zero).
        ("r=1650" + "&o=1650&s=0.5" * 38 + "&o=1650&s=1", 9),
    ],
)
def test_calculator_numbers(client, query, expected):
    assert change(client, query) == expected


def test_the_page_computes_from_the_url_alone(client):
    page = client.get("/calc?r=1650&o=1800&s=1").text
    assert re.search(r'id="change">\+14<', page)
    assert 'value="1650"' in page  # the field shows the shared input


def test_every_possible_result_shows_the_opponents_change(client):
    """EXAMPLES.md: 1650 vs 1800, K 20: win +14 (opponent -14 -> 1786), draw +4, loss -6."""
    html = client.get("/api/calc?r=1650&o=1800&s=?").json()["html"]
    assert re.search(r"<th>win</th><td>\+14.00</td><td>\+14</td><td>1664</td><td>-14.00</td>"
                     r"<td>-14</td><td>1786</td>", html)  # fmt: skip
    assert "<th>loss</th><td>-6.00</td>" in html


def test_bad_calculator_inputs_are_listed_not_raised(client):
    answer = client.get("/api/calc?r=abc&o=99999&s=2&kp=custom")
    assert answer.status_code == 200
    problems = answer.json()["problems"]
    assert any("your rating" in p for p in problems)
    assert any("opponent 1" in p for p in problems)
    assert any("K" in p for p in problems)


def test_input_is_escaped_on_the_calculator_page(client):
    page = client.get('/calc?r=<script>alert(1)</script>&period="><b>x').text
    assert "<script>alert(1)" not in page and "&lt;script&gt;" in page
    assert '"><b>x' not in page


def post_event(client, path: Path, name: str | None = None, **extra) -> object:
    files = {"event": (name or path.name, path.read_bytes())}
    if "players" in extra:
        players = extra.pop("players")
        files["players"] = (players.name, players.read_bytes())
    return client.post("/rate", files=files, data=extra, follow_redirects=True)


def test_names_from_the_files_are_escaped(client, tmp_path):
    hostile = tmp_path / "players.csv"
    text = (SAMPLE / "players.csv").read_text(encoding="utf-8")
    hostile.write_text(
        text.replace('"Kowalski, Adam"', '"<script>alert(1)</script>"'), encoding="utf-8"
    )
    answer = post_event(client, SAMPLE / "games.csv", "<img src=x>.csv", players=hostile)
    assert answer.status_code == 200, answer.text
    page = answer.text
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img" not in page


def test_a_player_id_with_a_slash_has_its_own_page(client, tmp_path):
    # Ids are the organiser's: a club's games file may say "club/12". Its link must still lead
    # to its calculation page.
    games, players = tmp_path / "games.csv", tmp_path / "players.csv"
    for source, target in ((SAMPLE / "games.csv", games), (SAMPLE / "players.csv", players)):
        target.write_text(
            source.read_text(encoding="utf-8").replace("4100018", "club/18"), encoding="utf-8"
        )
    answer = post_event(client, games, players=players)
    assert answer.status_code == 200, answer.text
    link = re.search(r'href="(/event/[^"]+/player\?id=club[^"]*)"', answer.text)
    assert link is not None, answer.text
    page = client.get(link.group(1))
    assert page.status_code == 200 and "club/18" in page.text


def test_norms_made_come_first_and_the_rest_fold_away(client, tmp_path):
    from tests.norms.test_norms import norm_trf

    page = post_event(client, norm_trf(tmp_path / "norm.trf")).text
    made = page.index("norm made.")
    folded = re.search(r"<summary>(\d+) checks? without a norm</summary>", page)
    assert folded is not None and made < folded.start()
    shown = page[made : folded.start()]
    assert ">GM<" in shown and ">norm<" in shown and "no norm" not in shown
    assert int(folded.group(1)) == page[folded.end() :].count("<td>no norm</td>") > 0
    plain = post_event(client, SAMPLE / "event.trf").text
    assert "No norm made." in plain and "without a norm</summary>" in plain


def test_the_pages_norms_are_the_reports(client):
    # Checked once, by the rate job, for what its reports show (issue 35): an event file's
    # (a TRF, a crosstable), not a table of games, whose report shows none either.
    page = post_event(
        client, SAMPLE / "games.csv", players=SAMPLE / "players.csv", period="2026-11"
    )
    assert "games.csv: title norms are checked for event files" in page.text
    assert "without a norm</summary>" not in page.text
    token = re.search(r'href="/event/([^/"]+)/outputs.zip"', page.text).group(1)
    archive = zipfile.ZipFile(BytesIO(client.get(f"/event/{token}/outputs.zip").content))
    report = zipfile.ZipFile(BytesIO(archive.read("report.xlsx")))
    assert "Norms" not in report.read("xl/workbook.xml").decode()


def test_a_browser_file_name_is_never_a_path(client, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    # A crosstable: its page is called by its file name (a TRF's by its 012 record).
    page = post_event(client, SAMPLE / "crosstable.csv", "../../../etc/crosstable.csv")
    assert page.status_code == 200 and "<h1>crosstable.csv</h1>" in page.text
    assert list(tmp_path.iterdir()) == []  # nothing of the upload went to disk


@given(st.text(max_size=300))
def test_safe_names_are_base_names(sent):
    name = safe_name(sent)
    assert name and len(name) <= 80
    assert "/" not in name and "\\" not in name and not name.startswith(".")
    assert re.fullmatch(r"[A-Za-z0-9._ -]+", name)


def test_a_file_over_the_limit_gets_a_413_page(tmp_path):
    with local_client(create_app(max_upload_bytes=1000)) as small:
        answer = post_event(small, SAMPLE / "event.trf")  # 1,718 bytes
        assert answer.status_code == 413
        assert "an event file up to 1,000 bytes" in answer.text
        # A body over twice the limit and the form's 1 MiB is refused: by its declared length
        # before it is read, or (sent in chunks, no length) as soon as it passes the limit.
        kind = {"content-type": "multipart/form-data; boundary=b"}
        declared = small.post("/rate", content=b"x" * (2 << 20), headers=kind)
        assert declared.status_code == 413

        def chunks():
            for _ in range(64):
                yield b"y" * (64 << 10)

        streamed = small.post("/rate", content=chunks(), headers=kind)
        assert streamed.status_code == 413
        assert small.get("/calc").status_code == 200


@pytest.mark.parametrize(
    "content, status",
    [
        (b"", 422),
        (bytes(range(256)) * 40, 422),
        (b"\x00\x01PK\x03\x04garbage", 422),
        (b"white,black,result\nA,B,<b>2-0</b>\n", 422),
    ],
)
def test_bad_uploads_are_pages_and_the_server_goes_on(client, content, status):
    answer = client.post("/rate", files={"event": ("bad.csv", content)})
    assert answer.status_code == status
    assert "Traceback" not in answer.text and "<b>2-0</b>" not in answer.text
    assert client.get("/calc").status_code == 200


def test_a_missing_event_file_asks_for_one(client):
    answer = client.post("/rate", data={"period": "2026-11"})
    assert answer.status_code == 400 and "choose an event file" in answer.text


def test_an_internal_error_is_a_short_page_without_a_traceback(client, monkeypatch):
    import pipeline.jobs.rate as rate_job

    def broken(request):
        raise RuntimeError("secret /internal/path")

    monkeypatch.setattr(rate_job, "rate", broken)
    answer = post_event(client, SAMPLE / "event.trf")
    assert answer.status_code == 500
    assert "Internal error" in answer.text
    assert "Traceback" not in answer.text and "/internal/path" not in answer.text


def test_problems_name_the_file_not_the_private_folder(client):
    answer = post_event(client, SAMPLE / "broken" / "result-mismatch.trf")
    assert answer.status_code == 422
    assert "result-mismatch.trf" in answer.text and "fiderate-web-" not in answer.text
    assert "<code>result-mismatch</code>" in answer.text


def test_concurrent_uploads_are_isolated(client):
    pages: dict[int, str] = {}
    uploads = [(SAMPLE / "event.trf", None), (SAMPLE / "games.csv", SAMPLE / "players.csv")] * 2

    def run(i: int) -> None:
        event, players = uploads[i]
        extra = {"players": players} if players else {}
        pages[i] = post_event(client, event, **extra).text

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(uploads))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for i, (event, players) in enumerate(uploads):
        # A TRF is called by its 012 record (issue 35 item 5), a games file by its name.
        title = "Autumn Open 2026" if event.suffix == ".trf" else event.name
        assert f"<h1>{title}</h1>" in pages[i]
        assert ("players.csv" in pages[i]) == (players is not None)


@pytest.mark.parametrize(
    "event, players, extra",
    [
        (SAMPLE / "event.trf", None, {}),
        (SAMPLE / "games.csv", SAMPLE / "players.csv", {"period": "2026-11"}),
    ],
    ids=["trf", "games and list"],
)
def test_the_zip_holds_what_rate_writes(client, tmp_path, event, players, extra):
    from click.testing import CliRunner

    from pipeline.cli import cli

    sent = {"players": players} if players else {}
    page = post_event(client, event, **sent, **extra)
    token = re.search(r'href="/event/([^/"]+)/outputs.zip"', page.text).group(1)
    archive = zipfile.ZipFile(BytesIO(client.get(f"/event/{token}/outputs.zip").content))
    options = ["--players", str(players)] if players else []
    options += [a for key, value in extra.items() for a in (f"--{key}", value)]
    done = CliRunner().invoke(cli, ["rate", str(event), *options, "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    written = sorted(p.name for p in tmp_path.iterdir())
    assert sorted(archive.namelist()) == written
    for name in written:
        assert archive.read(name) == (tmp_path / name).read_bytes(), name


def test_unknown_tokens_and_players_are_404_pages(client):
    assert client.get("/event/nope").status_code == 404
    assert client.get("/event/nope/outputs.zip").status_code == 404
    assert client.get("/nowhere").status_code == 404


def test_the_store_keeps_the_newest_runs_only():
    from pipeline.web.uploads import FinishedRun

    store = RunStore(max_runs=2)
    tokens = [store.add(FinishedRun(str(i), {}, None, {}, b"", ())) for i in range(3)]
    assert store.get(tokens[0]) is None
    assert [store.get(t).name for t in tokens[1:]] == ["1", "2"]
    assert len(set(tokens)) == 3 and all(len(t) >= 32 for t in tokens)


def test_history_pages_need_history(client):
    assert client.get("/history").status_code == 404


def test_history_pages_only_read_the_database(history_db):
    before = history_db.read_bytes()
    with local_client(create_app(history_db)) as c:
        overview = c.get("/history").text
        assert "2026-12" in overview and "5100134" in overview
        player = c.get("/history/player?id=5100029").text
        assert player.count("<circle") == 2
        assert "is on no list" in c.get("/history/player?id=<b>").text
        assert "<b>" not in c.get("/history/player?id=<b>").text.split("<main")[1]
    assert history_db.read_bytes() == before
    assert not list(history_db.parent.glob("ratings.db-*"))  # no journal, no WAL


def test_serve_refuses_a_missing_history_database(tmp_path):
    from click.testing import CliRunner

    from pipeline.cli import cli

    done = CliRunner().invoke(cli, ["serve", "--history", str(tmp_path / "none.db")])
    assert done.exit_code == 2 and "is not a file" in done.output


def test_games_in_order_is_the_sequential_mode_and_says_it_is_not_fides(client):
    """1600 beats 1800 (PD 0.24: +15.2), then plays 1550 from 1615: a gap of 65, PD 0.59 (table
    8.1.2, band 62-68), a draw -0.09 x 20 = -1.8; +13.4 -> +13, where FIDE's method gives +14
    (EXAMPLES.md, whole event 2)."""
    answer = client.get("/api/calc?r=1600&o=1800&s=1&o=1550&s=0.5&mode=sequential").json()
    assert answer["change"] == 13
    assert '<td class="wide">2</td><td>1615</td>' in answer["html"]  # game 2 from 1615
    assert "NOT the FIDE method" in answer["html"]


def test_a_long_history_chart_labels_a_few_lists_only():
    from pipeline.site.rating_chart import LABELS, rating_chart

    points = [(f"20{10 + i // 12}-{1 + i % 12:02d}", 2000 + i) for i in range(60)]
    svg = str(rating_chart(points))
    assert svg.count("<circle") == 60
    assert svg.count(">2059</text>") == 1  # the last list is always labelled
    assert svg.count("</text>") <= 2 * (LABELS + 1)
