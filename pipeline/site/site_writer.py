"""The site's files written: each file's bytes compared with what the folder holds, and only a
file that differs (or is missing) written, through a temporary name renamed into place (a reader
of the folder never sees half a page), on a thread of its own (:class:`Writer`); and groups of
files made into it (:class:`Making`). The writing process of ``fiderate site`` and each of its
workers (:mod:`.month_workers`) write through their own.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.resources.memory import release_memory

if TYPE_CHECKING:
    from pipeline.site.site_files import Group


@dataclass
class WrittenSite:
    """What a write did: the addresses written (new or changed), kept, and removed."""

    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    bytes_written: int = 0
    workers: int = 0  # the worker processes that made list months (0: the writing one alone)


def _same(path: str, body: bytes) -> bool:
    try:
        if os.stat(path).st_size != len(body):
            return False
        with open(path, "rb") as held:
            return held.read() == body
    except FileNotFoundError:
        return False


# Flags of a file written whole: O_BINARY is Windows' (no newline translation), 0 elsewhere.
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)


def _write_file(path: str, body: bytes) -> None:
    """``body`` into ``path`` through its file descriptor: a page is written by as few calls as
    the system needs (each one lets the making thread take the interpreter in between; pathlib's
    open, write and close were three times the calls, a third of the writer's time under load)."""
    fd = os.open(path, _WRITE_FLAGS, 0o666)
    try:
        view = memoryview(body)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


# A collection of cyclic garbage every so many bytes of files made: a list month's frames and
# a page's render leave cycles holding megabytes, which the program's thresholds
# (pipeline/resources/collector.py: a pass per 10,000 new objects) left for long (a peak of
# 2.5 GB at 50,000 players x 24 months x 3 kinds, 1.1 GB with these passes).
COLLECT_BYTES = 256 << 20
WAITING_BYTES = 64 << 20  # what the pages made may hold waiting for the writer at most
# ... in each process of a write with workers (room for a 13 MB list page at 50,000 players):
# the processes' memory is counted together, and the other core makes pages meanwhile.
SHARED_WAITING_BYTES = 16 << 20


class Writer:
    """The site's files written in the order given, on a thread of its own: the next pages are
    made while the disk takes the ones before (a write waiting for the disk lets the other
    thread run), instead of one after the other. At most ``room`` bytes wait at once
    (:data:`WAITING_BYTES`; a list month's page is 13 MB at 50,000 players). The first error
    stops the writing; it is raised to the caller at its next file or at :meth:`close`."""

    def __init__(
        self,
        out: Path,
        done: WrittenSite,
        room: int = WAITING_BYTES,
        absent: Callable[[str], bool] | None = None,
    ) -> None:
        self.done, self.room_bytes = done, room
        # Whether an address is known to have no file before the write (the writing process
        # lists the site's folders once): such a file is written without a look at the disk
        # (a stat of each of 100,000 missing files, in a full write, for nothing).
        self.absent = absent or (lambda address: False)
        self.root = str(out)  # the folder, as the text os.path joins a file's name to
        self.made: set[str] = set()
        self.files: queue.Queue[tuple[str, bytes] | None] = queue.Queue()
        self.waiting = 0
        self.room = threading.Condition()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="site-writer", daemon=True)
        self.thread.start()

    def put(self, address: str, body: bytes) -> None:
        with self.room:
            while self.waiting and self.waiting + len(body) > self.room_bytes and not self.error:
                self.room.wait()
            if self.error is not None:
                raise self.error
            self.waiting += len(body)
        self.files.put((address, body))

    def close(self) -> None:
        """Wait for every file given; raise the writer's error, if any."""
        self.files.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error

    def _run(self) -> None:
        while (item := self.files.get()) is not None:
            address, body = item
            try:
                if self.error is None:
                    self._write(address, body)
            except BaseException as exc:  # raised in the caller's thread
                self.error = exc
            finally:
                with self.room:
                    self.waiting -= len(body)
                    self.room.notify_all()

    def _write(self, address: str, body: bytes) -> None:
        folder, _, name = address.rpartition("/")
        directory = os.path.join(self.root, *folder.split("/")) if folder else self.root
        path = os.path.join(directory, name)
        if not self.absent(address) and _same(path, body):
            self.done.unchanged += 1
            return
        if directory not in self.made:
            os.makedirs(directory, exist_ok=True)
            self.made.add(directory)
        temporary = os.path.join(directory, f".{name}.tmp")
        _write_file(temporary, body)
        os.replace(temporary, path)
        self.done.written.append(address)
        self.done.bytes_written += len(body)


class Making:
    """Groups made into a writer: each file given to it as it is made; every ``collect_bytes``
    made (:data:`COLLECT_BYTES`), the cyclic garbage collected and the memory freed given back
    to the system (:func:`release_memory`: Arrow's pool and glibc's heap keep what a list
    month's frames freed, 150 MiB of a worker's 280 at 20,000 players)."""

    def __init__(self, writer: Writer, collect_bytes: int = COLLECT_BYTES) -> None:
        self.writer, self.collect_bytes = writer, collect_bytes
        self.made = 0  # bytes made since the last collection

    def make(self, group: Group) -> dict[str, object]:
        """Make ``group``'s files and give them to the writer: their {address: size}, in the
        order made (the manifest's entry of a keyed group)."""
        sizes: dict[str, object] = {}
        for address, body in group.make():
            self.writer.put(address, body)
            sizes[address] = len(body)
            self.made += len(body)
        if self.made > self.collect_bytes:
            release_memory()
            self.made = 0
        return sizes
