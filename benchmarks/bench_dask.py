"""The Dask engine on a big period from Parquet parts: time and peak memory of the process tree.

Generates (seeded) GAMES games among PLAYERS players as Parquet parts of PART_GAMES games, then
runs ``fiderate rate games/ --players players.parquet --engine dask --output-format parquet`` in
a subprocess (a local cluster of one worker process per core) while a thread samples the RSS of
that process and all its descendants (the workers) every 0.1 s. The baseline, measured in the same
run on the first part alone: the pandas engine on the same files.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.process_tree import run_measured_tree
from benchmarks.synthetic import write_period

GAMES = 20_000_000
QUICK_GAMES = 1_000_000
PLAYERS = 200_000  # a national federation's list; every worker holds it (broadcast)
PART_GAMES = 250_000


def run_measured(command: list[str]) -> tuple[float, float]:
    """(seconds, peak resident size of the whole process tree in MiB, sampled every 0.1 s)."""
    found = run_measured_tree(command, every=0.1)
    return found.seconds, found.peak / 2**20


def main(quick: bool) -> None:
    games = QUICK_GAMES if quick else GAMES
    players = min(PLAYERS, games // 10)
    fiderate = str(Path(sys.executable).with_name("fiderate"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        parts, players_path = write_period(
            folder, games, players, seed=1, fmt="parquet", parts=max(games // PART_GAMES, 1)
        )
        print(
            f"generated {games:,} games among {players:,} players in {len(parts)} Parquet parts "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
        common = [
            "--players",
            str(players_path),
            "--period",
            "2026-11",
            "--output-format",
            "parquet",
            "--quiet",
            "--no-xlsx",
            "--no-html",
        ]
        rows = []
        base_s, base_mb = run_measured(
            [fiderate, "rate", str(parts[0]), *common, "--out", str(folder / "p")]
        )
        rows.append(
            ("pandas (1 part)", PART_GAMES if games >= PART_GAMES else games, base_s, base_mb)
        )
        dask_s, dask_mb = run_measured(
            [
                fiderate,
                "rate",
                str(folder / "games"),
                *common,
                "--engine",
                "dask",
                "--out",
                str(folder / "d"),
            ]
        )
        rows.append((f"dask ({os.cpu_count()} workers)", games, dask_s, dask_mb))
    print(f"{'engine':>22} {'games':>12} {'seconds':>8} {'games/s':>10} {'peak MB':>8}")
    for name, n, seconds, mb in rows:
        print(f"{name:>22} {n:>12,} {seconds:>8.1f} {n / seconds:>10,.0f} {mb:>8.0f}")
    print(
        f"dask/pandas games/s: {(games / dask_s) / (rows[0][1] / base_s):.2f}; "
        f"peak MB is the RSS of the command and all its worker processes, sampled every 0.1 s; "
        f"time includes starting the local cluster, reading and checking every part, writing "
        f"rating_list.parquet and games/part-*.parquet."
    )


if __name__ == "__main__":
    main(bool(os.environ.get("BENCH_QUICK")))
