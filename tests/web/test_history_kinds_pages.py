"""The history's faces with three kinds of list (issue 36): ``fiderate history ID`` prints a
table per kind, ``--kind`` one of them; ``/history/player?id=`` shows a section (chart and
table) per kind, ``?kind=`` one; a period's calculation names its kind and its era's words.
A history holding the sample's November for standard and for rapid, each from its own list."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.rules.counted_words import method_words
from pipeline.rules.select import rules_in_force
from pipeline.web.app import create_app
from tests.conftest import ROOT, run_cli
from tests.web.conftest import local_client

PLAYER = "5100029"


@pytest.fixture(scope="module")
def two_kinds(tmp_path_factory) -> Path:
    """The sample's November rated for standard and rapid (the rapid list rated 50 higher, and
    its events a copy: an event is rated for one list), into one history."""
    work = tmp_path_factory.mktemp("kinds")
    sample = ROOT / "sample_data" / "period"
    db = work / "ratings.db"
    rapid_list = work / "rapid_2026-11.csv"
    with (sample / "list_2026-11.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    with rapid_list.open("w", newline="", encoding="utf-8") as fh:
        out = csv.DictWriter(fh, fieldnames=list(rows[0]))
        out.writeheader()
        out.writerows(
            {**r, "rating": str(int(r["rating"]) + 50) if r["rating"] else ""} for r in rows
        )
    rapid_events = work / "rapid_events"
    shutil.copytree(sample / "events", rapid_events)
    for path in rapid_events.iterdir():  # another file: the rapid events are not the standard's
        path.write_text(path.read_text().replace("2026,", "2026 rapid,"))
    for kind, listed, events in (
        ("standard", sample / "list_2026-11.csv", sample / "events"),
        ("rapid", rapid_list, rapid_events),
    ):
        run_period(
            PeriodRequest(
                list_path=listed, events=(events,), period="2026-11", out_dir=work / kind,
                db_path=db, rules=kind, xlsx=False,
            )
        )  # fmt: skip
    return db


def published(db: Path, kind: str) -> dict[str, str]:
    with (db.parent / kind / "rating_list_2026-12.csv").open(encoding="utf-8") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)}[PLAYER]


def test_history_prints_a_table_per_kind_and_one_with_kind(two_kinds):
    both = run_cli("history", PLAYER, "--db", two_kinds)
    assert both.exit_code == 0, both.stderr
    lines = both.stdout.splitlines()
    assert lines.index("standard:") < lines.index("rapid:")
    for kind in ("standard", "rapid"):
        start = lines.index(f"{kind}:")
        row = next(line for line in lines[start:] if line.startswith("2026-12"))
        assert f" {published(two_kinds, kind)['rating']} " in row
    rapid = run_cli("history", PLAYER, "--db", two_kinds, "--kind", "rapid", "--json")
    data = json.loads(rapid.stdout)
    assert data["kinds"] == ["rapid"] and {r["rating_kind"] for r in data["lists"]} == {"rapid"}
    new = published(two_kinds, "rapid")
    (row,) = [r for r in data["lists"] if r["kind"] == "published"]
    assert (row["rating"], row["next_k"]) == (int(new["rating"]), int(new["k"]))
    calc = run_cli("history", PLAYER, "--db", two_kinds, "--period", "2026-11", "--kind", "rapid")
    assert calc.exit_code == 0, calc.stderr
    era = rules_in_force("rapid", "2026-11")
    assert "2026-11 period, rapid list" in calc.stdout
    assert f"rules {era.name}. {method_words(era)}" in calc.stdout
    wrong = run_cli("history", PLAYER, "--db", two_kinds, "--kind", "bullet")
    assert wrong.exit_code == 2 and "bullet" in wrong.stderr


def test_the_player_page_shows_each_kind_and_picks_one(two_kinds):
    before = two_kinds.read_bytes()
    with local_client(create_app(two_kinds)) as c:
        page = c.get(f"/history/player?id={PLAYER}").text
        assert 'id="periods"' in page and 'id="periods-rapid"' in page
        assert page.count("<circle") == 4  # two lists of each kind
        rapid = c.get(f"/history/player?id={PLAYER}&kind=rapid").text
        assert 'id="periods-rapid"' in rapid and 'id="periods"' not in rapid
        assert "&amp;period=2026-11&amp;kind=rapid" in rapid
        assert published(two_kinds, "rapid")["rating"] in rapid
        calc = c.get(f"/history/calculation?id={PLAYER}&period=2026-11&kind=rapid")
        assert calc.status_code == 200
        era = rules_in_force("rapid", "2026-11")
        assert f"Rules {era.name}." in calc.text and "assumed" not in calc.text
        bad = c.get(f"/history/player?id={PLAYER}&kind=%3Cb%3E")
        assert bad.status_code == 400 and "<b>" not in bad.text.split("<main")[1]
        overview = c.get("/history").text
        assert overview.count('<td class="text">rapid</td>') >= 2
    assert two_kinds.read_bytes() == before
