"""A year of monthly standard, rapid and blitz lists published into one history (issue 36): the
files and the history tests/history/test_history_three_kinds_year.py and
tests/rating_site/test_site_three_kinds.py check, built once per test run (tests/conftest.py's
``three_kinds_year``: thirty-six period runs, the costliest fixture of the suite)."""

from __future__ import annotations

import csv
import random
from pathlib import Path

from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.rules.months import add_months
from pipeline.rules.rating_kinds import KINDS

MONTHS = [f"2026-{m:02d}" for m in range(1, 13)]
PLAYERS = [f"91000{i:02d}" for i in range(1, 9)]
NEWCOMER = "9100099"  # plays rapid in January only: too few games for a first rating
# The same players on three lists, rated differently on each (a list read for the wrong kind
# would show it).
OFFSET = {"standard": 0, "rapid": 37, "blitz": -23}
HEADER = ["id", "name", "rating", "k", "birth_year", "games", "ever_2400", "federation", "title",
          "sex", "last_played"]  # fmt: skip


def first_list(path: Path, kind: str) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(HEADER)
        for i, pid in enumerate(PLAYERS):
            rating = 1700 + 80 * i + OFFSET[kind]
            out.writerow([pid, f"Player {i}", rating, "", 1970 + i, 100 + i, "false", "FRA", "",
                          "m", "2025-12"])  # fmt: skip
    return path


def month_events(folder: Path, kind: str, month: str) -> Path:
    """Four games of the month among the players (seeded by kind and month); the newcomer's
    games in January's rapid event."""
    rng = random.Random(f"{kind} {month}")
    folder.mkdir(parents=True)
    lines = ["event,round,date,white,black,result"]
    for game in range(4):
        white, black = rng.sample(PLAYERS, 2)
        result = rng.choice(["1-0", "0-1", "1/2-1/2"])
        lines.append(f"{kind} {month},{game + 1},{month}-1{game},{white},{black},{result}")
    if kind == "rapid" and month == MONTHS[0]:
        lines += [
            f"{kind} {month},{5 + g},{month}-20,{NEWCOMER},{PLAYERS[g]},1-0" for g in range(3)
        ]
    (folder / "games.csv").write_text("\n".join(lines) + "\n")
    return folder


def read_list(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return {row["id"]: row for row in csv.DictReader(fh)}


def number(text: str) -> int | None:
    return int(text) if text not in ("", None) else None


def build_year(root: Path) -> None:
    """January to December into ``root``, each month the three kinds in turn, each kind's files
    in its own folder; the history is ``root/ratings.db``."""
    db = root / "ratings.db"
    lists = {kind: first_list(root / f"{kind}_2026-01.csv", kind) for kind in KINDS}
    for month in MONTHS:
        for kind in KINDS:
            events = month_events(root / "events" / kind / month, kind, month)
            out = root / kind
            run_period(
                PeriodRequest(
                    list_path=lists[kind], events=(events,), period=month, out_dir=out,
                    db_path=db, rules=kind, xlsx=False,
                )
            )  # fmt: skip
            lists[kind] = out / f"rating_list_{add_months(month, 1)}.csv"
