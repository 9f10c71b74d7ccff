"""release_memory gives freed heap back: the process's resident size drops after a large free."""

from __future__ import annotations

import subprocess
import sys

import psutil
import pytest

from pipeline.resources.memory import _malloc_trim, release_memory


def test_release_memory_returns_freed_heap():
    if _malloc_trim() is None:  # not glibc: nothing to give back by hand
        return
    process = psutil.Process()
    # 200,000 blocks of 1,000 bytes come from malloc's heap (above pymalloc's 512-byte limit), and
    # glibc keeps them mapped after free: measured, plain gc.collect() gives back ~12 of ~190 MB
    blocks = [bytearray(1000) for _ in range(200_000)]
    held = process.memory_info().rss
    del blocks
    release_memory()
    assert process.memory_info().rss < held - 100 * 2**20


def test_prefer_jemalloc_sets_arrows_pool_unless_the_environment_chooses(monkeypatch):
    import pyarrow as pa

    from pipeline.resources.memory import prefer_jemalloc

    before = pa.default_memory_pool()
    try:
        monkeypatch.setenv("ARROW_DEFAULT_MEMORY_POOL", "system")
        prefer_jemalloc()
        assert pa.default_memory_pool().backend_name == before.backend_name  # the user's choice
        monkeypatch.delenv("ARROW_DEFAULT_MEMORY_POOL")
        try:
            pa.jemalloc_memory_pool()
        except NotImplementedError:  # a pyarrow without jemalloc: nothing to change
            return
        prefer_jemalloc()
        assert pa.default_memory_pool().backend_name == "jemalloc"
    finally:
        pa.set_memory_pool(before)


# A fresh process: the test worker's own peak and resident memory would decide otherwise.
_CLOCK_PASSES = """
import gc, sys
from pipeline.resources.stage_clock import Clock

full = []
gc.callbacks.append(lambda phase, info: phase == "start" and info["generation"] == 2
                    and full.append(1))
held = b"x" * (450 << 20)  # 450 MiB touched: the process's peak passes the threshold
if sys.argv[1] == "freed":
    del held  # a block this size is its own mapping: freed, it leaves the resident set
Clock().lap("stage")
print(len(full))
"""


@pytest.mark.parametrize(("held", "passes"), [("held", 1), ("freed", 0)])
def test_a_stage_releases_memory_by_what_is_resident_not_by_the_peak(held, passes):
    """A process that once went past the threshold (a server or a test worker after a big
    run) but holds little now makes no full collection at each stage of a small run."""
    done = subprocess.run(
        [sys.executable, "-c", _CLOCK_PASSES, held], capture_output=True, text=True, check=True
    )
    assert int(done.stdout) == passes
