"""Every face of a run says when K was assumed (issue 35, item 3): the README's own
``fiderate rate sample_data/event.trf`` and a web upload without a list rate Silva (12 rated
games on players.csv: K 40) and Okafor (has reached 2400: K 10) with K 20, because a TRF gives
neither a games count nor a 2400 history. The console, rating_list.csv, the spreadsheets,
report.html, ``--json`` and the web event page must say so, name the players and the fix; with
the list in force nothing is assumed.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import openpyxl
import pytest

from tests.conftest import SAMPLE, run_cli
from tests.web.conftest import local_client

TRF = SAMPLE / "event.trf"
PLAYERS = SAMPLE / "players.csv"
SILVA, OKAFOR, KOWALSKI = "4100050", "4100069", "4100018"


def rate_trf(out: Path, *extra: object):
    result = run_cli("rate", TRF, "--out", out, *extra)
    assert result.exit_code == 0, result.output
    return result


def rating_rows(out: Path) -> dict[str, dict[str, str]]:
    with open(out / "rating_list.csv", newline="", encoding="utf-8") as f:
        return {row["id"]: row for row in csv.DictReader(f)}


def test_the_console_warns_once_naming_the_players_and_the_fix(tmp_path):
    result = rate_trf(tmp_path / "out")
    warnings = [line for line in result.stderr.splitlines() if "K assumed" in line]
    assert len(warnings) == 1, result.stderr
    warning = warnings[0]
    assert warning.startswith("warning: K assumed (marked *) for 7 players")
    assert "Silva, Tiago 4100050" in warning and "Okafor, Chidi 4100069" in warning
    assert "and 2 more" in warning  # five named, the rest counted
    assert "--players" in warning
    # The table marks the K it used, with a footnote.
    silva = next(line for line in result.stdout.splitlines() if SILVA in line)
    kowalski = next(line for line in result.stdout.splitlines() if KOWALSKI in line)
    assert re.search(r"1650\s+20\*", silva) and re.search(r"2712\s+10\s", kowalski)
    assert "K assumed (marked *)" in warning


def test_with_the_list_in_force_nothing_is_assumed(tmp_path):
    out = tmp_path / "out"
    result = rate_trf(out, "--players", PLAYERS)
    assert "assumed" not in result.output
    rows = rating_rows(out)
    assert {row["k_assumed"] for row in rows.values()} == {"false"}
    assert (rows[SILVA]["k"], rows[OKAFOR]["k"]) == ("40", "10")


def test_the_rating_list_marks_each_assumed_k_and_says_why(tmp_path):
    out = tmp_path / "out"
    rate_trf(out)
    rows = rating_rows(out)
    for pid in (SILVA, OKAFOR):
        assert rows[pid]["k"] == "20" and rows[pid]["k_assumed"] == "true"
        assert rows[pid]["k_rule"] == "standard K (assumed: no games count, no 2400 history)"
    # 2400 or more has reached 2400: K 10 is known from the TRF alone.
    assert rows[KOWALSKI]["k_assumed"] == "false"
    assert rows[KOWALSKI]["k_rule"] == "rating has reached 2400"
    # The unrated player has no K: nothing assumed.
    assert rows["4100093"]["k_assumed"] == "false"


def test_json_carries_every_assumed_player_and_the_fix(tmp_path):
    result = rate_trf(tmp_path / "out", "--json")
    data = json.loads(result.stdout)
    assumed = data["k_assumed"]
    assert assumed["count"] == 7
    by_id = {p["id"]: p for p in assumed["players"]}
    assert set(by_id) == {"4100026", "4100034", "4100042", SILVA, OKAFOR, "4100077", "4100085"}
    assert by_id[SILVA]["k"] == 20 and "assumed" in by_id[SILVA]["k_reason"]
    assert "--players" in assumed["fix"]
    assert any("K assumed" in w for w in data["warnings"])
    movers = {m["id"]: m["k_assumed"] for m in data["movers"]}
    assert movers[SILVA] is True and movers[KOWALSKI] is False


def test_json_with_the_list_says_nothing_is_assumed(tmp_path):
    data = json.loads(rate_trf(tmp_path / "out", "--json", "--players", PLAYERS).stdout)
    assert data["k_assumed"] == {"count": 0, "players": [], "fix": ""}


def test_report_html_and_the_workbooks_mark_it(tmp_path):
    out = tmp_path / "out"
    rate_trf(out)
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "warning: K assumed (marked *) for 7 players" in page
    assert "K 20: standard K (assumed: no games count, no 2400 history)" in page
    assert page.count('<abbr title="K assumed: the input cannot say it">*</abbr>') == 7
    sheet = openpyxl.load_workbook(out / "rating_list.xlsx").worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    header = list(rows[0])
    at_id, at_flag = header.index("id"), header.index("k_assumed")
    flags = {str(r[at_id]): r[at_flag] for r in rows[1:]}
    assert flags[SILVA] == "true" and flags[KOWALSKI] == "false"
    report = openpyxl.load_workbook(out / "report.xlsx")
    explained = [
        row[1]
        for row in next(ws for ws in report.worksheets if ws.title.startswith(SILVA)).iter_rows(
            values_only=True
        )
        if row and row[0] == "K explained"
    ]
    assert explained == ["K 20: standard K (assumed: no games count, no 2400 history)"]


@pytest.fixture(scope="module")
def client():
    from pipeline.web.app import create_app

    with local_client(create_app(), raise_server_exceptions=False) as c:
        yield c


def upload(client, *with_list: Path):
    files = {"event": (TRF.name, TRF.read_bytes())}
    for players in with_list:
        files["players"] = (players.name, players.read_bytes())
    answer = client.post("/rate", files=files, follow_redirects=True)
    assert answer.status_code == 200, answer.text
    return answer


def test_a_web_upload_without_a_list_shows_it(client):
    answer = upload(client)
    page = answer.text
    assert "warning: K assumed (marked *) for 7 players" in page
    # The fix in the form's words (errors.in_face): a browser user has no --players.
    assert "give the list in force (a &#34;Rating list in force&#34; file)" in page
    assert "--players" not in page
    row = re.search(rf'<tr data-id="{SILVA}">.*?</tr>', page, re.S)
    assert row is not None and re.search(r'class="wide k-assumed"[^>]*>20\*</td>', row.group(0))
    kowalski = re.search(rf'<tr data-id="{KOWALSKI}">.*?</tr>', page, re.S)
    assert kowalski is not None and "k-assumed" not in kowalski.group(0)
    player = client.get(f"{answer.url.path}/player", params={"id": OKAFOR}).text
    assert "K 20: standard K (assumed: no games count, no 2400 history)" in player


def test_a_web_upload_with_the_list_shows_no_assumed_k(client):
    assert "assumed" not in upload(client, PLAYERS).text


def test_a_list_without_the_2400_history_leaves_k_assumed(tmp_path):
    """players.csv without its ever_2400 column: Okafor (2194, has reached 2400) gets K 20, and
    the run must say it could not know; Kowalski's 2712 proves 2400 on its own."""
    with open(PLAYERS, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    listed = tmp_path / "players.csv"
    with open(listed, "w", newline="", encoding="utf-8") as f:
        columns = [c for c in rows[0] if c != "ever_2400"]
        writer = csv.DictWriter(f, columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    out = tmp_path / "out"
    result = rate_trf(out, "--players", listed)
    # Rossi has a published K on the list: known.
    assert "K assumed (marked *) for 6 players (no 2400 history)" in result.stderr
    got = rating_rows(out)
    assert got[OKAFOR]["k"] == "20" and got[OKAFOR]["k_assumed"] == "true"
    assert got[OKAFOR]["k_rule"] == "standard K (assumed: no 2400 history)"
    # The list gives Silva's 12 games: K 40 is his; only the history is missing.
    assert got[SILVA]["k"] == "40"
    assert got[SILVA]["k_rule"] == "fewer than 30 rated games (assumed: no 2400 history)"
    assert got[KOWALSKI]["k_assumed"] == "false"
