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
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.site.history_data import SiteData
from pipeline.site.site_files import Group, site_groups

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


def _held(out: Path, group: Group, manifest: dict[str, dict[str, object]]) -> bool:
    """Whether the folder holds ``group``'s files as its key made them (key and sizes)."""
    if group.key is None or not isinstance(sizes := manifest.get(group.key), dict):
        return False
    if sorted(sizes) != sorted(group.addresses):
        return False
    for address in group.addresses:
        try:
            if out.joinpath(*address.split("/")).stat().st_size != sizes[address]:
                return False
        except OSError:
            return False
    return True


def write_site(data: SiteData, out: Path) -> WrittenSite:
    """Write the site of ``data`` into ``out`` (created when missing)."""
    done = WrittenSite()
    keep: set[str] = set()
    made: set[Path] = set()
    manifest = _manifest(out)
    kept: dict[str, dict[str, object]] = {}

    def put(address: str, body: bytes) -> None:
        keep.add(address)
        path = out.joinpath(*address.split("/"))
        if _same(path, body):
            done.unchanged += 1
            return
        if path.parent not in made:
            path.parent.mkdir(parents=True, exist_ok=True)
            made.add(path.parent)
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_bytes(body)
        os.replace(temporary, path)
        done.written.append(address)
        done.bytes_written += len(body)

    for group in site_groups(data):
        if _held(out, group, manifest):
            keep.update(group.addresses)
            done.unchanged += len(group.addresses)
            kept[str(group.key)] = manifest[str(group.key)]
            continue
        sizes: dict[str, object] = {}
        for address, body in group.make():
            put(address, body)
            sizes[address] = len(body)
        if group.key is not None:
            kept[group.key] = sizes
    text = json.dumps(kept, sort_keys=True, separators=(",", ":")) + "\n"
    put(MANIFEST, text.encode())
    for folder in SITE_FOLDERS:
        for address in sorted(_files_under(out, folder)):
            if address not in keep:
                out.joinpath(*address.split("/")).unlink()
                done.removed.append(address)
    return done


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
