"""Writing the static site into a folder: each file's bytes compared with what the folder
holds, and only a file that differs (or is missing) written, through a temporary name renamed
into place (a reader of the folder never sees half a page). A file the site no longer has (a
player gone from every list, a superseded period's calculation) is removed when it lies in one
of the site's own folders.

The folder's manifest (``MANIFEST``, itself a file of the site) keeps, per group of files with
a key (:class:`site_files.Group`: a list month's page, its downloads), the key and the files'
sizes: a group whose key and files are as the manifest says is not made at all (a refresh
after one more month renders no old month again).
"""

from __future__ import annotations

import json
import os
import queue
import sys
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.resources.memory import release_memory
from pipeline.site import addresses as at
from pipeline.site.history_data import SiteData
from pipeline.site.site_files import Group, _month_groups, site_groups

SITE_FOLDERS = ("lists", "top", "players", "ranks", "calculations", "search", "static")
SITE_ROOT_FILES = ("index.html", "index.json", "search.html", "search.json")
MANIFEST = "site-manifest.json"


@dataclass
class WrittenSite:
    """What a write did: the addresses written (new or changed), kept, and removed."""

    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    bytes_written: int = 0
    workers: int = 0  # the worker processes that made list months (0: the writing one alone)


def _same(path: Path, body: bytes) -> bool:
    try:
        if path.stat().st_size != len(body):
            return False
        return path.read_bytes() == body
    except FileNotFoundError:
        return False


def _manifest(out: Path) -> dict[str, dict[str, object]]:
    """The folder's manifest: group key -> {address: size}; empty when missing or unreadable
    (then every group is made and compared byte by byte, as without one)."""
    try:
        found = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _held(
    out: Path, group: Group, manifest: dict[str, dict[str, object]], present: set[str]
) -> bool:
    """Whether the folder holds ``group``'s files as its key made them: the key and addresses
    as the manifest says, each file there. ``present``: the files of the site's folders, listed
    once (a ``stat`` per held file was a sixth of a refresh); a file elsewhere is checked by
    its size."""
    if group.key is None or not isinstance(sizes := manifest.get(group.key), dict):
        return False
    if sorted(sizes) != sorted(group.addresses):
        return False
    for address in group.addresses:
        if address.split("/", 1)[0] in SITE_FOLDERS:
            if address not in present:
                return False
            continue
        try:
            if out.joinpath(*address.split("/")).stat().st_size != sizes[address]:
                return False
        except OSError:
            return False
    return True


# A collection of cyclic garbage every so many bytes of files made: a list month's frames and
# a page's render leave cycles holding megabytes, which the program's thresholds
# (pipeline/resources/collector.py: a pass per 10,000 new objects) left for long (a peak of
# 2.5 GB at 50,000 players x 24 months x 3 kinds, 1.1 GB with these passes).
COLLECT_BYTES = 256 << 20
WAITING_BYTES = 64 << 20  # what the pages made may hold waiting for the writer at most
# ... in each process of a write with workers (room for a 13 MB list page at 50,000 players):
# the processes' memory is counted together, and the other core makes pages meanwhile.
SHARED_WAITING_BYTES = 16 << 20


class _Writer:
    """The site's files written in the order given, on a thread of its own: the next pages are
    made while the disk takes the ones before (a write waiting for the disk lets the other
    thread run), instead of one after the other. At most ``room`` bytes wait at once
    (:data:`WAITING_BYTES`; a list month's page is 13 MB at 50,000 players). The first error
    stops the writing; it is raised to the caller at its next file or at :meth:`close`."""

    def __init__(self, out: Path, done: WrittenSite, room: int = WAITING_BYTES) -> None:
        self.out, self.done, self.room_bytes = out, done, room
        self.made: set[Path] = set()
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
        path = self.out.joinpath(*address.split("/"))
        if _same(path, body):
            self.done.unchanged += 1
            return
        if path.parent not in self.made:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.made.add(path.parent)
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_bytes(body)
        os.replace(temporary, path)
        self.done.written.append(address)
        self.done.bytes_written += len(body)


class Making:
    """Groups made into a writer: each file given to it as it is made; every ``collect_bytes``
    made (:data:`COLLECT_BYTES`), the cyclic garbage collected and the memory freed given back
    to the system (:func:`release_memory`: Arrow's pool and glibc's heap keep what a list
    month's frames freed, 150 MiB of a worker's 280 at 20,000 players)."""

    def __init__(self, writer: _Writer, collect_bytes: int = COLLECT_BYTES) -> None:
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


def write_site(data: SiteData, out: Path, jobs: int = 1) -> WrittenSite:
    """Write the site of ``data`` into ``out`` (created when missing). ``jobs``: the processes
    the write may use (:mod:`.month_workers`: the list months made by workers when there are
    enough of them to make); the bytes, the manifest and what is reported are the same."""
    from pipeline.site import month_workers  # it imports this module

    done = WrittenSite()
    manifest = _manifest(out)
    # The site folders' files before the write: what a held group is checked against, and what
    # is removed after it unless the site still has it (a file written is kept).
    present = {a for folder in SITE_FOLDERS for a in _files_under(out, folder)}
    kept: dict[str, dict[str, object]] = {}
    # Each address of the site -> its place (group, file): what is kept, and the order
    # ``done.written`` is reported in, whoever wrote it (the writing process or a worker).
    order: dict[str, tuple[int, int]] = {}
    months, count = _months_away(data, out, manifest, present, jobs)
    away = {key for month in months for _, key in month}  # the groups of those months
    there: dict[str, int] = {}  # such a group's key -> its place
    workers = None
    if count:
        workers = month_workers.MonthWorkers(data.path, out, months, count, data.lists_kept)
        done.workers = count
    writer = _Writer(out, done, SHARED_WAITING_BYTES if count else WAITING_BYTES)
    making = Making(writer)

    def place(n: int, addresses: Iterable[str]) -> None:
        for i, address in enumerate(addresses):
            order[address] = (n, i)

    def settle(part: month_workers.Part) -> None:  # months made elsewhere than the loop below
        for key, sizes in part.sizes.items():
            place(there[key], sizes)
            kept[key] = sizes

    try:
        for n, group in enumerate(site_groups(data)):
            if workers is not None:
                workers.check()  # a worker's error stops the write now, not at its end
            if group.key in away:
                there[str(group.key)] = n
                continue
            if _held(out, group, manifest, present):
                place(n, group.addresses)
                done.unchanged += len(group.addresses)
                kept[str(group.key)] = manifest[str(group.key)]
                continue
            sizes = making.make(group)
            place(n, sizes)
            if group.key is not None:
                kept[group.key] = sizes
        if workers is not None:
            # This process's own files made, it makes the months no worker took yet, from the
            # back (the workers take from the front), then waits for the workers.
            settle(month_workers.make_into(data, making, workers.months.back))
            for part in workers.parts():
                settle(part)
                done.written.extend(part.written)
                done.unchanged += part.unchanged
                done.bytes_written += part.bytes_written
        text = json.dumps(kept, sort_keys=True, separators=(",", ":")) + "\n"
        writer.put(MANIFEST, text.encode())
        order[MANIFEST] = (sys.maxsize, 0)  # after every group
    finally:
        try:
            writer.close()  # the files given are written (or the first error raised) either way
        finally:
            if workers is not None:
                workers.stop()  # done by now, or stopped: the write failed
    done.written.sort(key=order.__getitem__)
    gone = present - order.keys()
    for address in sorted(gone, key=lambda a: (SITE_FOLDERS.index(a.split("/", 1)[0]), a)):
        out.joinpath(*address.split("/")).unlink()
        done.removed.append(address)
    return done


def _months_away(
    data: SiteData,
    out: Path,
    manifest: dict[str, dict[str, object]],
    present: set[str],
    jobs: int,
) -> tuple[list[list[tuple[str, str]]], int]:
    """The list months to make (each the (kind, key) of its groups not held, in the site's
    order) and how many workers to start for them: none when there are too few rows to make
    (:func:`month_workers.workers_for`), and then no month either (this process makes them in
    its order)."""
    from pipeline.site import month_workers

    if jobs < 2:
        return [], 0
    players = dict(data.con.execute("SELECT id, players FROM list_contents").fetchall())
    months: dict[tuple[str, str], list[tuple[str, str]]] = {}
    rows = 0
    for kind in data.kinds():
        by_name = {m.month: m for m in data.months_of(kind)}
        for group in _month_groups(data, kind):
            if group.key is None or _held(out, group, manifest, present):
                continue
            where = at.parse(group.addresses[0]) or at.parse_download(group.addresses[0])
            name = where.month if where is not None else ""
            months.setdefault((kind, name), []).append((kind, group.key))
            month = by_name.get(name)
            rows += players.get(month.content_id, 0) if month is not None else 0
    count = month_workers.workers_for(rows, jobs)
    return (list(months.values()), count) if count else ([], 0)


def _files_under(out: Path, folder: str) -> Iterator[str]:
    """The addresses of the files in ``out/folder``, at any depth (``os.scandir``: a file's
    type comes with its name, no ``stat`` per file of a site of 100,000 files)."""
    stack = [folder]
    while stack:
        here = stack.pop()
        try:
            entries = list(os.scandir(out.joinpath(*here.split("/"))))
        except (FileNotFoundError, NotADirectoryError):
            continue
        for entry in entries:
            address = f"{here}/{entry.name}"
            if entry.is_dir(follow_symlinks=False):
                stack.append(address)
            elif entry.is_file(follow_symlinks=False):
                yield address
