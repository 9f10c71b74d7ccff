"""Issue 34, item 3: a page the user opens elsewhere cannot drive ``fiderate serve``. A request
naming a host the server is not reached by is refused (DNS rebinding), a POST sent from another
site is refused (cross-site forms), and every answer carries the headers that keep our pages
from being framed, sniffed or made to run a script of anyone else's.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pipeline.web.app import HERE
from tests.web.conftest import Server

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"
EVIL = {"host": "evil.example:8000"}


def upload(client, **headers: str):
    files = {"event": ("event.trf", (SAMPLE / "event.trf").read_bytes())}
    return client.post("/rate", files=files, headers=headers, follow_redirects=False)


def runs(client) -> int:
    return len(client.app.state.pages.runs._runs)


def test_a_foreign_host_is_refused(client):
    for path in ("/", "/calc?r=1650&o=1800&s=1", "/static/style.css", "/rate"):
        answer = client.get(path, headers=EVIL)
        assert answer.status_code == 400, path
        assert "evil.example" in answer.text and "--allow-host" in answer.text
    assert client.get("/", headers={"host": "localhost:8000"}).status_code == 200
    assert client.get("/", headers={"host": "[::1]:8000"}).status_code == 200


def test_a_post_from_another_site_is_not_rated(client):
    before = runs(client)
    for headers in (
        {"origin": "http://evil.example"},
        {"origin": "http://evil.example", **EVIL},  # the rebinding and the form together
        {"origin": "null"},  # a sandboxed frame or a file:// page
        {"origin": "http://127.0.0.1:9999"},  # another program on this computer
        {"referer": "http://evil.example/page.html"},  # a browser that sends no Origin
    ):
        answer = upload(client, **headers)
        assert answer.status_code in (400, 403), headers
        assert "Location" not in answer.headers
    assert runs(client) == before
    assert "another site" in upload(client, origin="http://evil.example").text


def test_our_own_pages_still_post(client):
    for headers in (
        {"origin": "http://127.0.0.1"},
        {"origin": "http://127.0.0.1:80"},  # the default port, said
        {"referer": "http://127.0.0.1/rate"},
        {},  # no browser: a script (curl) that no web page can drive
    ):
        answer = upload(client, **headers)
        assert answer.status_code == 303, (headers, answer.text)


def test_every_answer_carries_the_security_headers(client):
    answers = [
        client.get("/"),
        client.get("/calc"),
        client.get("/api/calc?r=1650&o=1800&s=1"),
        client.get("/static/calc.js"),
        client.get("/nowhere"),
        client.get("/", headers=EVIL),
        upload(client, origin="http://evil.example"),
    ]
    for answer in answers:
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert "frame-ancestors 'none'" in policy
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "same-origin"


def test_no_template_needs_inline_script_or_style():
    """The policy allows our own files only: no inline script, event handler or style."""
    for template in sorted((HERE / "templates").glob("*.html")):
        text = template.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), template.name
        assert not re.search(r"\son[a-z]+\s*=", text), template.name
        assert not re.search(r"\sstyle\s*=|<style", text), template.name


def test_the_names_allowed_by_default():
    from pipeline.web.guard import AllowedHosts

    local = AllowedHosts.served("127.0.0.1")
    assert all(local.allows(h) for h in ("127.0.0.1:8000", "localhost", "LOCALHOST.:80"))
    assert not any(
        local.allows(h)
        for h in (
            "evil.example",
            "192.168.1.5:8000",
            "",
            "127.0.0.1:x",
            "a@127.0.0.1",
            "127.0.0.1/x",
        )
    )
    named = AllowedHosts.served("ratings.lan", ["proxy.example"])
    assert named.allows("ratings.lan:8000") and named.allows("proxy.example")
    # Every address: any address literal (it cannot be rebound), names only when allowed.
    every = AllowedHosts.served("0.0.0.0")
    assert every.allows("192.168.1.5:8000") and every.allows("[fe80::1]:8000")
    assert not every.allows("evil.example:8000")


@given(st.text(max_size=60))
def test_an_allowed_host_is_always_one_of_the_names(header):
    from pipeline.web.guard import AllowedHosts, host_and_port

    allowed = AllowedHosts.served("127.0.0.1", ["proxy.example"])
    if allowed.allows(header):
        assert host_and_port(header)[0] in allowed.names


@given(st.text(max_size=60), st.text(max_size=60))
def test_same_origin_means_the_same_host_and_port(origin, host):
    from pipeline.web.guard import host_and_port, same_origin

    if same_origin(origin, host):
        assert host_and_port(host) is not None


def test_the_server_answers_a_proxy_name_it_was_given():
    """The real server: ``--allow-host`` adds the name a reverse proxy passes on."""
    server = Server("--allow-host", "ratings.example.org")
    try:
        for host, status in (("ratings.example.org", 200), ("evil.example", 400)):
            request = urllib.request.Request(server.url + "/", headers={"Host": host})
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    got = answer.status
            except urllib.error.HTTPError as refused:
                got = refused.code
            assert got == status, host
    finally:
        server.stop()
