"""How long each stage of a period run took and the peak memory after it (the benchmarks read
them), and the label of the stage that starts, posted on the run's stage board."""

from __future__ import annotations

import time

from pipeline.resources.memory import peak_memory_mib, release_memory, resident_memory_mib
from pipeline.resources.stage_board import StageBoard

# A stage ending with more than this resident gives its freed memory back (a full gc pass costs
# ~50 ms; a small run skips it). Resident now, not the process's peak: a long-lived process (the
# server, a test worker) that once ran a big job keeps that peak for ever, and each later small
# run would pay six full passes over everything the process holds.
RELEASE_ABOVE_MIB = 400


class Clock:
    """Seconds and peak memory after each stage of a run (for the benchmarks); posts the label
    of each stage as it starts on ``progress`` (what a progress display reads), if given."""

    def __init__(self, progress: StageBoard | None = None) -> None:
        self.laps: dict[str, float] = {}
        self.peaks: dict[str, float] = {}  # MiB
        self._last = time.perf_counter()
        self._progress = progress
        self.starts("reading the list and the events")

    def starts(self, label: str) -> None:
        if self._progress is not None:
            self._progress.post(label)

    def lap(self, name: str, next_label: str | None = None) -> None:
        if next_label is not None:
            self.starts(next_label)
        # Peak memory so far: shows which stage sets the peak.
        self.peaks[name] = peak_memory_mib()
        if self.peaks[name] > RELEASE_ABOVE_MIB and resident_memory_mib() > RELEASE_ABOVE_MIB:
            # The stage's full-size tables are dropped by now: give their memory back to the
            # operating system before the next stage allocates its own (the peak is then the
            # largest stage, not their sum). Counted in the stage that freed it.
            release_memory()
        now = time.perf_counter()
        self.laps[name] = now - self._last
        self._last = now
