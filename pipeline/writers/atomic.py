"""Atomic output: every file of a run is written to a temporary name in the output folder and
renamed into place only when all of them are complete. A run that fails (or is killed) before the
commit leaves the folder as it was, apart from temporary files it removes on the way out.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from types import TracebackType

# mkstemp creates files readable by the owner only; outputs (lists, reports published on a web
# server) should get the mode any new file gets, so apply the process umask ourselves.
_UMASK = os.umask(0)
os.umask(_UMASK)
FILE_MODE = 0o666 & ~_UMASK


class OutputBatch:
    def __init__(self, out_dir: Path | str):
        self.out_dir = Path(out_dir)
        self._pending: list[tuple[Path, Path]] = []

    def __enter__(self) -> OutputBatch:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        return self

    def path(self, name: str) -> Path:
        """A temporary path to write ``name`` to; it becomes ``out_dir/name`` on commit."""
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=self.out_dir)
        os.close(fd)
        os.chmod(tmp, FILE_MODE)
        final = self.out_dir / name
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
