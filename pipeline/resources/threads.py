"""Independent column jobs on every core at once, for big frames only.

Arrow's kernels (hashing text, takes, casts, joins) release the GIL: the jobs of one stage that
do not depend on each other (encoding event, round and players; formatting the columns of a
file) run on threads in parallel. Below ``PARALLEL_ROWS`` rows a thread costs more than it saves.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

PARALLEL_ROWS = 200_000


def each(jobs: Sequence[Callable[[], T]], rows: int) -> list[T]:
    """Each job's result, in order: on threads when the frame has ``rows`` >= PARALLEL_ROWS."""
    if rows < PARALLEL_ROWS or len(jobs) < 2:
        return [job() for job in jobs]
    with ThreadPoolExecutor(min(len(jobs), os.cpu_count() or 1)) as pool:
        return list(pool.map(lambda job: job(), jobs))


def side_by_side(jobs: Sequence[Callable[[], T]]) -> list[T]:
    """Each job's result, in order, each job on a thread of its own whatever its size: for a
    few jobs the caller knows are large and independent (a period's list in force and its event
    files: Arrow's CSV parsing and kernels release the GIL). A job's exception is raised here,
    the first job's first."""
    if len(jobs) < 2:
        return [job() for job in jobs]
    with ThreadPoolExecutor(len(jobs)) as pool:
        futures = [pool.submit(job) for job in jobs]
        return [future.result() for future in futures]
