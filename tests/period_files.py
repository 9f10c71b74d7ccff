"""Writers of small period-run inputs for tests: a list CSV and one-event games CSVs."""

from __future__ import annotations

import csv
from pathlib import Path

from pipeline.grouper.totals import PLAYER_INFO

# The players columns the grouper reads, then those of a published list.
LIST_HEADER = [*PLAYER_INFO, "sex", "last_played"]


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


def trf_player(
    sno: int,
    name: str,
    rating: int | None,
    fed: str,
    fide_id: str,
    birth: str,
    points: str,
    rounds: list[tuple[int, str, str] | None],
    sex: str = "m",
    rank: int | None = None,
) -> str:
    """One TRF 001 record at the columns of TRF.md; rounds: (opponent sno, colour, result), or
    None for a round the player has no entry in."""
    line = (
        f"001 {sno:>4} {sex:1}{'':3} {name:<33} {'' if rating is None else rating:>4} {fed:<3} "
        f"{fide_id:>11} {birth:<10} {points:>4} {sno if rank is None else rank:>4}  "
    )
    for cell in rounds:
        line += "          " if cell is None else f"{cell[0]:>4} {cell[1]} {cell[2]}  "
    return line.rstrip()


def write_trf(path: Path, header: dict[str, str], players: list[str]) -> Path:
    lines = [f"{tag} {value}" for tag, value in header.items()] + players
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
