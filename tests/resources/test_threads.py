"""``each`` runs independent jobs, on threads for big frames, and gives their results in order."""

from __future__ import annotations

import threading

import pytest

from pipeline.resources.threads import PARALLEL_ROWS, each, side_by_side


@pytest.mark.parametrize("rows", [0, PARALLEL_ROWS - 1, PARALLEL_ROWS, 10 * PARALLEL_ROWS])
def test_each_gives_every_result_in_the_order_of_the_jobs(rows):
    seen: list[str] = []

    def job(k: int):
        return lambda: (seen.append(threading.current_thread().name), k * k)[1]

    assert each([job(k) for k in range(7)], rows) == [k * k for k in range(7)]
    on_threads = any(name != threading.current_thread().name for name in seen)
    assert on_threads == (rows >= PARALLEL_ROWS)


def test_a_failing_job_raises_its_own_error():
    def boom():
        raise ValueError("job 2")

    with pytest.raises(ValueError, match="job 2"):
        each([lambda: 1, boom, lambda: 3], PARALLEL_ROWS)


def test_side_by_side_runs_each_job_on_its_own_thread_and_keeps_their_order():
    names: list[str] = []
    gate = threading.Barrier(2, timeout=10)  # each job waits for the other: both run at once

    def job(k: int):
        def run():
            gate.wait()
            names.append(threading.current_thread().name)
            return k

        return run

    assert side_by_side([job(1), job(2)]) == [1, 2]
    assert len(set(names)) == 2 and threading.current_thread().name not in names


def test_side_by_side_raises_the_first_jobs_error_first():
    def boom(message: str):
        def run():
            raise ValueError(message)

        return run

    with pytest.raises(ValueError, match="first"):
        side_by_side([boom("first"), boom("second")])
    assert side_by_side([lambda: 5]) == [5]
