"""A FIDE-scale month (issue 13): FIDE's combined TXT list (1.9 M players), 1 M games in 200
event files. ``fiderate rate`` of the events against the list, and ``fiderate period`` (rate,
first ratings, the next list in CSV and TXT, the report and the SQLite history), each in its
own process (its own peak memory), against the I/O floor measured in the same run: pyarrow
reading the list's lines and the event CSVs, and writing a list and a games file of the same
sizes. Targets: at most 12x the floor, peak under 2.5 GB.

    python -m benchmarks fide_month       BENCH_QUICK=1: 190,000 players, 100,000 games, 20 events
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

from benchmarks.fide_list_data import write_txt

FIRST_ID = 100_000  # fide_list_data numbers players from here


def generate(root: Path, players: int, games: int, events: int, seed: int = 11) -> Path:
    """Event CSVs: nine rounds each, every player at most once per round (no duplicate games)."""
    rng = np.random.default_rng(seed)
    folder = root / "events"
    folder.mkdir()
    per_file = games // events
    per_round = -(-per_file // 9)
    results = np.array(["1-0", "0-1", "1/2-1/2"])
    for e in range(events):
        lines = []
        for r in range(9):
            size = min(per_round, per_file - r * per_round)
            picked = rng.choice(players, 2 * size, replace=False) + FIRST_ID
            res = results[rng.integers(0, 3, size)]
            lines += [
                f"Event {e},{r + 1},2026-11-{1 + e % 28:02d},{w},{b},{x}\n"
                for w, b, x in zip(picked[:size].tolist(), picked[size:].tolist(), res, strict=True)
            ]
        (folder / f"event_{e:03d}.csv").write_text(
            "event,round,date,white,black,result\n" + "".join(lines), encoding="utf-8"
        )
    return folder


def floor(list_path: Path, events: Path, out: Path) -> None:
    """Read the list's lines and the event CSVs; write a list and a games file of their sizes."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    lines = pacsv.read_csv(
        list_path,
        read_options=pacsv.ReadOptions(column_names=["line"]),
        parse_options=pacsv.ParseOptions(delimiter="\x01", quote_char=False),
    )
    tables = [pacsv.read_csv(p) for p in sorted(events.iterdir())]
    games = pa.concat_tables(tables)
    out.mkdir(parents=True, exist_ok=True)
    pacsv.write_csv(lines, out / "list.txt")
    # games.csv carries two rows per game with about 20 columns: write that many cells.
    sides = pa.concat_tables([games, games])
    wide = pa.table({f"c{i}": sides.column(i % sides.num_columns) for i in range(20)})
    pacsv.write_csv(wide, out / "games.csv")


def child(mode: str, list_path: str, events: str, out: str) -> None:
    """Runs in its own process: one measurement, printed as JSON."""
    start = time.perf_counter()
    laps: dict[str, list[float]] = {}
    files = sorted(str(p) for p in Path(events).iterdir())
    if mode == "floor":
        floor(Path(list_path), Path(events), Path(out))
    elif mode == "rate":
        from pipeline.jobs.rate.outputs import write_outputs
        from pipeline.jobs.rate.stages import rate_files
        from pipeline.model import RateOptions
        from pipeline.resources.memory import prefer_jemalloc

        prefer_jemalloc()  # as ``fiderate rate`` does (run_period does it itself)
        result = rate_files(files, list_path, RateOptions(period="2026-11"))
        write_outputs(result, out)
    else:
        from pipeline.jobs.period import PeriodRequest, run_period

        outcome = run_period(
            PeriodRequest(
                list_path=Path(list_path),
                events=(Path(events),),
                period="2026-11",
                out_dir=Path(out),
            )
        )
        laps = {k: [v, outcome.peaks.get(k, 0.0)] for k, v in outcome.timings.items()}
    seconds = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(json.dumps({"seconds": seconds, "peak_mib": peak_kib / 1024, "laps": laps}))


def measure(mode: str, list_path: Path, events: Path, out: Path) -> dict:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.bench_fide_month",
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
    players, games, events = (190_000, 100_000, 20) if quick else (1_900_000, 1_000_000, 200)
    root = Path(tempfile.mkdtemp(prefix="bench_fide_month_"))
    try:
        t0 = time.perf_counter()
        list_path = root / "players_list_foa.txt"
        write_txt(list_path, players)
        folder = generate(root, players, games, events)
        print(
            f"generated a {players:,}-player TXT list and {games:,} games in {events} event "
            f"files ({time.perf_counter() - t0:.1f} s)"
        )
        figures = {}
        for mode in ("floor", "rate", "period"):
            figures[mode] = f = measure(mode, list_path, folder, root / f"out_{mode}")
            ratio = f["seconds"] / figures["floor"]["seconds"]
            verdict = "" if mode == "floor" else ("  ok" if ratio <= 12 else "  over 12x")
            memory = "" if mode == "floor" else ("" if f["peak_mib"] < 2500 else "  over 2.5 GB")
            print(
                f"  {mode:<7} {f['seconds']:8.1f} s {ratio:6.1f}x floor{verdict}   "
                f"peak RSS {f['peak_mib']:6.0f} MiB{memory}",
                flush=True,
            )
            for stage, (seconds, peak) in f.get("laps", {}).items():
                print(f"      {stage:<34} {seconds:7.1f} s   peak so far {peak:6.0f} MiB")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    child(*sys.argv[1:5])
