"""Helpers shared by the report tests: rate a small event into a folder once per module."""

from __future__ import annotations

import csv
from pathlib import Path

from tests.conftest import run_cli


def rate_into(
    out: Path, *inputs: Path, players: Path | None = None, extra: tuple[str, ...] = ()
) -> str:
    args = ["rate", *map(str, inputs), "--period", "2026-11", "--out", str(out), *extra]
    if players is not None:
        args += ["--players", str(players)]
    result = run_cli(*args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def junior_event(folder: Path) -> tuple[Path, Path]:
    """A junior (K 40) playing 18 games in the period: the 700 rule gives K 38."""
    folder.mkdir(parents=True, exist_ok=True)
    players = folder / "players.csv"
    players.write_text(
        "id,name,rating,birth_year,games\n"
        "1,Young Junior,1500,2012,50\n"
        "2,Steady Opponent,1500,1980,400\n",
        encoding="utf-8",
    )
    games = folder / "games.csv"
    rows = ["event,round,white,black,result"]
    rows += [f"Junior Cup,{r},1,2,1/2-1/2" for r in range(1, 19)]
    games.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return games, players
