"""Atomic output: every file of a run is written to a temporary name in the output folder and
renamed into place only when all of them are complete. A run that fails (or is killed) before the
commit leaves the folder as it was, apart from temporary files it removes on the way out (and
the folder itself when the run created it).

A batch refuses, with a clear problem instead of an OS traceback: an output folder that is a file
or a dangling symlink, one it cannot write (read-only, disk full), and an output that would
replace one of the run's inputs (``protect``), e.g. ``fiderate rate games.csv --out .``.

:class:`ZipBatch` is the same batch for files that go to no folder: they are collected into one
zip held in memory (a web upload's download), with the names and bytes a folder would get. A
writer writes to a batch's ``target(name)``, a path or a stream (:data:`Target`), through
:func:`opened`, and so writes the same bytes to either.
"""

from __future__ import annotations

import errno
import io
import os
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import IO

from pipeline.errors import Code, OutputError, Problem

# mkstemp creates files readable by the owner only; outputs (lists, reports published on a web
# server) should get the mode any new file gets, so apply the process umask ourselves.
_UMASK = os.umask(0)
os.umask(_UMASK)
FILE_MODE = 0o666 & ~_UMASK
# The date of every member of a zip written here: the same files give the same zip.
ZIP_DATE = (2000, 1, 1, 0, 0, 0)

# Where a writer writes one output: a (temporary) path, or a stream a zip member is made from.
Target = Path | IO[bytes]


@contextmanager
def opened(target: Target) -> Iterator[IO[bytes]]:
    """``target`` to write bytes to: a path opened (and closed on the way out), or the stream
    as it is (its sink reads it once the writer is done)."""
    if isinstance(target, Path):
        with target.open("wb") as fh:
            yield fh
    else:
        yield target


def write_text(target: Target, text: str) -> None:
    """``text`` to ``target`` as UTF-8, line endings as they are (LF on every system)."""
    with opened(target) as fh:
        fh.write(text.encode("utf-8"))


def output_problem(
    out_dir: Path, message: str, fix: str, code: Code = Code.BAD_OUTPUT
) -> OutputError:
    return OutputError([Problem(code, message, file=str(out_dir), fix=fix)])


def os_problem(out_dir: Path, exc: OSError) -> OutputError:
    """An OS error met while writing, as a problem saying what to do about it."""
    reason = exc.strerror or type(exc).__name__
    if exc.errno == errno.ENOSPC:
        fix = "free some disk space (or choose --out on another disk) and run again"
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        fix = "choose an --out folder you can write to, or change its permissions"
    else:
        fix = "check the --out folder and run again"
    where = f" ({exc.filename})" if exc.filename else ""
    return output_problem(
        out_dir, f"cannot write the outputs: {reason}{where}; nothing written", fix
    )


def on_disk(inputs: Iterable[object]) -> list[Path]:
    """The inputs that are files on disk (a path, as text or not): an input held in memory
    (``model.InputFile``, an upload) is no file an output could replace."""
    return [Path(p) for p in inputs if isinstance(p, (str, os.PathLike))]


def check_not_an_input(final: Path, inputs: Iterable[object]) -> None:
    """Refuse to write ``final`` when it is one of ``inputs``: the same path once resolved, or
    the same file under another name (a link; ``os.path.samefile`` works on every system)."""
    target = final.resolve()
    for source in on_disk(inputs):
        same = source.resolve() == target
        if not same and final.exists() and source.exists():
            same = os.path.samefile(final, source)
        if same:
            raise output_problem(
                final,
                f"writing {final.name} would replace the input {str(source)!r}",
                "choose another --out folder (outputs keep their own names)",
                code=Code.OUTPUT_REPLACES_INPUT,
            )


class OutputBatch:
    def __init__(self, out_dir: Path | str, protect: Iterable[object] = ()):
        self.out_dir = Path(out_dir)
        self._pending: list[tuple[Path, Path]] = []
        self._protect = on_disk(protect)
        self._created: Path | None = None  # the topmost folder this batch created

    def __enter__(self) -> OutputBatch:
        out = self.out_dir
        if out.is_symlink() and not out.exists():
            raise output_problem(
                out, "the output folder is a dangling symbolic link", "remove the link or fix it"
            )
        if out.exists() and not out.is_dir():
            raise output_problem(
                out, "the output folder is a file", "give --out a folder (new or existing)"
            )
        missing = [p for p in [out, *out.parents] if not p.exists()]
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise os_problem(out, exc) from None
        self._created = missing[-1] if missing else None
        return self

    def target(self, name: str) -> Path:
        """Where a writer writes ``name``: :meth:`path` (the interface :class:`ZipBatch` shares)."""
        return self.path(name)

    def path(self, name: str) -> Path:
        """A temporary path to write ``name`` to; it becomes ``out_dir/name`` on commit."""
        final = self.out_dir / name
        check_not_an_input(final, self._protect)
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=self.out_dir)
        except OSError as exc:
            raise os_problem(self.out_dir, exc) from None
        os.close(fd)
        os.chmod(tmp, FILE_MODE)
        self._pending.append((Path(tmp), final))
        return Path(tmp)

    def planned(self) -> list[tuple[Path, Path]]:
        """(temporary, final) for every file not yet renamed into place."""
        return list(self._pending)

    def forget(self) -> None:
        """Hand the temporary files over to the caller (e.g. a journal that renames them later):
        the batch neither renames nor deletes them from now on."""
        self._pending = []

    def commit(self) -> list[Path]:
        written = []
        for tmp, final in self._pending:
            os.replace(tmp, final)
            written.append(final)
        self._pending = []
        return written

    def discard(self) -> None:
        for tmp, _ in self._pending:
            tmp.unlink(missing_ok=True)
        self._pending = []

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is not None:
            self.discard()
            self._remove_created()
            if isinstance(exc, OSError):
                raise os_problem(self.out_dir, exc) from None

    def _remove_created(self) -> None:
        """Remove the folders this batch created, if they stayed empty."""
        if self._created is None:
            return
        for folder in [self.out_dir, *self.out_dir.parents]:
            try:
                folder.rmdir()
            except OSError:
                return
            if folder == self._created:
                return


class ZipBatch:
    """The files of a run collected into one zip in memory (``data``, after :meth:`commit`):
    the interface of :class:`OutputBatch` (``target``, ``commit``, ``discard``), for files
    that go to no folder. Each member gets the bytes its writer wrote to ``target(name)``,
    under ``name``, dated :data:`ZIP_DATE` and deflated, in the order they were asked for: the
    same files give the same zip.

    A writer is done with its target when the next is asked for (writers write one file at a
    time): the member is then compressed into the zip and its bytes freed, so no more than one
    output is held uncompressed. ``protect`` is accepted for the interface: no member can
    replace an input."""

    def __init__(self, protect: Iterable[object] = ()) -> None:
        self.data = b""
        self._buffer = io.BytesIO()
        self._archive: zipfile.ZipFile | None = None
        self._pending: tuple[str, io.BytesIO] | None = None
        self._names: list[str] = []

    def __enter__(self) -> ZipBatch:
        self._archive = zipfile.ZipFile(self._buffer, "w", zipfile.ZIP_DEFLATED)
        return self

    def target(self, name: str) -> IO[bytes]:
        """A stream to write ``name`` to; it becomes the zip's member ``name``."""
        self._store_pending()
        if name in self._names:
            raise ValueError(f"{name!r} is written twice in one zip")
        member = io.BytesIO()
        self._pending = (name, member)
        return member

    def _store_pending(self) -> None:
        if self._pending is None:
            return
        assert self._archive is not None, "a ZipBatch is used inside its with block"
        name, member = self._pending
        info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
        info.compress_type = zipfile.ZIP_DEFLATED
        with member.getbuffer() as view:
            self._archive.writestr(info, view)
        member.close()  # a writer that went on writing to it fails loudly
        self._names.append(name)
        self._pending = None

    def commit(self) -> list[Path]:
        """Close the zip (``data``); the members' names, as paths relative to the zip."""
        self._store_pending()
        if self._archive is not None:
            self._archive.close()
            self._archive = None
        self.data = self._buffer.getvalue()
        return [Path(name) for name in self._names]

    def discard(self) -> None:
        self._pending = None
        if self._archive is not None:
            self._archive.close()
            self._archive = None
        self._buffer = io.BytesIO()
        self._names = []

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is not None:
            self.discard()
