"""Run every benchmark module (benchmarks/bench_*.py), or those named on the command line.

    python -m benchmarks            # all
    python -m benchmarks engine     # benchmarks/bench_engine.py only
    BENCH_QUICK=1 python -m benchmarks   # smaller sizes, for a quick look

Each module has ``main(quick: bool) -> None`` and prints its own table of figures, with ratios
against a baseline measured in the same run so the figures mean something on any machine.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import time

import benchmarks


def main(argv: list[str]) -> None:
    quick = os.environ.get("BENCH_QUICK", "") not in ("", "0")
    names = sorted(
        m.name[len("bench_") :]
        for m in pkgutil.iter_modules(benchmarks.__path__)
        if m.name.startswith("bench_")
    )
    wanted = argv or names
    unknown = sorted(set(wanted) - set(names))
    if unknown:
        sys.exit(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(names)}")
    for name in wanted:
        print(f"\n=== {name} ===", flush=True)
        start = time.perf_counter()
        importlib.import_module(f"benchmarks.bench_{name}").main(quick)
        print(f"({name}: {time.perf_counter() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
