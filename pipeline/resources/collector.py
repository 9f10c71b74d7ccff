"""The ``fiderate`` program's cyclic garbage collector: held while a command imports what it
runs on, then the usual passes over what the run makes.

Why: a ``fiderate rate`` run imports pandas, pyarrow and pandera: some 170,000 objects (modules,
classes, functions, their dicts) that live as long as the process. The collector's passes during
those imports walked each of them once or twice and found almost nothing (900-odd objects in
16 passes): 50-60 ms of CPU of a one-event run of about 1.1 s. So the program starts with the
collector held (:func:`hold_for_start_up`, from ``pipeline.cli.main``); a job calls
:func:`start_up_done` once it has imported its modules: what exists then is frozen out of every
later pass (``gc.freeze``), and the collector runs as before.

The hold is a high threshold, not a switch: a command that never calls :func:`start_up_done`
gets the usual thresholds back at the first pass. Outside the program (the tests' CliRunner, a
web server that calls the job) nothing is held and :func:`start_up_done` changes nothing.
"""

from __future__ import annotations

import gc
from typing import Any

# The run's thresholds: a pass every 10,000 new objects (Python's default, 700, made about 300
# passes of a one-event run, each walking the young objects), the same 10 x 10 ratio between
# generations as Python's: fewer, larger passes that collect the same cycles, later.
RUN_THRESHOLDS = (10_000, 10, 10)
# While held: no pass before this many new objects (a ``rate`` run's imports make ~170,000).
START_UP_THRESHOLD = 500_000

_held = False


def hold_for_start_up() -> None:
    """No collection while the command starts (the program calls this first)."""
    global _held
    _held = True
    gc.set_threshold(START_UP_THRESHOLD, *RUN_THRESHOLDS[1:])
    if _first_pass not in gc.callbacks:
        gc.callbacks.append(_first_pass)


def start_up_done() -> None:
    """The modules are imported: freeze what exists (the modules' objects, never garbage) out of
    later passes and collect as usual from here. Nothing changes unless the program held the
    collector."""
    global _held
    if not _held:
        return
    _held = False
    gc.freeze()
    gc.set_threshold(*RUN_THRESHOLDS)


def _first_pass(phase: str, info: dict[str, Any]) -> None:
    """A pass while still held: the command never said its start-up was done; it is over now."""
    global _held
    if phase == "start" and _held:
        _held = False
        gc.set_threshold(*RUN_THRESHOLDS)
