"""The site's list months (each month's page, its JSON and its four downloads: made from its
list and the one before, independent of the profiles) made and written by worker processes
while the writing process makes the rest (:func:`static_site.write_site`): at 10,000 players x
24 months x 3 kinds the list months are about half of a full write's CPU (cProfile: their
downloads 13 s and pages 9 s of 45 s), the profiles most of the rest.

The months to make are one list (:class:`Months`, shared by the processes of the write): the
workers take them from its front, one month (its page and downloads) at a time, and the
writing process, once its own files are made, from its back, until none is left. So each
process goes through consecutive months (a month's page reads the month before: each list is
decoded about once) and none waits while another has a month left to make, however the work
divides between the profiles and the lists.

Portable: the workers are started the "spawn" way, a fresh interpreter as Windows and macOS
start one (a fork would copy a process whose writer thread is running). A worker opens the
history itself (read-only), builds its own :class:`SiteData`, makes its months' groups and
writes their files through the writer's own compare-and-rename (:class:`site_writer.Writer`:
a file under its final name is whole), then sends back what it did: each group's files' sizes
(the manifest's), the addresses written, the files found unchanged. An error in a worker is
sent back and raised in the writing process as it was.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from pipeline.errors import RunError
from pipeline.resources.collector import hold_for_start_up, start_up_done
from pipeline.site.history_data import SiteData
from pipeline.site.site_files import Group, ListDigests, month_groups, search_group
from pipeline.site.site_writer import SHARED_WAITING_BYTES, Making, Writer, WrittenSite

# A worker is started per this many list rows of the groups to make (a month's page and its
# downloads each read the month's list: 100,000 for a month of 50,000 players), and none below
# it. A worker's start-up is ~0.6 s of CPU (a fresh interpreter importing pandas, pyarrow and
# the templates; its first list decoded again); 200,000 rows are ~3 s of making, five times
# that. So a refresh of a small federation, or a test's history, is written by one process,
# as before; a refresh of 50,000 players (three new months: 300,000) by two.
ROWS_PER_WORKER = 200_000
# The processes of a write at most, the writing one among them: each worker holds its own
# decoded lists and the pages it makes (295 MiB at 20,000 players, 454 at 50,000), which the
# write's memory (under 1.5 GB at 50,000 players) has room for few of.
MAX_PROCESSES = 3
# A worker gathers its cyclic garbage and gives freed memory back after each group (a month's
# page or its downloads): what a month leaves is megabytes in a few thousand objects, and the
# worker holds little else, so a pass is cheap (~7 ms). Its peak at 10,000 players: 351 MiB
# with the writing process's passes every 256 MB made, 241 with a collection a group, 228
# giving the memory back too.
WORKER_COLLECT_BYTES = 0


def default_jobs() -> int:
    """The processes a write uses when not told: the machine's cores, at most
    :data:`MAX_PROCESSES`."""
    return max(1, min(os.cpu_count() or 1, MAX_PROCESSES))


def workers_for(rows: int, jobs: int) -> int:
    """How many workers make list months of ``rows`` rows (page and downloads counted each)
    in a write of ``jobs`` processes: one per :data:`ROWS_PER_WORKER`, the writing process
    itself being one of the ``jobs``."""
    return max(0, min(jobs - 1, rows // ROWS_PER_WORKER))


class Months:
    """The list months a write has to make (each a list of (kind, key) of its groups), taken
    once each: by the workers from the front, by the writing process from the back. Shared
    between processes (an array of the two ends, under its lock)."""

    def __init__(self, months: list[list[tuple[str, str]]]) -> None:
        self.months = months
        # [the next front, one past the back], in memory the workers share (spawn's own kind)
        self.ends = multiprocessing.get_context("spawn").Array("q", [0, len(months)])

    def front(self) -> list[tuple[str, str]] | None:
        """The first month no process took yet (None: all are taken)."""
        with self.ends.get_lock():
            first, end = self.ends[0], self.ends[1]
            if first >= end:
                return None
            self.ends[0] = first + 1
        return self.months[first]

    def back(self) -> list[tuple[str, str]] | None:
        """The last month no process took yet (None: all are taken)."""
        with self.ends.get_lock():
            first, end = self.ends[0], self.ends[1]
            if first >= end:
                return None
            self.ends[1] = end - 1
        return self.months[end - 1]


@dataclass
class Part:
    """What a process made of the months: each group's {address: size} by key, in the order
    made; the addresses it wrote (new or changed); the files it found unchanged; the bytes
    written."""

    sizes: dict[str, dict[str, object]] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    bytes_written: int = 0


class WorkerTraceback(Exception):
    """A worker's traceback, as text: the cause of its error raised here (``--debug``)."""


CHECK_SECONDS = 0.2  # how often the writing process looks for a worker's error at most


class MonthWorkers:
    """``count`` worker processes making the months of ``months`` from its front.
    :meth:`check` raises a worker's error as soon as it is known, :meth:`parts` waits for
    all, :meth:`stop` ends those still running (the write failed elsewhere)."""

    def __init__(
        self, database: Path, out: Path, months: Months, count: int, lists_kept: int | None
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self.months = months
        self.running: list[tuple[Any, Connection]] = []
        self.received: dict[int, Part] = {}
        self.next_check = 0.0  # time.monotonic() of the next look at the workers' pipes
        try:
            for _ in range(count):
                here, there = context.Pipe(duplex=False)
                process = context.Process(
                    target=work,
                    args=(str(database), str(out), self.months, lists_kept, there),
                    name="fiderate-site-months",
                    daemon=True,
                )
                process.start()
                there.close()  # the worker's end: here reads end-of-file when the worker ends
                self.running.append((process, here))
        except BaseException:
            self.stop()
            raise

    def check(self) -> None:
        """Raise the error of a worker that failed (or ended without a word), if any. Looked
        at most every ``CHECK_SECONDS``: the writing process asks before each of 50,000
        profiles, and a pipe's poll is a system call (8 s of a 50,000-player write when each
        ask polled)."""
        now = time.monotonic()
        if now < self.next_check:
            return
        self.next_check = now + CHECK_SECONDS
        for n, (_, here) in enumerate(self.running):
            if n not in self.received and here.poll():
                self._receive(n)

    def parts(self) -> list[Part]:
        """Every worker's part, once all are done (a worker's error raised)."""
        while len(self.received) < len(self.running):
            waiting = {
                here: n for n, (_, here) in enumerate(self.running) if n not in self.received
            }
            for ready in wait(list(waiting)):
                self._receive(waiting[ready])  # type: ignore[index]
        return [self.received[n] for n in range(len(self.running))]

    def stop(self) -> None:
        """End every worker (a worker done has ended by itself) and free its pipe."""
        for process, here in self.running:
            if process.is_alive():
                process.terminate()
            process.join()
            here.close()

    def _receive(self, n: int) -> None:
        process, here = self.running[n]
        try:
            message = here.recv()
        except EOFError:  # ended without a word: killed, or out of memory
            process.join()
            raise RunError(
                f"a worker process making the site's list months ended unexpectedly (exit code "
                f"{process.exitcode}); the files written before it are complete: run "
                "`fiderate site` again (only what is missing or changed is written), with "
                "--jobs 1 to write in one process"
            ) from None
        if message[0] == "error":
            _, error, text = message
            error.__cause__ = WorkerTraceback(text)
            raise error
        self.received[n] = message[1]


def work(
    database: str, out: str, months: Months, lists_kept: int | None, answer: Connection
) -> None:
    """A worker's life (in its own process): make and write the months it takes from the front
    of ``months``, answer ("done", :class:`Part`) or ("error", the error, its traceback)."""
    try:
        data = SiteData.open(Path(database), lists_kept=lists_kept)
        try:
            # The modules are imported (this module's, as the worker started): frozen out of
            # the collector's passes, which run with the program's thresholds from here.
            hold_for_start_up()
            start_up_done()
            part = make_months(data, Path(out), months.front, WORKER_COLLECT_BYTES)
        finally:
            data.close()
        answer.send(("done", part))
    except BaseException as exc:  # sent to the writing process, which raises it
        answer.send(("error", _portable(exc), traceback.format_exc()))
    finally:
        answer.close()


def groups_by_key(data: SiteData) -> dict[str, Group]:
    """Every list month's groups of ``data`` and the search's by key (made only when asked)."""
    digest = ListDigests(data)
    found = {
        str(group.key): group for kind in data.kinds() for group in month_groups(data, kind, digest)
    }
    search = search_group(data, digest)
    return {**found, str(search.key): search}


def make_months(data: SiteData, out: Path, take: Any, collect_bytes: int) -> Part:
    """Make and write the months ``take()`` gives (until None) from ``data`` into ``out``
    (a worker's own writer)."""
    done = WrittenSite()
    writer = Writer(out, done, SHARED_WAITING_BYTES)
    try:
        part = make_into(data, Making(writer, collect_bytes), take)
    finally:
        writer.close()
    part.written, part.unchanged, part.bytes_written = (
        done.written,
        done.unchanged,
        done.bytes_written,
    )
    return part


def make_into(data: SiteData, making: Making, take: Any) -> Part:
    """The months ``take()`` gives (until None), each group made into ``making``
    (:class:`site_writer.Making`): their sizes by key (the writer counts what it wrote)."""
    groups: dict[str, Group] | None = None
    part = Part()
    while (month := take()) is not None:
        if groups is None:
            groups = groups_by_key(data)
        for _, key in month:
            if key not in groups:  # the history changed since the writing process read it
                raise RunError(
                    f"the history {str(data.path)!r} changed while the site was written (a "
                    "list month to make is no longer there): run `fiderate site` again"
                )
            part.sizes[key] = making.make(groups[key])
    return part


def _portable(exc: BaseException) -> BaseException:
    """``exc`` when it crosses to the writing process as it is, else a :class:`RunError`
    saying what it was (an exception whose arguments do not rebuild it)."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - any failure to pickle
        return RunError(f"{type(exc).__name__}: {exc}")
