"""Writers of small period-run inputs for tests: a list CSV and one-event games CSVs."""

from __future__ import annotations

import csv
from pathlib import Path

LIST_HEADER = [
    "id",
    "name",
    "rating",
    "k",
    "birth_year",
    "games",
    "ever_2400",
    "federation",
    "title",
    "sex",
    "last_played",
]


def write_list(path: Path, players: dict[str, dict]) -> Path:
    """players: id -> {name, rating|None, birth|None, games|None, ever, federation, title, sex,
    last}; missing keys are blank."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(LIST_HEADER)
        for pid, p in players.items():
            w.writerow(
                [
                    pid,
                    p.get("name", f"Player {pid}"),
                    "" if p.get("rating") is None else p["rating"],
                    "",
                    "" if p.get("birth") is None else p["birth"],
                    "" if p.get("games") is None else p["games"],
                    "true" if p.get("ever") else "false",
                    p.get("federation", ""),
                    p.get("title", ""),
                    p.get("sex", ""),
                    p.get("last", ""),
                ]
            )
    return path


def write_event(path: Path, event: dict) -> Path:
    """event: {name, start (YYYY-MM-DD), games: [(white, black, result)]}."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["event", "round", "date", "white", "black", "result"])
        for i, (a, b, res) in enumerate(event["games"], start=1):
            w.writerow([event["name"], i, event["start"], a, b, res])
    return path


def read_rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return {row["id"]: row for row in csv.DictReader(fh)}
