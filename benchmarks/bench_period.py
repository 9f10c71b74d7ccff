"""A whole rating period end to end: read the list and the events, rate, first ratings, write the
next list (CSV, TXT) and the report, and store everything in the SQLite history.

Full size: 100,000 players and 1,000,000 games in 50 event files. Each measurement runs in its own
process, so its peak memory (ru_maxrss) is its own. Baselines measured in the same run:
- ``read``: only reading and validating the same input files (the floor for any period run);
- ``rate``: the plain ``fiderate rate`` path on the same files (rate + rating_list/games CSV).

    python -m benchmarks period            BENCH_QUICK=1: 10,000 players, 100,000 games
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

EVENT_FILES = 50


def generate(root: Path, players: int, games: int, seed: int = 7) -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    ids = np.arange(1_000_000, 1_000_000 + players).astype(str)
    ratings = rng.integers(1400, 2800, players).astype(object)
    unrated = rng.random(players) < 0.05
    ratings[unrated] = ""
    birth = rng.integers(1950, 2016, players)
    count = rng.integers(0, 900, players)
    list_path = root / "list.csv"
    with list_path.open("w", encoding="utf-8") as fh:
        fh.write("id,name,rating,k,birth_year,games,ever_2400,federation,title,sex\n")
        for i in range(players):
            fh.write(f"{ids[i]},Player {i},{ratings[i]},,{birth[i]},{count[i]},false,ENG,,m\n")
    events = root / "events"
    events.mkdir()
    per_file = games // EVENT_FILES
    results = np.array(["1-0", "0-1", "1/2-1/2"])
    for e in range(EVENT_FILES):
        # Nine rounds; each player at most once per round (no duplicate games).
        per_round = -(-per_file // 9)
        white, black, rounds = [], [], []
        for r in range(9):
            size = min(per_round, per_file - r * per_round)
            picked = rng.choice(players, 2 * size, replace=False)
            white.append(picked[:size])
            black.append(picked[size:])
            rounds.append(np.full(size, r + 1))
        white, black, rounds = np.concatenate(white), np.concatenate(black), np.concatenate(rounds)
        res = results[rng.integers(0, 3, per_file)]
        day = 1 + e % 28
        with (events / f"event_{e:03d}.csv").open("w", encoding="utf-8") as fh:
            fh.write("event,round,date,white,black,result\n")
            prefix = f"Event {e},"
            date = f",2026-11-{day:02d},"
            lines = [
                f"{prefix}{r}{date}{ids[w]},{ids[b]},{x}\n"
                for r, w, b, x in zip(rounds, white, black, res, strict=True)
            ]
            fh.writelines(lines)
    return list_path, events


def child(mode: str, list_path: str, events: str, out: str) -> None:
    """Runs in its own process: one measurement, printed as JSON."""
    start = time.perf_counter()
    laps: dict[str, list[float]] = {}
    files = sorted(str(p) for p in Path(events).iterdir())
    if mode == "read":
        from pipeline.jobs.rate.stages import read_inputs

        read_inputs(files, list_path)
    elif mode == "rate":
        from pipeline.jobs.rate.outputs import write_outputs
        from pipeline.jobs.rate.stages import rate_files
        from pipeline.model import RateOptions

        result = rate_files(files, list_path, RateOptions(period="2026-11"))
        write_outputs(result, out, xlsx=False)
    else:
        from pipeline.jobs.period import PeriodRequest, run_period

        outcome = run_period(
            PeriodRequest(
                list_path=Path(list_path),
                events=(Path(events),),
                period="2026-11",
                out_dir=Path(out),
                xlsx=False,
            )
        )
        laps = {k: [v, outcome.peaks.get(k, 0.0)] for k, v in outcome.timings.items()}
    seconds = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(json.dumps({"seconds": seconds, "peak_mib": peak_kib / 1024, "laps": laps}))


def measure(mode: str, list_path: Path, events: Path, out: Path) -> dict[str, float]:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.bench_period",
            mode,
            str(list_path),
            str(events),
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"{mode} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(quick: bool) -> None:
    players, games = (10_000, 100_000) if quick else (100_000, 1_000_000)
    root = Path(tempfile.mkdtemp(prefix="bench_period_"))
    try:
        t0 = time.perf_counter()
        list_path, events = generate(root, players, games)
        print(
            f"generated {players:,} players, {games:,} games in {EVENT_FILES} event files "
            f"({time.perf_counter() - t0:.1f} s)"
        )
        figures = {}
        for mode in ("read", "rate", "period"):
            figures[mode] = measure(mode, list_path, events, root / f"out_{mode}")
            f = figures[mode]
            print(
                f"  {mode:<7} {f['seconds']:8.1f} s   peak RSS {f['peak_mib']:8.0f} MiB", flush=True
            )
            for stage, (seconds, peak) in f.get("laps", {}).items():
                print(f"      {stage:<34} {seconds:7.1f} s   peak so far {peak:6.0f} MiB")
        db = root / "out_period" / "ratings.db"
        print(f"  history database: {db.stat().st_size / 2**20:.1f} MiB")
        p, r, b = figures["period"], figures["rate"], figures["read"]
        print(
            f"period / rate: time x{p['seconds'] / r['seconds']:.2f}, "
            f"memory x{p['peak_mib'] / r['peak_mib']:.2f}"
        )
        print(
            f"period / read: time x{p['seconds'] / b['seconds']:.2f}, "
            f"memory x{p['peak_mib'] / b['peak_mib']:.2f}"
        )
        print(f"period throughput: {games / p['seconds']:,.0f} games/s")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    child(*sys.argv[1:5])
