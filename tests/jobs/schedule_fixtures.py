"""Shared by the scheduled-run tests: the command lines of docs/scheduling.md, small synthetic
events, and a snapshot of an output folder and its history (the audit log left out)."""

from __future__ import annotations

import hashlib
import random
import re
import shlex
import sqlite3
from pathlib import Path

from tests.period_files import write_event, write_list

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "scheduling.md"

# Rated players 100001..100010 (1500..2400) and one unrated player who collects games.
RATED = [f"1000{i:02d}" for i in range(1, 11)]
UNRATED = "200001"


def cron_words() -> list[str]:
    """The arguments of the cron line in docs/scheduling.md (after ``cd DIR && fiderate``):
    the tests run exactly this command."""
    block = re.search(r"```cron\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block is not None, "docs/scheduling.md has a cron block"
    fields = block.group(1).strip().split(None, 5)  # five time fields, then the command
    cd, sep, line = fields[5].partition(" && ")
    assert sep and cd.startswith("cd "), fields[5]
    words = shlex.split(line)
    assert words[0] == "fiderate", words
    return words[1:]


def first_run_words() -> list[str]:
    """The arguments of the documented first run (the sh block after ``cd``)."""
    block = re.search(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block is not None
    lines = block.group(1).strip().splitlines()
    assert lines[0].startswith("cd "), lines
    words = shlex.split(lines[1])
    assert words[0] == "fiderate", words
    return words[1:]


def ini_blocks() -> list[str]:
    return re.findall(r"```ini\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def write_first_list(path: Path) -> Path:
    players = {
        pid: {"rating": 1500 + 100 * i, "birth": 1990, "games": 60, "federation": "NED"}
        for i, pid in enumerate(RATED)
    }
    players[UNRATED] = {"federation": "NED"}
    return write_list(path, players)


def write_games(path: Path, name: str, day: str, seed: int, changed: bool = False) -> Path:
    """An event of 6 games on ``day`` among the rated players and the unrated one (drawn from
    ``seed``); ``changed``: the same event with its last result corrected."""
    rng = random.Random(seed)
    players = [*RATED, UNRATED]
    games = []
    for _ in range(6):
        white, black = rng.sample(players, 2)
        games.append((white, black, rng.choice(["1-0", "0-1", "1/2-1/2"])))
    if changed:
        white, black, result = games[-1]
        games[-1] = (white, black, "0-1" if result != "0-1" else "1-0")
    return write_event(path, {"name": name, "start": day, "games": games})


def snapshot(out: Path) -> tuple[dict[str, str], list[str]]:
    """Every file's sha256 but the database's and its lock file's (a killed run leaves the
    empty lock file; the lock itself is gone with the process), and the database as SQL
    without the audit log (``runs``: a run that does nothing may add its row there)."""
    files = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.iterdir())
        if p.is_file() and p.name not in ("ratings.db", ".ratings.db.lock")
    }
    con = sqlite3.connect(out / "ratings.db")
    try:
        dump = [line for line in con.iterdump() if not line.startswith('INSERT INTO "runs"')]
    finally:
        con.close()
    return files, dump
