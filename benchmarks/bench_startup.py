"""Start-up and one real event, in fresh processes (issue 13), each next to its baseline measured
in the same run (best of a few, interleaved, so the machine's load hits both alike):

- ``calc``, ``table``, ``performance``, ``--help``, ``--version`` against
  ``python -c "import numpy"`` (target: at most 3x);
- ``fiderate rate`` of one real event (../shared/trf/karl-mala-2005.trf, 283 players) with every
  default output (games.csv, rating_list.csv/.xlsx, report.xlsx, report.html with its charts)
  against ``python -c "import pandas, pyarrow"`` (target: at most 4x). Skipped when ../shared is
  absent.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EVENT = ROOT.parent / "shared" / "trf" / "karl-mala-2005.trf"
CLI = [sys.executable, "-m", "pipeline"]

SMALL = {
    "calc 1650 --vs 1800:1": ["calc", "1650", "--vs", "1800:1"],
    "table": ["table"],
    "performance --vs 1800:1 --vs 1900:0.5": ["performance", "--vs", "1800:1", "--vs", "1900:0.5"],
    "--help": ["--help"],
    "--version": ["--version"],
}


def seconds(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def best_of(commands: dict[str, list[str]], repeat: int) -> dict[str, float]:
    """Each command's best time over ``repeat`` rounds, the commands interleaved in each round."""
    best = dict.fromkeys(commands, float("inf"))
    for _ in range(repeat):
        for name, command in commands.items():
            best[name] = min(best[name], seconds(command))
    return best


def report(rows: dict[str, float], baseline: str, target: float) -> None:
    base = rows[baseline]
    for name, value in rows.items():
        ratio = value / base
        mark = "" if name == baseline else ("  ok" if ratio <= target else f"  over {target:g}x")
        print(f"  {name:<48} {value:7.2f} s {ratio:6.2f}x{mark}")


def main(quick: bool) -> None:
    repeat = 2 if quick else 5
    print(f"small commands, fresh process (best of {repeat}); target <= 3x the baseline")
    base = 'python -c "import numpy"'
    commands = {base: [sys.executable, "-c", "import numpy"]}
    commands.update({f"fiderate {k}": CLI + v for k, v in SMALL.items()})
    report(best_of(commands, repeat), base, 3)

    if not EVENT.is_file():
        print(f"one real event: skipped ({EVENT} is absent)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        print(f"\none real event, every default output (best of {repeat}); target <= 4x")
        base = 'python -c "import pandas, pyarrow"'
        rows = best_of(
            {
                base: [sys.executable, "-c", "import pandas, pyarrow"],
                f"fiderate rate {EVENT.name} (283 players)": [
                    *CLI,
                    "rate",
                    str(EVENT),
                    "--out",
                    str(Path(tmp) / "out"),
                    "--quiet",
                ],
            },
            repeat,
        )
        report(rows, base, 4)
        written = sorted(p.name for p in (Path(tmp) / "out").iterdir())
        print(f"  outputs: {', '.join(written)}")
