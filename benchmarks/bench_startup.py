"""Start-up and one real event, in fresh processes (issue 13), each next to its baseline measured
in the same run (best of a few, interleaved, so the machine's load hits both alike):

- ``calc``, ``table``, ``performance``, ``--help``, ``--version`` against
  ``python -c "import numpy"`` (target: at most 3x);
- ``fiderate rate`` of one real event (../shared/trf/karl-mala-2005.trf, 283 players) with every
  default output (games.csv, rating_list.csv/.xlsx, report.xlsx, report.html with its charts)
  against ``python -c "import pandas, pyarrow"`` (target: at most 2.5x, issue 35). Skipped when
  ../shared is absent.

The tree's bytecode is compiled first (as ``make bench`` does): where ``PYTHONDONTWRITEBYTECODE``
is set, a fresh checkout's modules would otherwise be compiled again by every run (about 0.15 s
of CPU for the ~170 modules a ``rate`` run loads), and the figure would time the compiler.

Each row also shows the process's CPU time (user + system, best of the rounds) and its ratio: on
a machine other jobs share, the wall time of a process includes the time it waited for a core,
its CPU time much less so. Where the system does not report a child's CPU time (Windows: os.times
gives 0 for children), the CPU columns say n/a.
"""

from __future__ import annotations

import compileall
import os
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


def seconds(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system of the child) of one run of ``command``."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return wall, cpu


def best_of(commands: dict[str, list[str]], repeat: int) -> dict[str, tuple[float, float]]:
    """Each command's best wall and best CPU time over ``repeat`` rounds, the commands
    interleaved in each round."""
    best = dict.fromkeys(commands, (float("inf"), float("inf")))
    for _ in range(repeat):
        for name, command in commands.items():
            wall, cpu = seconds(command)
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return best


def report(rows: dict[str, tuple[float, float]], baseline: str, target: float) -> None:
    base_wall, base_cpu = rows[baseline]
    print(f"  {'':<48} {'wall':>9} {'ratio':>7}   {'CPU':>9} {'ratio':>7}")
    for name, (wall, cpu) in rows.items():
        ratio = wall / base_wall
        mark = "" if name == baseline else ("  ok" if ratio <= target else f"  over {target:g}x")
        if base_cpu > 0:
            cpu_text = f"{cpu:7.2f} s {cpu / base_cpu:6.2f}x"
        else:
            cpu_text = f"{'n/a':>9} {'n/a':>7}"
        print(f"  {name:<48} {wall:7.2f} s {ratio:6.2f}x   {cpu_text}{mark}")


def compile_tree() -> None:
    """Write the bytecode of the project's packages (py_compile writes it whatever
    ``PYTHONDONTWRITEBYTECODE`` says), so that each run reads it instead of compiling."""
    for package in ("pipeline", "schemas"):
        compileall.compile_dir(ROOT / package, quiet=1)


def load_words() -> str:
    """The machine's load average over the last minute, where the system reports one (not
    Windows): beside the figures, since other jobs' load lengthens every wall time."""
    try:
        return f"load average {os.getloadavg()[0]:.2f}"
    except (AttributeError, OSError):
        return "load average n/a"


def main(quick: bool) -> None:
    repeat = 2 if quick else 5
    compile_tree()
    print(f"({load_words()} at the start)")
    print(f"small commands, fresh process (best of {repeat}); target <= 3x the baseline")
    base = 'python -c "import numpy"'
    commands = {base: [sys.executable, "-c", "import numpy"]}
    commands.update({f"fiderate {k}": CLI + v for k, v in SMALL.items()})
    report(best_of(commands, repeat), base, 3)

    if not EVENT.is_file():
        print(f"one real event: skipped ({EVENT} is absent)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        print(f"\none real event, every default output (best of {repeat}); target <= 2.5x")
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
        report(rows, base, 2.5)
        print(f"  ({load_words()} at the end)")
        written = sorted(p.name for p in (Path(tmp) / "out").iterdir())
        print(f"  outputs: {', '.join(written)}")
