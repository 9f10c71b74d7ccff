"""The site's list months (each month's page, its JSON and its four downloads: made from its
list and the one before, independent of the profiles) made and written by worker processes
while the writing process makes the rest (:func:`static_site.write_site`): at 10,000 players x
24 months x 3 kinds the list months are about half of a full write's CPU.

Portable: the workers are started the "spawn" way, a fresh interpreter as Windows and macOS
start one (a fork would copy a process whose writer thread is running). A worker opens the
history itself (read-only), builds its own :class:`SiteData`, makes the groups whose keys it is
given and writes their files through the writer's own compare-and-rename
(:class:`static_site._Writer`: a file under its final name is whole), then sends back what it
did: each group's files' sizes (the manifest's), the addresses written, the files found
unchanged. An error in a worker is sent back and raised in the writing process as it was.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from pipeline.errors import RunError

# A worker is started per this many list rows of the groups to make (a month's page and its
# downloads each read the month's list: 100,000 for a month of 50,000 players), and none below
# it. A worker's start-up is ~0.6 s of CPU (a fresh interpreter importing pandas, pyarrow and
# the templates; its first list decoded again); 200,000 rows are ~3 s of making, five times
# that. So a refresh of a small federation, or a test's history, is written by one process,
# as before; a refresh of 50,000 players (three new months: 300,000) by two.
ROWS_PER_WORKER = 200_000
# The processes of a write at most, the writing one among them: each worker holds its own
# decoded lists and the pages it makes (~300 MiB at 50,000 players), and more than three
# workers would wait for the writing process anyway, which makes the profiles alone.
MAX_PROCESSES = 4


def default_jobs() -> int:
    """The processes a write uses when not told: the machine's cores, at most
    :data:`MAX_PROCESSES`."""
    return max(1, min(os.cpu_count() or 1, MAX_PROCESSES))


def workers_for(rows: int, jobs: int) -> int:
    """How many workers make list months of ``rows`` rows (page and downloads counted each)
    in a write of ``jobs`` processes: one per :data:`ROWS_PER_WORKER`, the writing process
    itself being one of the ``jobs``."""
    return max(0, min(jobs - 1, rows // ROWS_PER_WORKER))


def shares(groups: list[tuple[str, str, int]], workers: int) -> list[list[tuple[str, str]]]:
    """``groups`` ((kind, key, rows), in the site's order) in ``workers`` runs of about equal
    rows: a run of consecutive months decodes each list once (a month's page also reads the
    month before)."""
    total = sum(rows for _, _, rows in groups)
    parts: list[list[tuple[str, str]]] = [[] for _ in range(workers)]
    done = 0
    for kind, key, rows in groups:
        parts[min(workers - 1, done * workers // max(total, 1))].append((kind, key))
        done += rows
    return [part for part in parts if part]


@dataclass
class Part:
    """What a worker did: each group's {address: size} by key, in the order made; the
    addresses it wrote (new or changed); the files it found unchanged; the bytes written."""

    sizes: dict[str, dict[str, object]] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    bytes_written: int = 0


class WorkerTraceback(Exception):
    """A worker's traceback, as text: the cause of its error raised here (``--debug``)."""


class MonthWorkers:
    """Worker processes, each making and writing one share of the list months' groups.
    :meth:`check` raises a worker's error as soon as it is known, :meth:`parts` waits for
    all, :meth:`stop` ends those still running (the write failed elsewhere)."""

    def __init__(
        self, database: Path, out: Path, shares: list[list[tuple[str, str]]], lists_kept: int | None
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self.running: list[tuple[Any, Connection]] = []
        self.received: dict[int, Part] = {}
        try:
            for share in shares:
                here, there = context.Pipe(duplex=False)
                process = context.Process(
                    target=work,
                    args=(str(database), str(out), share, lists_kept, there),
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
        """Raise the error of a worker that failed (or ended without a word), if any."""
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
    database: str,
    out: str,
    share: list[tuple[str, str]],
    lists_kept: int | None,
    answer: Connection,
) -> None:
    """A worker's life (in its own process): make and write the groups of ``share`` ((kind,
    key) of the list months' groups), answer ("done", :class:`Part`) or ("error", the error,
    its traceback)."""
    from pipeline.resources.collector import hold_for_start_up, start_up_done

    hold_for_start_up()  # as the program's own start (pipeline.cli.main)
    try:
        from pipeline.site.history_data import SiteData

        data = SiteData.open(Path(database), lists_kept=lists_kept)
        try:
            start_up_done()
            part = make_share(data, Path(out), share)
        finally:
            data.close()
        answer.send(("done", part))
    except BaseException as exc:  # sent to the writing process, which raises it
        answer.send(("error", _portable(exc), traceback.format_exc()))
    finally:
        answer.close()


def make_share(data: Any, out: Path, share: list[tuple[str, str]]) -> Part:
    """Make and write the list months' groups of ``share`` from ``data`` into ``out``."""
    # Imported here: static_site starts the workers (it imports this module).
    from pipeline.site.site_files import _month_groups
    from pipeline.site.static_site import Making, WrittenSite, _Writer

    wanted: dict[str, set[str]] = {}
    for kind, key in share:
        wanted.setdefault(kind, set()).add(key)
    done = WrittenSite()
    part = Part()
    writer = _Writer(out, done)
    try:
        making = Making(writer)
        for kind, keys in wanted.items():
            for group in _month_groups(data, kind):
                if group.key in keys:
                    part.sizes[group.key] = making.make(group)
    finally:
        writer.close()
    if len(part.sizes) < len(share):  # the history changed since the writing process read it
        raise RunError(
            f"the history {str(data.path)!r} changed while the site was written (a list month "
            "to make is no longer there): run `fiderate site` again"
        )
    part.written, part.unchanged, part.bytes_written = (
        done.written,
        done.unchanged,
        done.bytes_written,
    )
    return part


def _portable(exc: BaseException) -> BaseException:
    """``exc`` when it crosses to the writing process as it is, else a :class:`RunError`
    saying what it was (an exception whose arguments do not rebuild it)."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - any failure to pickle
        return RunError(f"{type(exc).__name__}: {exc}")
