"""The duplicate-event rule (readers/duplicate_events.py): the same games twice, by content."""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import Problem
from pipeline.jobs.rate_stages import check_inputs
from pipeline.readers.duplicate_events import duplicate_events
from tests.conftest import SAMPLE

HEAD = "event,round,date,white,black,result\n"
GAMES = [
    "Open,1,2026-11-01,1,2,1-0",
    "Open,1,2026-11-01,3,4,1/2-1/2",
    "Open,2,2026-11-02,2,3,0-1",
    "Open,2,2026-11-02,4,1,1-0",
]


def _write(path: Path, rows: list[str], newline: str = "\n") -> Path:
    path.write_bytes((HEAD + newline.join(rows) + newline).replace("\n", newline).encode())
    return path


def _duplicates(paths: list[Path], players: Path | None = None) -> list[Problem]:
    """The duplicate-event problems ``rate`` and ``validate`` stop on (the players of these
    small files are on no list: the unknown-player problems are left out)."""
    return [p for p in check_inputs(paths, players) if p.code == "duplicate-event"]


def _codes(paths: list[Path]) -> list[tuple[str, str | None]]:
    return [(p.code, p.file) for p in _duplicates(paths)]


def test_a_copy_reordered_renamed_and_crlf_is_the_same_event(tmp_path):
    a = _write(tmp_path / "a.csv", GAMES)
    b = _write(tmp_path / "renamed.csv", GAMES[::-1], newline="\r\n")
    problems = _duplicates([a, b])
    assert [(p.code, p.file) for p in problems] == [("duplicate-event", str(b))]
    assert str(a) in problems[0].message  # both files named


def test_the_same_path_twice_is_refused():
    games = SAMPLE / "games.csv"
    assert _codes([games, games]) == [("duplicate-event", str(games))]


def test_the_same_games_as_trf_and_as_csv_are_one_event():
    trf, csv = SAMPLE / "event.trf", SAMPLE / "games.csv"
    problems = check_inputs([trf, csv], SAMPLE / "players.csv")
    assert [(p.code, p.file) for p in problems] == [("duplicate-event", str(csv))]
    assert "event.trf" in problems[0].message


def test_different_events_sharing_a_game_are_not_duplicates(tmp_path):
    a = _write(tmp_path / "a.csv", GAMES)
    # The same players, another event: one result differs (round 2, 4-1 drawn).
    other = [*GAMES[:3], "Open,2,2026-11-02,4,1,1/2-1/2"]
    b = _write(tmp_path / "b.csv", other)
    # Colours swapped in one game: another game.
    swapped = [*GAMES[:3], "Open,2,2026-11-02,1,4,0-1"]
    c = _write(tmp_path / "c.csv", swapped)
    # Another round for the same pairings.
    later = [g.replace("Open,1,", "Open,3,") for g in GAMES]
    d = _write(tmp_path / "d.csv", later)
    # A subset: the first round again, alone (a shorter event, not the same one).
    e = _write(tmp_path / "e.csv", GAMES[:2])
    assert _codes([a, b, c, d, e]) == []


def test_the_same_one_game_match_on_another_day_is_another_event(tmp_path):
    a = _write(tmp_path / "a.csv", ["Match,1,2026-11-01,1,2,1-0"])
    b = _write(tmp_path / "b.csv", ["Match,1,2026-11-20,1,2,1-0"])
    assert _codes([a, b]) == []
    undated = _write(tmp_path / "c.csv", ["Match,1,,1,2,1-0"])
    assert _codes([a, undated]) == [("duplicate-event", str(undated))]


def test_an_event_inside_a_file_of_several_is_named(tmp_path):
    rows = GAMES + [g.replace("Open", "Rapid").replace(",1,2,", ",5,6,") for g in GAMES]
    both = _write(tmp_path / "both.csv", rows)
    alone = _write(tmp_path / "open.csv", [g.replace("Open", "Open 2026") for g in GAMES])
    problems = _duplicates([both, alone])
    assert [(p.code, p.file) for p in problems] == [("duplicate-event", str(alone))]
    assert "event 'Open'" in problems[0].message


def test_no_games_no_duplicate():
    assert duplicate_events([]) == []


def test_round_numbers_are_compared_as_numbers(tmp_path):
    a = _write(tmp_path / "a.csv", GAMES)
    b = _write(tmp_path / "b.csv", [g.replace("Open,1,", "Open,01,") for g in GAMES])
    assert _codes([a, b]) == [("duplicate-event", str(b))]


def test_a_renamed_trf_of_players_without_fide_ids_is_the_same_event(tmp_path):
    # No FIDE IDs: the players are named <file stem>#<starting rank>, another name per copy.
    lines = (SAMPLE / "event.trf").read_text(encoding="utf-8").splitlines()
    blanked = [ln[:57] + " " * 11 + ln[68:] if ln.startswith("001") else ln for ln in lines]
    first, copy = tmp_path / "open.trf", tmp_path / "open (copy).trf"
    for path in (first, copy):
        path.write_text("\n".join(blanked) + "\n", encoding="utf-8")
    problems = _duplicates([first, copy])
    assert [(p.code, p.file) for p in problems] == [("duplicate-event", str(copy))]
