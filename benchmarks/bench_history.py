"""The history stage alone (issue 13): CPU and wall seconds of storing a 1.9 M-row list in force
and the published list with 65% of the players changed (``insert_list``, in one transaction as
``record_run`` does), then a second period's published list over the same list in force, and
reading back: ``last_played``, ``player_history`` of one player, ``list_rows`` of the published
list; the database's size. Synthetic frames (no files read), so any version of the store that
has these functions can be measured the same way. The baseline, measured in the same run:
pyarrow writing the list in force's rows to one zstd-compressed Arrow IPC file (what storing a
list costs without hashing, comparing or SQLite).

    python -m benchmarks history                     (make bench; BENCH_QUICK=1: 190,000 players)
    python -m benchmarks.bench_history [PLAYERS]     (default 1,900,000)
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def list_in_force(n: int, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    ids = (np.arange(n) + 100_000).astype(str)
    rated = rng.random(n) < 0.42

    def ints(values: np.ndarray, present: np.ndarray) -> pd.arrays.IntegerArray:
        array = pd.array(values, dtype="Int64")
        array[~present] = pd.NA
        return array

    return pd.DataFrame(
        {
            "id": pd.Series(ids, dtype=str),
            "name": pd.Series(np.char.add("Player, Number ", ids), dtype=str),
            "federation": pd.Series(rng.choice(["GER", "FRA", "ESP", "IND", "USA"], n), dtype=str),
            "sex": pd.Series(rng.choice(["m", "w"], n), dtype=str),
            "title": pd.Series(np.where(rng.random(n) < 0.05, "FM", ""), dtype=str),
            "birth_year": ints(rng.integers(1940, 2020, n), rng.random(n) < 0.9),
            "rating": ints(rng.integers(1400, 2800, n), rated),
            "period_games": pd.array([pd.NA] * n, dtype="Int64"),
            "games": ints(rng.integers(0, 100, n), rated),
            "k": ints(rng.choice([10, 20, 40], n), rated),
            "ever_2400": rng.random(n) < 0.02,
            "flags": pd.Series(rng.choice(["", "", "", "i", "w", "wi"], n), dtype=str),
            "last_played": pd.Series(np.where(rng.random(n) < 0.5, "2026-10", ""), dtype=str),
        }
    )


def published(in_force: pd.DataFrame, share: float, seed: int) -> pd.DataFrame:
    """``share`` of the players played (rating, games, period_games changed), the rest 0."""
    rng = np.random.default_rng(seed)
    n = len(in_force)
    played = rng.random(n) < share
    new = in_force.copy()
    games = rng.integers(1, 10, n)
    new["period_games"] = pd.array(np.where(played, games, 0), dtype="Int64")
    rating = in_force["rating"].fillna(1500).to_numpy(dtype=np.int64)
    new["rating"] = pd.array(np.where(played, rating + rng.integers(-20, 20, n), rating))
    new["rating"] = new["rating"].where(played | in_force["rating"].notna(), pd.NA)
    new["games"] = pd.array(np.where(played, games, in_force["games"].fillna(0)), dtype="Int64")
    return new


def baseline(rows: pd.DataFrame, folder: Path) -> float:
    """Wall seconds of pyarrow writing ``rows`` as one zstd Arrow IPC file."""
    import pyarrow as pa

    start = time.perf_counter()
    table = pa.Table.from_pandas(rows, preserve_index=False)
    options = pa.ipc.IpcWriteOptions(compression="zstd")
    with pa.ipc.new_file(str(folder / "rows.arrow"), table.schema, options=options) as writer:
        writer.write_table(table)
    return time.perf_counter() - start


def main(quick: bool) -> None:
    measure(190_000 if quick else 1_900_000)


def measure(players: int) -> None:
    from pipeline.history.store import (
        connect,
        insert_list,
        insert_run,
        last_played,
        list_rows,
        player_history,
    )

    in_force = list_in_force(players)
    first, second = published(in_force, 0.65, 2), published(in_force, 0.65, 3)
    with tempfile.TemporaryDirectory() as folder:
        floor = baseline(in_force, Path(folder))
        path = Path(folder) / "h.db"
        con = connect(path)
        steps: list[tuple[str, float, float]] = []

        def step(name: str, work) -> object:  # type: ignore[no-untyped-def]
            cpu, wall = _cpu(), time.perf_counter()
            result = work()
            steps.append((name, _cpu() - cpu, time.perf_counter() - wall))
            return result

        run = insert_run(con, started_at="s", finished_at="f", user="u", command="c",
                         period="2026-11", outcome="published")  # fmt: skip

        def insert(kind: str, month: str, period: str | None, rows: pd.DataFrame, over=None):  # type: ignore[no-untyped-def]
            return lambda: insert_list(con, run, kind, month, period, "f", month, rows, over=over)

        con.execute("BEGIN IMMEDIATE")
        step("list in force", insert("input", "2026-11", None, in_force))
        one = step("published list, 65% changed", insert("published", "2026-12", "2026-11",
                                                         first, in_force))  # fmt: skip
        step("commit", lambda: con.execute("COMMIT"))
        con.execute("BEGIN IMMEDIATE")
        step("second published list", insert("published", "2027-01", "2026-12", second, in_force))
        con.execute("COMMIT")
        step("last_played", lambda: last_played(con))
        step("player_history (one player)", lambda: player_history(con, "1234567"))
        step("list_rows (published list)", lambda: list_rows(con, one))
        con.close()
        size = path.stat().st_size
    print(f"  {players:,} players; baseline (pyarrow, zstd IPC file of the list) {floor:.2f} s")
    for name, cpu, wall in steps:
        print(f"  {name:<30} cpu {cpu:6.2f} s   wall {wall:6.2f} s   {wall / floor:6.1f}x baseline")
    print(f"  database {size / 2**20:8.1f} MiB")


if __name__ == "__main__":
    measure(int(sys.argv[1]) if len(sys.argv) > 1 else 1_900_000)
