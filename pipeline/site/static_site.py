"""Writing the static site into a folder: each file's bytes compared with what the folder
holds, and only a file that differs (or is missing) written, through a temporary name renamed
into place (a reader of the folder never sees half a page). A file the site no longer has (a
player gone from every list, a superseded period's calculation) is removed when it lies in one
of the site's own folders.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.site.history_data import SiteData
from pipeline.site.site_files import site_files

SITE_FOLDERS = ("lists", "top", "players", "calculations", "search", "static")
SITE_ROOT_FILES = ("index.html", "index.json", "search.html", "search.json")


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


def write_site(data: SiteData, out: Path) -> WrittenSite:
    """Write the site of ``data`` into ``out`` (created when missing)."""
    done = WrittenSite()
    keep: set[str] = set()
    made: set[Path] = set()
    for address, body in site_files(data):
        keep.add(address)
        path = out.joinpath(*address.split("/"))
        if _same(path, body):
            done.unchanged += 1
            continue
        if path.parent not in made:
            path.parent.mkdir(parents=True, exist_ok=True)
            made.add(path.parent)
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_bytes(body)
        os.replace(temporary, path)
        done.written.append(address)
        done.bytes_written += len(body)
    for folder in SITE_FOLDERS:
        for path in sorted((out / folder).rglob("*")) if (out / folder).is_dir() else []:
            address = path.relative_to(out).as_posix()
            if path.is_file() and address not in keep:
                path.unlink()
                done.removed.append(address)
    return done
