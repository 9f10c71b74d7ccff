"""A command run as a process of its own while a thread samples the memory of it and its
descendants (worker processes: Dask's, ``fiderate site``'s): the benches' one way of measuring
a process tree's peak."""

from __future__ import annotations

import subprocess
import threading
import time
from dataclasses import dataclass

import psutil


def tree_memory(process: psutil.Process) -> tuple[int, int]:
    """The resident bytes of ``process`` and its descendants summed, and the same with the
    pages of files they map counted once (the libraries each worker loads again, pandas',
    Arrow's, numpy's: shared by the system, ~70 MB a process; Linux says which pages are of
    files, elsewhere both figures are the sum)."""
    try:
        family = [process, *process.children(recursive=True)]
    except psutil.Error:  # the process ended while its children were listed
        family = [process]
    total, shared = 0, []
    for member in family:
        try:
            info = member.memory_info()
        except psutil.Error:
            continue
        total += info.rss
        shared.append(getattr(info, "shared", 0))
    return total, total - sum(shared) + max(shared, default=0)


@dataclass(frozen=True)
class Measured:
    seconds: float  # wall
    peak: int  # bytes: the largest sum of the tree's resident sizes sampled
    peak_once: int  # the same with the files' pages counted once (tree_memory)
    stdout: str


def run_measured_tree(
    command: list[str], every: float = 0.05, env: dict[str, str] | None = None
) -> Measured:
    """Run ``command`` (its output kept), its tree's memory sampled every ``every`` seconds;
    a failure raised with the end of its error output."""
    start = time.perf_counter()
    process = psutil.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=env)  # fmt: skip
    peak, once = 0, 0
    finished = threading.Event()

    def sample() -> None:
        nonlocal peak, once
        while not finished.wait(every):
            total, counted_once = tree_memory(process)
            peak, once = max(peak, total), max(once, counted_once)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stdout, stderr = process.communicate()
    seconds = time.perf_counter() - start
    finished.set()
    sampler.join()
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}):\n{stderr[-2000:]}")
    return Measured(seconds, peak, once, stdout)
