"""``each`` runs independent jobs, on threads for big frames, and gives their results in order."""

from __future__ import annotations

import threading

import pytest

from pipeline.columnar.threads import PARALLEL_ROWS, each


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
