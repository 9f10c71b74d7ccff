"""Reports name input files by file name, not by the path given (issue 26 #15)."""

from __future__ import annotations

import shutil
import zipfile

from pipeline.file_names import shown_name, shown_names
from tests.conftest import SAMPLE, run_cli


def test_a_path_is_shown_by_its_file_name():
    assert shown_names(["/home/anna/Documents/open-gros-2010-r4.trf"]) == {
        "/home/anna/Documents/open-gros-2010-r4.trf": "open-gros-2010-r4.trf"
    }
    assert shown_name(r"C:\Users\anna\Desktop\games.csv") == "games.csv"


def test_two_files_of_one_name_keep_the_folders_that_tell_them_apart():
    names = shown_names(["/home/a/club-a/games.csv", "/home/a/club-b/games.csv", "/x/e.trf"])
    assert list(names.values()) == ["club-a/games.csv", "club-b/games.csv", "e.trf"]
    # The same path twice is one file.
    assert shown_names(["/a/g.csv", "/a/g.csv"]) == {"/a/g.csv": "g.csv"}


def test_no_written_output_holds_the_folders_of_the_input(tmp_path):
    folder = tmp_path / "home" / "zq-user" / "Private Documents"
    folder.mkdir(parents=True)
    shutil.copy(SAMPLE / "event.trf", folder / "open.trf")
    out = tmp_path / "out"
    done = run_cli("rate", folder / "open.trf", "--out", out, "--player", "4100018")
    assert done.exit_code == 0, done.stderr
    written = sorted(p for p in out.iterdir() if p.is_file())
    assert {p.name for p in written} >= {"report.html", "report.xlsx", "games.csv"}
    for path in written:
        texts = [path.read_bytes()]
        if path.suffix == ".xlsx":
            with zipfile.ZipFile(path) as book:
                texts = [book.read(n) for n in book.namelist()]
        for text in texts:
            assert b"Private Documents" not in text and b"zq-user" not in text, path.name
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "from open.trf" in html and "open.trf ends 2026-11-21" in html
    assert ",open.trf," in (out / "games.csv").read_text(encoding="utf-8")


def test_no_period_output_holds_the_folders_of_the_events(tmp_path):
    """The period's files are published too: its breakdown names each event by file name."""
    events = tmp_path / "home" / "zq-user" / "Private Documents" / "events"
    shutil.copytree(SAMPLE / "period" / "events", events)
    out = tmp_path / "out"
    done = run_cli(
        "period",
        "--list",
        SAMPLE / "period" / "list_2026-11.csv",
        "--events",
        events,
        "--period",
        "2026-11",
        "--out",
        out,
    )
    assert done.exit_code == 0, done.stderr
    written = sorted(p for p in out.iterdir() if p.is_file() and p.suffix != ".db")
    assert any(p.name.startswith("breakdown_") for p in written)
    for path in written:
        texts = [path.read_bytes()]
        if path.suffix == ".xlsx":
            with zipfile.ZipFile(path) as book:
                texts = [book.read(n) for n in book.namelist()]
        for text in texts:
            assert b"Private Documents" not in text and b"zq-user" not in text, path.name
    breakdown = next(out.glob("breakdown_*.csv")).read_text(encoding="utf-8")
    assert ",club_championship.csv," in breakdown
