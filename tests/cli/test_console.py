"""The console after ``rate``: plain text when not a terminal, a rich table on a terminal,
--quiet, --json, and the delayed progress display."""

from __future__ import annotations

import io
import json
import re
import time

import pytest
from rich.console import Console

from pipeline.cli.console import DelayedProgress, render_summary
from pipeline.jobs.rate.stages import rate_files
from pipeline.model import RateOptions
from pipeline.writers import WriteReport
from tests.conftest import SAMPLE, rate_sample, run_cli
from tests.reportfixtures import read_csv


def invoke(tmp_path, *extra):
    # report.html is tested in test_report_html; its charts are the slow part of a run.
    return rate_sample(tmp_path, "--no-html", *extra)


def test_plain_summary_when_not_a_terminal(tmp_path):
    result = invoke(tmp_path)
    assert result.exit_code == 0
    assert result.stderr == ""
    out = result.stdout
    assert "\x1b[" not in out and "━" not in out and "─" not in out
    assert "players: 10" in out
    assert "rating changes:" in out
    assert f"  {tmp_path / 'report.xlsx'}" in out
    assert "report.html" not in out  # --no-html


def test_quiet_prints_nothing(tmp_path):
    result = invoke(tmp_path, "--quiet")
    assert result.exit_code == 0
    assert result.stdout == "" and result.stderr == ""
    assert (tmp_path / "rating_list.csv").exists()


def test_json_summary(tmp_path):
    result = invoke(tmp_path, "--json")
    assert result.exit_code == 0 and result.stderr == ""
    data = json.loads(result.stdout)
    rating_list = read_csv(tmp_path / "rating_list.csv")
    played = [r for r in rating_list if r["games"] != "0"]
    assert data["players"] == len(rating_list)
    assert data["players_with_games"] == len(played)
    best = max(played, key=lambda r: float(r["change_exact"]))
    worst = min(played, key=lambda r: float(r["change_exact"]))
    assert data["movers"][0]["id"] == best["id"]
    assert float(data["movers"][-1]["change_exact"]) == float(worst["change_exact"])
    assert data["fide_method"] is True and data["mode"] == "fide"
    assert str(tmp_path / "rating_list.csv") in data["written"]
    games = read_csv(tmp_path / "games.csv")
    assert data["rated_game_sides"] == sum(g["rated"] == "true" for g in games)


def test_rich_table_on_a_terminal(tmp_path):
    result = rate_files(
        [SAMPLE / "games.csv"], SAMPLE / "players.csv", RateOptions(period="2026-11")
    )
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=120, color_system="standard")
    render_summary(result, WriteReport(written=[tmp_path / "report.html"]), console)
    text = buffer.getvalue()
    assert "\x1b[" in text  # colour on a terminal
    plain = Console(file=io.StringIO(), width=120)
    assert not plain.is_terminal
    for word in ("rating changes", "Rossi, Marco", "27.40", "exact", "written:", "report.html"):
        assert word in text


def test_sequential_run_is_labelled_and_differs(tmp_path):
    fide = invoke(tmp_path / "a", "--json")
    seq = invoke(tmp_path / "b", "--mode", "sequential")
    assert seq.exit_code == 0
    assert "NOTE: sequential mode" in seq.stdout and "NOT the FIDE method" in seq.stdout
    a = {r["id"]: r["change_exact"] for r in read_csv(tmp_path / "a" / "rating_list.csv")}
    b = {r["id"]: r["change_exact"] for r in read_csv(tmp_path / "b" / "rating_list.csv")}
    assert a != b
    assert json.loads(fide.stdout)["mode"] == "fide"


def test_sequential_rate_matches_hand_derivation(tmp_path):
    # 1600 beats 1800 (+15.2 at PD 0.24), then draws 1550 from 1615 (gap 65: PD 0.59 in table
    # 8.1.2's band 62-68): 20 x (0.5 - 0.59) = -1.8. Exact +13.40 -> +13, not the FIDE +14.
    (tmp_path / "p.csv").write_text(
        "id,name,rating,games\n1,A,1600,100\n2,B,1800,100\n3,C,1550,100\n"
    )
    (tmp_path / "g.csv").write_text(
        "event,round,white,black,result\nE,1,1,2,1-0\nE,2,3,1,1/2-1/2\n"
    )
    result = run_cli(
        "rate",
        str(tmp_path / "g.csv"),
        "--players",
        str(tmp_path / "p.csv"),
        "--period",
        "2026-11",
        "--out",
        str(tmp_path / "o"),
        "--mode",
        "sequential",
        "--no-html",
    )
    assert result.exit_code == 0, result.stderr
    row = next(r for r in read_csv(tmp_path / "o" / "rating_list.csv") if r["id"] == "1")
    assert (row["change_exact"], row["change"], row["new_rating"]) == ("13.40", "13", "1613")


def test_unknown_player_option_writes_nothing(tmp_path):
    result = invoke(tmp_path / "o", "--player", "999")
    assert result.exit_code == 1
    assert "'999'" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def test_progress_shows_only_after_the_delay():
    console = Console(file=io.StringIO(), force_terminal=True, width=80)
    with DelayedProgress(console=console, delay=10) as progress:
        progress.stage("fast")
    assert not progress.shown
    with DelayedProgress(console=console, delay=0.05) as progress:
        progress.stage("slow")
        time.sleep(0.4)
    assert progress.shown
    assert "slow" in console.file.getvalue()


@pytest.mark.parametrize("terminal", [False])
def test_progress_never_shows_without_a_terminal(terminal):
    console = Console(file=io.StringIO(), force_terminal=terminal)
    with DelayedProgress(console=console, delay=0.0) as progress:
        time.sleep(0.1)
    assert not progress.shown
    assert console.file.getvalue() == ""


def test_plain_summary_headers_stay_above_long_ids(tmp_path):
    """A TRF file without FIDE ids gets ids such as ``generated-60p-cr-only#40``: each column of
    the movers' table is as wide as its widest value, so every header ends where its values end
    (the id header stood 14 characters left of the ids)."""
    long_id = {}
    for name in ("games.csv", "players.csv"):
        text = (SAMPLE / name).read_text(encoding="utf-8")
        for old in sorted(set(re.findall(r"\b41\d{5}\b", text))):
            long_id[old] = f"generated-60p-cr-only#{old[-3:]}"
        for old, new in long_id.items():
            text = re.sub(rf"\b{old}\b", new, text)
        (tmp_path / name).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    done = run_cli(
        "rate",
        tmp_path / "games.csv",
        "--players",
        tmp_path / "players.csv",
        "--out",
        out,
        "--no-html",
        "--no-xlsx",
    )
    assert done.exit_code == 0, done.stderr
    lines = done.stdout.splitlines()
    at = lines.index("rating changes:")
    header, rows = lines[at + 1], lines[at + 2 : lines.index("", at)]
    assert rows and all("generated-60p-cr-only#" in row for row in rows)
    # Every header word ends in the column its right-aligned values end in (name: starts).
    for word in ("id", "rating", "k", "games", "score", "expected", "change_exact", "new_rating"):
        end = re.search(rf"(?<!\S){word}(?!\S)", header).end()
        assert all(row[end - 1] != " " and row[end : end + 1] in ("", " ") for row in rows), word
    start = header.index(" name ") + 1
    assert all(row[start - 1] == " " and row[start] != " " for row in rows)
