"""Writing the static site into a folder: each file's bytes compared with what the folder
holds, and only a file that differs (or is missing) written, through a temporary name renamed
into place (a reader of the folder never sees half a page: :mod:`.site_writer`). A file the
site no longer has (a player gone from every list, a superseded period's calculation) is
removed when it lies in one of the site's own folders.

The folder's manifest (``MANIFEST``, itself a file of the site) keeps, per group of files with
a key (:class:`site_files.Group`: a list month's page, its downloads), the key and the files'
sizes: a group whose key and files are as the manifest says is not made at all (a refresh
after one more month renders no old month again).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from pipeline.resources.memory import release_memory
from pipeline.site import addresses as at
from pipeline.site import month_workers
from pipeline.site.history_data import SiteData
from pipeline.site.site_files import Group, ListDigests, month_groups, search_group, site_groups
from pipeline.site.site_writer import (
    SHARED_WAITING_BYTES,
    WAITING_BYTES,
    Making,
    Writer,
    WrittenSite,
)

SITE_FOLDERS = ("lists", "top", "players", "ranks", "calculations", "search", "static")
SITE_ROOT_FILES = ("index.html", "index.json", "search.html", "search.json")
MANIFEST = "site-manifest.json"


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
    # A group whose files only making them tells (None) holds those its key made.
    if group.addresses is not None and sorted(sizes) != sorted(group.addresses):
        return False
    for address in sizes:
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


class _Holdings:
    """What the folder holds: its ``manifest`` (:func:`_manifest`), and :func:`_held` asked
    once a group (the months to share out, the profiles to make and the write's loop each ask
    it; a key is one group's, a group without one is never held)."""

    def __init__(self, out: Path, present: set[str]) -> None:
        self.out, self.manifest, self.present = out, _manifest(out), present
        self.verdicts: dict[str | None, bool] = {}  # a group's key -> whether it is held

    def __call__(self, group: Group) -> bool:
        if group.key not in self.verdicts:
            self.verdicts[group.key] = _held(self.out, group, self.manifest, self.present)
        return self.verdicts[group.key]


def write_site(data: SiteData, out: Path, jobs: int = 1) -> WrittenSite:
    """Write the site of ``data`` into ``out`` (created when missing). ``jobs``: the processes
    the write may use (:mod:`.month_workers`: the list months made by workers when there are
    enough of them to make); the bytes, the manifest and what is reported are the same."""
    done = WrittenSite()
    # The site folders' files before the write: what a held group is checked against, and what
    # is removed after it unless the site still has it (a file written is kept).
    present = {a for folder in SITE_FOLDERS for a in _files_under(out, folder)}
    kept: dict[str, dict[str, object]] = {}
    # Each address of the site -> its place (group, file): what is kept, and the order
    # ``done.written`` is reported in, whoever wrote it (the writing process or a worker).
    order: dict[str, tuple[int, int]] = {}
    is_held = _Holdings(out, present)
    months, count = _months_away(data, is_held, jobs)
    shared = month_workers.Months(months) if count else None
    away = {key for month in months for _, key in month}  # the groups of those months
    there: dict[str, int] = {}  # such a group's key -> its place
    workers = None
    writer = _writer(out, done, present, count)
    making = Making(writer)

    def place(n: int, addresses: Iterable[str]) -> None:
        for i, address in enumerate(addresses):
            order[address] = (n, i)

    def settle(part: month_workers.Part) -> None:  # months made elsewhere than the loop below
        for key, sizes in part.sizes.items():
            place(there[key], sizes)
            kept[key] = sizes

    try:
        if shared is not None:  # at once: see _months_away
            workers = month_workers.MonthWorkers(data.path, out, shared, count, data.lists_kept)
            done.workers = count
        for n, group in enumerate(site_groups(data, is_held)):
            if workers is not None:
                workers.check()  # a worker's error stops the write now, not at its end
            if group.key in away:
                there[str(group.key)] = n
                continue
            if is_held(group):
                kept[str(group.key)] = held = is_held.manifest[str(group.key)]
                place(n, held)  # the files its key made, as the manifest lists them
                done.unchanged += len(held)
                continue
            sizes = making.make(group)
            place(n, sizes)
            if group.key is not None:
                kept[group.key] = sizes
        if shared is not None:
            # This process's own files made, it makes the months no worker took yet, from the
            # back (the workers take from the front; all of them when none started: a history
            # without profiles), then waits for the workers. Every player's tables are dropped
            # first: the months beside the workers' take no more than a worker's memory.
            data.forget_tables()
            release_memory()
            settle(month_workers.make_into(data, making, shared.back))
        if workers is not None:
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
    _remove(out, present - order.keys(), done)
    return done


def _remove(out: Path, gone: set[str], done: WrittenSite) -> None:
    """Remove the files of the site's folders that the site no longer has, folder by folder."""
    for address in sorted(gone, key=lambda a: (SITE_FOLDERS.index(a.split("/", 1)[0]), a)):
        out.joinpath(*address.split("/")).unlink()
        done.removed.append(address)


def _writer(out: Path, done: WrittenSite, present: set[str], workers: int) -> Writer:
    """The writing process's writer: less room for pages waiting when workers write beside it
    (their memory counts with its own); a file of the site's folders not listed before the
    write (``present``) is written with nothing to compare it with."""
    return Writer(
        out,
        done,
        SHARED_WAITING_BYTES if workers else WAITING_BYTES,
        lambda address: address not in present and address.split("/", 1)[0] in SITE_FOLDERS,
    )


def _months_away(
    data: SiteData, held: Callable[[Group], bool], jobs: int
) -> tuple[list[list[tuple[str, str]]], int]:
    """The list months to make (each the (kind, key) of its groups not ``held``, in the site's
    order; the search's files first, when workers start) and how many workers to start for
    them: none when there are too few rows to make (:func:`month_workers.workers_for`), and
    then no month either (this process makes them in its order). The workers start with the
    write: the list months need nothing the writing process reads first, and its first seconds
    (the home page, the top lists, every player's runs: a sixth of a full write at 50,000
    players) would leave the other core idle; ~100 MiB more at the peak (a worker holding a
    month while the runs are read), within the 1.5 GB the write is allowed (docs/web.md)."""
    if jobs < 2:
        return [], 0
    players = dict(data.con.execute("SELECT id, players FROM list_contents").fetchall())
    months: dict[tuple[str, str], list[tuple[str, str]]] = {}
    rows = 0
    digest = ListDigests(data)
    for kind in data.kinds():
        by_name = {m.month: m for m in data.months_of(kind)}
        for group in month_groups(data, kind, digest):
            if group.key is None or not group.addresses or held(group):
                continue  # (a month's groups name their files: month_groups)
            where = at.parse(group.addresses[0]) or at.parse_download(group.addresses[0])
            name = where.month if where is not None else ""
            months.setdefault((kind, name), []).append((kind, group.key))
            month = by_name.get(name)
            rows += players.get(month.content_id, 0) if month is not None else 0
    count = month_workers.workers_for(rows, jobs)
    if not count:
        return [], 0
    # The search's files first: made from the lists alone, as the months are (every player's
    # name, the latest ratings: 2-3 s at 50,000 players), by a worker while the writing process
    # reads every player's runs, which a refresh's profiles wait for.
    search = search_group(data, digest)
    first = [] if held(search) else [[("search", str(search.key))]]
    return first + list(months.values()), count


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
