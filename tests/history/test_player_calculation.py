"""A player's history as a rating officer hands it out (issue 35): per period the games, the
score, the change and the K that rated them (apart from the next list's K), and the period's
calculation game by game, on both faces (``fiderate history``, the web pages).

Every number is checked against the files the same ``fiderate period`` run wrote
(``changes_2026-11.csv``, ``games_2026-11.csv``), never against numbers written here.
"""

from __future__ import annotations

import csv
import json
import shutil
import sqlite3
from decimal import ROUND_HALF_UP, Decimal
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.web.app import create_app
from tests.conftest import period_sample, run_cli
from tests.web.conftest import local_client

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "period"
V3_DATABASE = Path(__file__).parent / "data" / "ratings_v3.db"


@pytest.fixture(scope="module")
def period_out(tmp_path_factory) -> Path:
    """The README's period run on the sample (November 2026)."""
    out = tmp_path_factory.mktemp("calc") / "out"
    period_sample(out)
    return out


def csv_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def played(out: Path) -> dict[str, dict[str, str]]:
    """The rated players who played in November, by id, as changes_2026-11.csv gives them."""
    rows = csv_rows(out / "changes_2026-11.csv")
    return {r["id"]: r for r in rows if r["status"] == "rated" and int(r["games"]) > 0}


def rounded_once(exact: Decimal) -> int:
    """Half away from zero, as FIDE rounds the period's change (exact decimal, no float)."""
    sign = -1 if exact < 0 else 1
    return sign * int(abs(exact).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def history_json(out: Path, *args: str) -> dict:
    done = run_cli("history", *args, "--out", out, "--json")
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def period_row(found: dict, period: str) -> dict:
    (row,) = [r for r in found["lists"] if r["period"] == period and r["kind"] == "published"]
    return row


def test_the_issue_case_k_that_rated_the_games_beside_the_next_k(period_out):
    """5100029 played November with K 20; the December list gives him K 10."""
    expected = played(period_out)["5100029"]
    assert (expected["k"], expected["next_k"]) == ("20", "10")  # the issue's case, still true
    row = period_row(history_json(period_out, "5100029"), "2026-11")
    assert row["k_used"] == 20 and row["next_k"] == 10
    text = run_cli("history", "5100029", "--out", period_out).stdout
    header, line = [t.split() for t in text.splitlines()[1:2]], None
    line = next(t for t in text.splitlines() if t.startswith("2026-12"))
    cells = dict(zip(header[0], line.split(), strict=False))
    assert cells["K"] == "20" and cells["next-K"] == "10" and cells["change"] == "+19"


def test_every_played_period_row_agrees_with_changes_csv(period_out):
    for player, expected in played(period_out).items():
        row = period_row(history_json(period_out, player), "2026-11")
        assert row["k_used"] == int(expected["k"]), player
        assert row["next_k"] == (int(expected["next_k"]) if expected["next_k"] else None)
        assert row["period_games"] == int(expected["games"])
        assert row["score"] == expected["score"]
        assert row["change_exact"] == expected["change_exact"]
        assert row["change"] == int(expected["change"])
        assert row["calculation"] is True


def test_the_calculation_sums_to_the_change_and_matches_games_csv(period_out):
    games = csv_rows(period_out / "games_2026-11.csv")
    names = {r["id"]: r["name"] for r in csv_rows(period_out / "rating_list_2026-12.csv")}
    for player, expected in played(period_out).items():
        calc = history_json(period_out, player, "--period", "2026-11")
        assert calc["k"] == int(expected["k"]) and calc["next_k"] == int(expected["next_k"])
        rated = [g for g in games if g["player"] == player and g["rated"] == "true"]
        assert len(calc["games"]) == len(rated) == int(expected["games"])
        for shown, game in zip(calc["games"], rated, strict=True):
            assert shown["opponent"] == game["opponent"]
            assert shown["opponent_name"] == names[game["opponent"]]
            assert shown["opponent_rating"] == int(game["opponent_rating"])
            assert shown["diff"] == int(game["diff"])
            assert shown["pd"] == game["pd"] and shown["s_minus_pd"] == game["dev"]
            assert Decimal(shown["k_x_s_minus_pd"]) == calc["k"] * Decimal(game["dev"])
        total = sum(Decimal(g["k_x_s_minus_pd"]) for g in calc["games"])
        assert total == Decimal(expected["change_exact"]) == Decimal(calc["change_exact"])
        assert rounded_once(total) == int(expected["change"]) == calc["change"]


def test_cli_period_table_shows_k_and_the_sum(period_out):
    done = run_cli("history", "5100029", "--period", "2026-11", "--out", period_out)
    assert done.exit_code == 0, done.output
    assert "K 20" in done.stdout and "next list's K 10" in done.stdout
    assert "18.80" in done.stdout and "+19" in done.stdout


def test_cli_unknown_player_and_unknown_period_exit_1(period_out):
    done = run_cli("history", "9999999", "--out", period_out)
    assert done.exit_code == 1 and "9999999" in done.stderr and "Traceback" not in done.output
    done = run_cli("history", "5100029", "--period", "2031-01", "--out", period_out)
    assert done.exit_code == 1 and "2031-01" in done.stderr


class Tables(HTMLParser):
    """The text of each cell of each table row, and every link, of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[list[str]]] = {}
        self.links: list[str] = []
        self.table: str | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.table = attrs.get("id") or ""
            self.rows.setdefault(self.table, [])
        elif tag == "tr" and self.table is not None:
            self.rows[self.table].append([])
        elif tag in ("td", "th") and self.table is not None:
            self.cell = []
        elif tag == "a":
            self.links.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "table":
            self.table = None
        elif tag in ("td", "th") and self.cell is not None and self.table is not None:
            self.rows[self.table][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def parse(html: str) -> Tables:
    tables = Tables()
    tables.feed(html)
    return tables


def table_dicts(page: Tables, table: str) -> list[dict[str, str]]:
    header, *rows = page.rows[table]
    return [dict(zip(header, r, strict=True)) for r in rows]


def test_web_history_page_k_change_and_the_link_to_the_calculation(period_out):
    expected = played(period_out)["5100029"]
    with local_client(create_app(period_out / "ratings.db")) as client:
        page = parse(client.get("/history/player?id=5100029").text)
        (row,) = [r for r in table_dicts(page, "periods") if r["period"] == "2026-11"]
        assert row["K"] == expected["k"] and row["next K"] == expected["next_k"]
        assert row["change"] == "+19" and row["score"] == expected["score"]
        link = next(u for u in page.links if "period=2026-11" in u)
        answer = client.get(link)
        assert answer.status_code == 200
        calc = parse(answer.text)
        games = table_dicts(calc, "calculation")
        body = [g for g in games if g["opponent"] != "sum"]
        names = [r["name"] for r in csv_rows(period_out / "rating_list_2026-12.csv")]
        assert all(any(g["opponent"].startswith(n) for n in names) for g in body)  # by name
        assert len(body) == int(expected["games"])
        total = sum(Decimal(g["K x (S - PD)"]) for g in body)
        assert total == Decimal(expected["change_exact"])
        assert rounded_once(total) == int(expected["change"])


def test_web_unknown_player_is_404_and_search_finds_by_name_and_id(period_out):
    with local_client(create_app(period_out / "ratings.db")) as client:
        assert client.get("/history/player?id=9999999").status_code == 404
        answer = client.get("/history/calculation?id=5100029&period=2031-01")
        assert answer.status_code == 404
        for query in ("becker", "Becker, Jon", "5100029"):
            found = client.get("/history/search", params={"q": query})
            assert found.status_code == 200
            assert "/history/player?id=5100029" in parse(found.text).links, query
        nobody = client.get("/history/search", params={"q": "zzzz-nobody"})
        assert nobody.status_code == 200 and "No player" in nobody.text


JANUARY_LIST = "rating_list_2027-01.csv"


def test_a_history_written_before_calculations_were_stored(tmp_path):
    """ratings_v3.db (today's main before this change): read and migrated, its periods say
    their calculation was not stored (nothing made up); a new period run stores its own."""
    db = tmp_path / "out" / "ratings.db"
    db.parent.mkdir()
    shutil.copy(V3_DATABASE, db)
    # The January list the December run published, put where this folder's history finds it
    # (the database records the folder it was written in: here, where it was made).
    shutil.copy(V3_DATABASE.with_name("rating_list_2027-01_v3.csv"), db.parent / JANUARY_LIST)
    with sqlite3.connect(db) as con:
        con.execute(
            "UPDATE lists SET source = ? WHERE effective = '2027-01'",
            (str(db.parent / JANUARY_LIST),),
        )
    con.close()
    found = history_json(db.parent, "5100029")
    for period in ("2026-11", "2026-12"):
        row = period_row(found, period)
        assert row["calculation"] is False and row["k_used"] is None and row["change"] is None
    done = run_cli("history", "5100029", "--period", "2026-11", "--db", db)
    assert done.exit_code == 1 and "not stored" in done.stderr
    with local_client(create_app(db)) as client:
        page = client.get("/history/player?id=5100029")
        assert page.status_code == 200 and "not stored" in page.text
        assert "period=2026-11" not in page.text
    # January rated on the migrated history: its calculation is stored, the older ones still
    # say they are not.
    jan = tmp_path / "jan"
    jan.mkdir()
    (jan / "jan.csv").write_text(
        "event,round,date,white,black,result\nJan,1,2027-01-05,5100029,5100010,1-0\n"
    )
    # No --list: the history's own list in force in January (the one December published).
    run_period(PeriodRequest(list_path=None, events=(jan,), period="2027-01", out_dir=db.parent))
    found = history_json(db.parent, "5100029")
    assert period_row(found, "2026-11")["calculation"] is False
    january = period_row(found, "2027-01")
    assert january["calculation"] is True and january["period_games"] == 1
    calc = history_json(db.parent, "5100029", "--period", "2027-01")
    assert sum(Decimal(g["k_x_s_minus_pd"]) for g in calc["games"]) == Decimal(calc["change_exact"])
