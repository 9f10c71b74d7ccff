"""Reading one big event as a games CSV (+ players CSV), a TRF and a crosstable CSV.

Figures: games per second for each format and the ratio to the games CSV read in the same run
(the baseline: the format with the fewest steps). Sizes: 5,000 players x 11 rounds (27,500
games); quick: 600 players.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.jobs.rate.stages import read_inputs
from pipeline.model import EventInfo
from pipeline.writers.text.trf_writer import event_trf

RESULTS = np.array(["1-0", "0-1", "1/2-1/2"])
HALVES = {"1-0": (100, 0), "0-1": (0, 100), "1/2-1/2": (50, 50)}
CELL = {100: "1", 50: "½", 0: "0"}


def make_event(players: int, rounds: int, seed: int = 7) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    ids = (4_000_000 + np.arange(players) * 11).astype(str)
    people = pd.DataFrame(
        {
            "id": ids,
            "name": [f"Player {i}" for i in range(players)],
            "rating": pd.array(rng.integers(1400, 2700, players), dtype="Int64"),
            "birth_year": pd.array(rng.integers(1950, 2015, players), dtype="Int64"),
            "federation": "GER",
            "title": "",
            "sex": "m",
        }
    )
    parts = []
    for r in range(1, rounds + 1):
        order = rng.permutation(players)
        white, black = ids[order[0::2]], ids[order[1::2]]
        result = RESULTS[rng.integers(0, 3, len(white))]
        parts.append(
            pd.DataFrame(
                {
                    "event": "Bench Open",
                    "round": str(r),
                    "white": white,
                    "black": black,
                    "result": result,
                }
            )
        )
    games = pd.concat(parts, ignore_index=True)
    return games, people


def write_files(folder: Path, games: pd.DataFrame, people: pd.DataFrame) -> dict[str, list]:
    games.to_csv(folder / "games.csv", index=False)
    people.to_csv(folder / "players.csv", index=False)
    full = games.assign(
        white_h=games["result"].map(lambda r: HALVES[r][0]),
        black_h=games["result"].map(lambda r: HALVES[r][1]),
        played=True,
        date=pd.Series(pd.NA, index=games.index, dtype="string"),
    )
    byes = pd.DataFrame(columns=["player", "event", "round", "date", "score_h", "code"])
    trf = event_trf(full, byes, people, EventInfo(name="Bench Open"))
    (folder / "event.trf").write_text(trf.text, encoding="utf-8")
    # Crosstable: starting number = row number, cells "12w1".
    sno = pd.Series(np.arange(1, len(people) + 1), index=people["id"])
    cells = pd.DataFrame(index=people["id"])
    for r, rows in full.groupby(full["round"].astype(int)):
        col = pd.Series("", index=people["id"])
        col[rows["white"].to_numpy()] = (
            sno[rows["black"]].astype(str).to_numpy() + "w" + rows["white_h"].map(CELL).to_numpy()
        )
        col[rows["black"].to_numpy()] = (
            sno[rows["white"]].astype(str).to_numpy() + "b" + rows["black_h"].map(CELL).to_numpy()
        )
        cells[f"Rd{r}"] = col.to_numpy()
    table = pd.DataFrame(
        {
            "No": sno.to_numpy(),
            "Name": people["name"].to_numpy(),
            "Rtg": people["rating"].to_numpy(),
            "FIDE ID": people["id"].to_numpy(),
        }
    )
    pd.concat([table, cells.reset_index(drop=True)], axis=1).to_csv(
        folder / "crosstable.csv", index=False
    )
    return {
        "games CSV + players CSV": [[folder / "games.csv"], folder / "players.csv"],
        "TRF": [[folder / "event.trf"], None],
        "crosstable CSV": [[folder / "crosstable.csv"], None],
    }


def best_of(runs: int, paths: list, players: Path | None) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        read_inputs(paths, players)
        best = min(best, time.perf_counter() - start)
    return best


def main(quick: bool) -> None:
    players, rounds = (600, 11) if quick else (5000, 11)
    games, people = make_event(players, rounds)
    with tempfile.TemporaryDirectory() as tmp:
        cases = write_files(Path(tmp), games, people)
        runs = 2 if quick else 3
        times = {name: best_of(runs, paths, plist) for name, (paths, plist) in cases.items()}
    base = times["games CSV + players CSV"]
    print(f"{players:,} players x {rounds} rounds = {len(games):,} games; best of {runs} runs")
    print(f"{'format':<26}{'seconds':>9}{'games/s':>12}{'vs games CSV':>14}")
    for name, seconds in times.items():
        print(f"{name:<26}{seconds:>9.3f}{len(games) / seconds:>12,.0f}{seconds / base:>13.2f}x")
