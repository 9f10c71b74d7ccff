"""Bounds on what a reader accepts, so a hostile or broken file fails quickly with a clear
problem instead of exhausting memory or time.

- ``MAX_UNPACKED_BYTES``: what a zipped FIDE list or an XLSX workbook may unpack to. The full
  FIDE XML list (all players, all three ratings) unpacks to well under 1 GB; a 3 MB "zip bomb"
  declaring 3 GB is refused before a byte is inflated, and one whose header lies is cut off while
  it streams.
- ``MAX_COLUMNS``: the widest table we read. A grid crosstable has one column per player, so a
  round robin of a few hundred players fits; 10^6 columns is refused before parsing.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import IO

from pipeline.errors import Code, InputError, Problem

MAX_UNPACKED_BYTES = 1 << 30  # 1 GiB
MAX_COLUMNS = 2_000


def too_large(source: str, what: str) -> InputError:
    limit = f"{MAX_UNPACKED_BYTES / (1 << 20):,.0f} MB"
    return InputError(
        [
            Problem(
                Code.TOO_LARGE,
                f"{what} unpacks to more than {limit}: refused (a damaged or hostile archive)",
                file=source,
                fix=f"unpack it yourself and check it, or give a file under {limit} unpacked",
            )
        ]
    )


def too_wide(source: str, count: int, row: int | None = 1) -> InputError:
    return InputError(
        [
            Problem(
                Code.TOO_WIDE,
                f"the table has {count:,} columns, more than the {MAX_COLUMNS:,} we read",
                file=source,
                row=row,
                fix="check the delimiter and the export: a games or players table has a few "
                "dozen columns",
            )
        ]
    )


def check_zip(path: Path, source: str) -> None:
    """Refuse an archive whose members declare more than :data:`MAX_UNPACKED_BYTES` in all."""
    try:
        with zipfile.ZipFile(path) as archive:
            declared = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        return  # the reader reports a damaged archive in its own words
    if declared > MAX_UNPACKED_BYTES:
        raise too_large(source, "the archive")


class CappedStream(io.RawIOBase):
    """A read-only stream that raises :class:`InputError` past ``MAX_UNPACKED_BYTES``: the size
    a zip member declares may lie, the count of bytes actually inflated does not."""

    def __init__(self, inner: IO[bytes] | io.BufferedIOBase | io.RawIOBase, source: str):
        self._inner = inner
        self._source = source
        self._seen = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        room = MAX_UNPACKED_BYTES + 1 - self._seen
        wanted = room if size is None or size < 0 else min(size, room)
        data = self._inner.read(wanted) or b""
        self._seen += len(data)
        if self._seen > MAX_UNPACKED_BYTES:
            raise too_large(self._source, "the zipped list")
        return data

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)
