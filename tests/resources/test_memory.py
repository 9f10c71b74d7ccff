"""release_memory gives freed heap back: the process's resident size drops after a large free."""

from __future__ import annotations

import psutil

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
