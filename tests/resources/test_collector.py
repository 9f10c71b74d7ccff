"""The program's cyclic collector (pipeline.resources.collector): no pass while ``fiderate rate``
imports its modules, the usual passes after, and the usual collector back for a command that
never says its start-up is done. Each case runs in a fresh process: the collector's state is the
process's (this test session's collector is left alone)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EVENT = ROOT / "sample_data" / "event.trf"

# Reports each collector pass from the program's start (``main``) on stderr as it starts (the
# program ends with os._exit, so a list printed at exit would never be seen): "import" while
# the rate job's modules are not all loaded yet, "run" after.
RATE_PASSES = """
import gc, os, sys
from pipeline.cli import main

LOADED = ("pandas", "pandera", "pyarrow", "pipeline.jobs.rate.stages", "pipeline.writers")

def spy(phase, info):
    if phase == "start":
        when = "run" if all(m in sys.modules for m in LOADED) else "import"
        os.write(2, f"pass {when} {info['generation']}\\n".encode())

gc.callbacks.append(spy)
sys.argv = ["fiderate", "rate", sys.argv[1], "--out", sys.argv[2], "--quiet"]
main()
"""


def test_rate_makes_no_collector_pass_while_it_imports(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", RATE_PASSES, str(EVENT), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    passes = [line.split() for line in done.stderr.splitlines() if line.startswith("pass ")]
    assert [p for p in passes if p[1] == "import"] == []
    assert (tmp_path / "out" / "report.html").is_file()


STATES = """
import gc
from pipeline.resources import collector

before = gc.get_threshold()
collector.start_up_done()  # not held: changes nothing
print(gc.get_threshold() == before, gc.get_freeze_count() == 0)
collector.hold_for_start_up()
print(gc.get_threshold()[0] == collector.START_UP_THRESHOLD)
kept = [[i] for i in range(1000)]  # objects made during the start-up
collector.start_up_done()
print(gc.get_threshold() == collector.RUN_THRESHOLDS, gc.get_freeze_count() >= 1000)
collector.start_up_done()  # once only
print(gc.get_threshold() == collector.RUN_THRESHOLDS)

# Held and never said done: the first pass gives the usual thresholds back.
gc.unfreeze()
collector.hold_for_start_up()
gc.collect()
print(gc.get_threshold() == collector.RUN_THRESHOLDS)
# A cycle made after the start-up is collected as before.
class Node:
    pass
a, b = Node(), Node()
a.other, b.other = b, a
del a, b
print(gc.collect() >= 2)
"""


def test_hold_done_and_the_first_pass() -> None:
    done = subprocess.run(
        [sys.executable, "-c", STATES], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True"] * 8
