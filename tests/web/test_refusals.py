"""Issue 34, items 5, 6 and 7: the upload form refuses a setting it did not offer (422, naming
the field) instead of replacing it; every player's page is reachable whatever the id holds; a
page of problems is headed by the file at fault; the history pages answer with an error status
when the database cannot give them.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from pipeline.web.app import create_app
from tests.web.conftest import local_client

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"


def upload(client, event: Path, players: Path | None = None, **fields: str):
    files = {"event": (event.name, event.read_bytes())}
    if players is not None:
        files["players"] = (players.name, players.read_bytes())
    return client.post("/rate", files=files, data=fields, follow_redirects=False)


@pytest.mark.parametrize(
    "fields, named",
    [
        ({"rules": "';drop table"}, ["Rules (rules)"]),
        ({"rules": "Standard"}, ["Rules (rules)"]),
        ({"period": "2026-11<script>"}, ["Rating period (period)"]),
        ({"period": "2026-13"}, ["Rating period (period)"]),
        ({"period": "26-11", "rules": "fast"}, ["Rating period (period)", "Rules (rules)"]),
        ({"period": "2026-11" + "x" * 100_000}, ["100,007 characters"]),
    ],
)
def test_a_setting_the_form_did_not_offer_is_refused(client, fields, named):
    runs = client.app.state.pages.runs
    before = len(runs._runs)
    answer = upload(client, SAMPLE / "event.trf", **fields)
    assert answer.status_code == 422
    text = html.unescape(answer.text)
    for field in named:  # every wrong field at once, by its label and name, with its value
        assert field in text
    for value in fields.values():
        assert repr(value[:40]).rstrip("'") in text
    assert "<script>" not in answer.text.split("<main")[1]
    assert len(runs._runs) == before  # nothing rated


def test_the_settings_offered_are_rated(client):
    answer = upload(client, SAMPLE / "event.trf", period=" 2026-11 ", rules="rapid")
    assert answer.status_code == 303
    page = client.get(answer.headers["location"]).text
    assert "2026-11" in page and "rapid" in page


@pytest.mark.parametrize("odd_id", ["a/../b", "..", "../../etc/passwd", ".", "a?b#c", "x&id=y"])
def test_every_players_page_is_reachable_whatever_the_id(client, tmp_path, odd_id):
    # Ids are the organiser's text: the link must lead to that player's own page.
    games, players = tmp_path / "games.csv", tmp_path / "players.csv"
    for source, target in ((SAMPLE / "games.csv", games), (SAMPLE / "players.csv", players)):
        text = source.read_text(encoding="utf-8").replace("4100018", f'"{odd_id}"')
        target.write_text(text, encoding="utf-8")
    answer = upload(client, games, players)
    assert answer.status_code == 303, answer.text
    event = client.get(answer.headers["location"]).text
    # A name may carry <wbr> after its comma (the name_breaks filter): the name is its text.
    found = re.findall(r'<a href="(/event/[^"]+/player[^"]*)">((?:[^<]|<wbr>)*)</a>', event)
    links = [(link, name.replace("<wbr>", "")) for link, name in found]
    assert len(links) == event.count("<tr data-id=")
    for link, name in links:
        page = client.get(html.unescape(link), follow_redirects=False)
        assert page.status_code == 200, (link, page.status_code)
        assert name in page.text.replace("<wbr>", "")
    odd = client.get(html.unescape(next(link for link, name in links if name == "Kowalski, Adam")))
    assert html.escape(odd_id, quote=False) in odd.text


def test_problems_in_the_players_file_are_headed_by_it(client, tmp_path):
    players = tmp_path / "list.csv"
    text = (SAMPLE / "players.csv").read_text(encoding="utf-8")
    players.write_text(text.replace(",2712,", ",27x2,"), encoding="utf-8")
    answer = upload(client, SAMPLE / "games.csv", players)
    assert answer.status_code == 422
    assert "<h1>Problems in list.csv</h1>" in answer.text
    assert "<title>Problems in list.csv" in answer.text


@pytest.fixture
def broken_db(tmp_path) -> Path:
    database = tmp_path / "ratings.db"
    database.write_bytes(b"this is not a database" * 100)
    return database


def test_the_history_pages_of_an_unreadable_database_say_so_with_an_error_status(broken_db):
    with local_client(create_app(broken_db)) as c:
        for path in ("/history", "/history/player?id=5100029"):
            answer = c.get(path)
            assert answer.status_code == 503, path
            assert 'role="alert"' in answer.text


def test_a_player_on_no_list_is_not_found(history_db):
    with local_client(create_app(history_db)) as c:
        assert c.get("/history/player?id=5100029").status_code == 200
        answer = c.get("/history/player?id=999")
        assert answer.status_code == 404 and "is on no list" in answer.text


def test_an_error_of_the_job_is_not_blamed_on_the_upload(client, monkeypatch):
    # A ValueError inside the rating job (seen: a chart of a synthetic event) was answered
    # 400 "the upload could not be read", as if the form were broken.
    import pipeline.jobs.rate as rate_job

    def broken(request):
        raise ValueError("cannot convert float NaN to integer")

    monkeypatch.setattr(rate_job, "rate", broken)
    answer = upload(client, SAMPLE / "event.trf")
    assert answer.status_code == 500
    assert "Internal error" in answer.text and "could not be read" not in answer.text
