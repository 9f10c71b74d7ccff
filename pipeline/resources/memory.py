"""Give freed memory back to the operating system between the stages of a large run.

Why: after a stage drops a full-size table (a 1.9 M-row list, a million sides) glibc keeps the
freed arenas mapped, so the next stage's allocations stack on top of them and the process's peak
is the sum of the stages instead of the largest one. ``malloc_trim(0)`` returns the free tops of
the arenas; Arrow's memory pool is asked to do the same. Both are no-ops where unavailable
(macOS, musl, Windows): the run is the same, only the peak is higher.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import sys
from functools import cache


@cache
def _malloc_trim():
    """glibc's ``malloc_trim``, or None where the C library has none."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None


def release_memory() -> None:
    """Collect cycles, then return freed heap and Arrow pool memory to the operating system."""
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
    try:
        import pyarrow as pa  # only where a stage already loaded it; never imported for this

        pa.default_memory_pool().release_unused()
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        pass


def prefer_jemalloc() -> None:
    """Arrow's jemalloc pool as the process's default pool, unless ``ARROW_DEFAULT_MEMORY_POOL``
    chooses one or this pyarrow was built without jemalloc (then nothing changes).

    Why: rating 1 M games allocates and frees some GB of Arrow buffers (the sides' text, the
    lines of games.csv). Under pyarrow's default pool (mimalloc) much of it comes back as fresh
    pages from the kernel, each zeroed on its first touch: 2-3 s of system time in a 4-5 s run.
    jemalloc reuses its freed pages: system time about 1 s, and a lower peak (measured with
    `python -m benchmarks million`; the figures are in the git history of docs/performance.md).
    The bytes computed are the same."""
    if os.environ.get("ARROW_DEFAULT_MEMORY_POOL"):
        return
    import pyarrow as pa

    try:
        pa.set_memory_pool(pa.jemalloc_memory_pool())
    except NotImplementedError:  # pragma: no cover - a pyarrow built without jemalloc
        pass


def resident_memory_mib() -> float:
    """The process's resident memory now, in MiB (psutil: the same on Linux, macOS and
    Windows); 0.0 where it cannot be read."""
    import psutil  # only a large run's stages ask; a one-event run never loads it

    try:
        return psutil.Process().memory_info().rss / (1 << 20)
    except psutil.Error:  # pragma: no cover - a process may always read its own memory
        return 0.0


def peak_memory_mib() -> float:
    """The process's peak resident memory so far, in MiB; 0.0 where the system does not say.

    ``resource`` is Unix only, so it is imported here, at call time (a module importing it at
    the top would not start on Windows); Windows reports the peak working set instead."""
    if sys.platform == "win32":
        return _windows_peak_mib()
    try:
        import resource
    except ImportError:
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux counts ru_maxrss in KiB, macOS in bytes.
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def _windows_peak_mib() -> float:
    """PeakWorkingSetSize of GetProcessMemoryInfo (psapi), in MiB; 0.0 if it cannot be read."""
    from ctypes import wintypes

    class Counters(ctypes.Structure):
        _fields_ = [
            ("cb", wintypes.DWORD),
            ("PageFaultCount", wintypes.DWORD),
            ("PeakWorkingSetSize", ctypes.c_size_t),
            ("WorkingSetSize", ctypes.c_size_t),
            ("QuotaPeakPagedPoolUsage", ctypes.c_size_t),
            ("QuotaPagedPoolUsage", ctypes.c_size_t),
            ("QuotaPeakNonPagedPoolUsage", ctypes.c_size_t),
            ("QuotaNonPagedPoolUsage", ctypes.c_size_t),
            ("PagefileUsage", ctypes.c_size_t),
            ("PeakPagefileUsage", ctypes.c_size_t),
        ]

    try:
        counters = Counters()
        counters.cb = ctypes.sizeof(counters)
        windll = ctypes.windll  # type: ignore[attr-defined]
        process = windll.kernel32.GetCurrentProcess()
        if not windll.psapi.GetProcessMemoryInfo(process, ctypes.byref(counters), counters.cb):
            return 0.0
        return counters.PeakWorkingSetSize / (1 << 20)
    except (AttributeError, OSError):
        return 0.0
