"""Bounds on what a reader accepts, so a hostile or broken file fails quickly with a clear
problem instead of exhausting memory or time.

- ``MAX_UNPACKED_BYTES``: what a zipped FIDE list or an XLSX workbook may unpack to. The full
  FIDE XML list (all players, all three ratings) unpacks to well under 1 GB; a 3 MB "zip bomb"
  declaring 3 GB is refused before a byte is inflated, and one whose header lies is cut off while
  it streams.
- ``MAX_COLUMNS``: the widest table we read. A grid crosstable has one column per player, so a
  round robin of a few hundred players fits; 10^6 columns is refused before parsing.
- ``MAX_INPUT_BYTES``: the largest input file. Every input (events, players lists, a period's
  lists and events, convert's input) is a regular file, checked by its status before it is
  opened (:func:`check_input`): ``/dev/zero`` would be read until the kernel kills the run, and
  opening a FIFO blocks until someone writes to it. The file is then read with this bound
  (:func:`read_input`), in case it grows while it is read.

An input is a path or an :class:`~pipeline.model.InputFile` (an upload held in memory): the
functions here take either (``Source``), so every reader applies the same bounds to both and
reads each input's bytes once, here (:func:`read_input`, or :func:`open_input` for the readers
that stream: workbooks, XML lists, Parquet).

No read asks for one of these bounds at once: CPython's ``read(n)`` on a file allocates ``n``
bytes before it reads one, so ``read(MAX_INPUT_BYTES + 1)`` reserves 2 GiB of address space for a
2 KB file, and fails (MemoryError) under an address-space limit of a few GB (``ulimit -v``, a
small container, strict overcommit). Reads are sized by what the file holds and go on in chunks.
"""

from __future__ import annotations

import io
import os
import stat
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from pipeline.errors import Code, InputError, Problem
from pipeline.model import InputFile

Source = Path | InputFile  # an input on disk, or held in memory (an upload)

MAX_UNPACKED_BYTES = 1 << 30  # 1 GiB
MAX_COLUMNS = 2_000
# The longest header line of a CSV file: 2,000 columns of 32-character names.
MAX_HEADER_CHARS = 64_000
# The longest TRF line: a 001 record of MAX_TRF_ROUNDS rounds (round r ends at 91 + 10 r).
MAX_TRF_ROUNDS = 999
MAX_TRF_LINE = 91 + 10 * MAX_TRF_ROUNDS
# The highest round number of a games or individual file (four digits: a club's league of
# years fits; ``1e308`` or 2**64 does not).
MAX_ROUND = 9_999
# Twice the full FIDE XML list unpacked; a month of FIDE games as CSV is under 100 MB.
MAX_INPUT_BYTES = 2 << 30  # 2 GiB
# What a read asks for at once past the size a file's status gave (see the module's docstring).
READ_CHUNK = 1 << 20  # 1 MiB


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


def header_too_long(source: str, length: int) -> InputError:
    return InputError(
        [
            Problem(
                Code.TOO_WIDE,
                f"the header (row 1) is {length:,} characters long, more than the "
                f"{MAX_HEADER_CHARS:,} of any table we read: refused unread",
                file=source,
                row=1,
                fix="check that this is the file you meant: a table's first line names its "
                "columns (white,black,result,...)",
            )
        ]
    )


def as_source(given: Path | str | InputFile) -> Source:
    """``given`` as the readers take it: an :class:`InputFile` as it is, any other as a path."""
    return given if isinstance(given, InputFile) else Path(given)


def check_zip(path: Source, source: str) -> None:
    """Refuse an archive whose members declare more than :data:`MAX_UNPACKED_BYTES` in all."""
    try:
        with open_input(path) as raw, zipfile.ZipFile(raw) as archive:
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
        if size is None or size < 0:  # all of it: in chunks, never one read of the whole bound
            out = io.BytesIO()  # grows in place; getvalue() hands its buffer over, uncopied
            while block := self.read(READ_CHUNK):
                out.write(block)
            return out.getvalue()
        data = self._inner.read(min(size, MAX_UNPACKED_BYTES + 1 - self._seen)) or b""
        self._seen += len(data)
        if self._seen > MAX_UNPACKED_BYTES:
            raise too_large(self._source, "the zipped list")
        return data

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _megabytes(size: int) -> str:
    return f"{size / (1 << 20):,.0f} MB" if size >= 1 << 20 else f"{size:,} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def input_problem(path: Source) -> Problem | None:
    """Why ``path`` cannot be an input, or None: from its status alone, never opening it (an
    :class:`InputFile` from its size alone)."""
    source = str(path)
    if isinstance(path, InputFile):
        size = len(path.data)
        return _too_big(source, size) if size > MAX_INPUT_BYTES else None
    try:
        status = path.stat()
    except FileNotFoundError:
        return Problem(
            Code.NOT_A_TABLE, "the file does not exist", file=source, fix="check the path"
        )
    except OSError as exc:
        return Problem(
            Code.NOT_A_FILE,
            f"cannot read the file ({exc.strerror or type(exc).__name__})",
            file=source,
            fix="check the path and that you may read the file",
        )
    if stat.S_ISDIR(status.st_mode):
        return Problem(
            Code.NOT_A_FILE,
            "this is a folder, not a file",
            file=source,
            fix="give the path of the file itself, not of the folder that holds it",
        )
    if not stat.S_ISREG(status.st_mode):
        return Problem(
            Code.NOT_A_FILE,
            f"this is {_kind(status.st_mode)}, not a regular file: refused, as reading it may "
            "never end",
            file=source,
            fix="save the data to a file first and give that file",
        )
    if status.st_size > MAX_INPUT_BYTES:
        return _too_big(source, status.st_size)
    return None


def _too_big(source: str, size: int | None) -> Problem:
    limit = _megabytes(MAX_INPUT_BYTES)
    held = f"{_megabytes(size)}, " if size is not None else ""
    return Problem(
        Code.TOO_LARGE,
        f"the file holds {held}more than the {limit} we read: refused",
        file=source,
        fix=f"check that this is the file you meant; give a file under {limit}",
    )


def check_input(path: Source) -> None:
    """Raise :class:`InputError` unless ``path`` is a regular file of at most
    :data:`MAX_INPUT_BYTES`."""
    problem = input_problem(path)
    if problem is not None:
        raise InputError([problem])


def read_input(path: Source) -> bytes:
    """The bytes of the input ``path`` (:func:`check_input`), never more than
    :data:`MAX_INPUT_BYTES` of them: a file that grows while it is read is refused. An
    :class:`InputFile`'s bytes are its own (not copied)."""
    check_input(path)
    if isinstance(path, InputFile):
        return path.data
    try:
        with path.open("rb") as fh:
            data = _read_bounded(fh)
    except OSError as exc:
        raise InputError(
            [
                Problem(
                    Code.NOT_A_FILE,
                    f"cannot read the file ({exc.strerror or type(exc).__name__})",
                    file=str(path),
                    fix="check the path and that you may read the file",
                )
            ]
        ) from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputError([_too_big(str(path), None)])
    return data


def input_head(path: Source, size: int) -> bytes:
    """The first ``size`` bytes of an input (what format detection looks at), b"" when it
    cannot be read (the reader then reports why)."""
    if isinstance(path, InputFile):
        return path.data[:size]
    try:
        with path.open("rb") as fh:
            return fh.read(size)
    except OSError:
        return b""


@contextmanager
def open_input(path: Source) -> Iterator[IO[bytes]]:
    """The input as a binary stream, for the readers that stream it (a workbook, an XML or
    zipped list, Parquet): the file opened, or a stream over an :class:`InputFile`'s bytes
    (not copied). The caller checked it (:func:`check_input`) and says why it cannot be
    opened (an OSError) in its format's words."""
    if isinstance(path, InputFile):
        yield io.BytesIO(path.data)
        return
    with path.open("rb") as fh:
        yield fh


def _read_bounded(fh: IO[bytes]) -> bytes:
    """All of ``fh``, or its first ``MAX_INPUT_BYTES + 1`` bytes when it holds more. The first
    read asks for the size the file's status gives, plus one byte to see whether it grew; only
    a file that grew (or that, like those in /proc, reports no size) is read on, in chunks of
    :data:`READ_CHUNK`, until it ends or passes the bound."""
    expected = min(os.fstat(fh.fileno()).st_size, MAX_INPUT_BYTES)
    data = fh.read(expected + 1)
    if len(data) <= expected:
        return data
    chunks, held = [data], len(data)
    while held <= MAX_INPUT_BYTES and (
        block := fh.read(min(READ_CHUNK, MAX_INPUT_BYTES + 1 - held))
    ):
        chunks.append(block)
        held += len(block)
    return b"".join(chunks)
