"""Problems collected while a reader scans a file: all of them reported at once, in bounded
memory (the first :data:`pipeline.errors.KEEP_LIMIT` kept, the rest counted)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from pipeline import errors
from pipeline.errors import Code, InputError, Omitted, Problem

if TYPE_CHECKING:
    import numpy as np


class ProblemList:
    """Collects problems while a reader scans a file: the first :data:`KEEP_LIMIT` are kept, the
    rest only counted, so a file of a million bad rows holds a thousand problems in memory, not a
    million. ``problems`` ends with an :class:`Omitted` standing for the count, which the reports
    add to the total."""

    def __init__(self) -> None:
        self._kept: list[Problem] = []
        self._omitted: dict[str, int] = {}  # by file: a run reads several files at once
        self.keep = errors.KEEP_LIMIT  # read now: a test lowers the limit

    @property
    def problems(self) -> list[Problem]:
        tail = [Omitted.of(count, file) for file, count in self._omitted.items()]
        return self._kept + tail

    @property
    def omitted(self) -> int:
        return sum(self._omitted.values())

    def room(self) -> int:
        """How many more problems are kept: a reporter with thousands of bad cells builds only
        this many and counts the rest with :meth:`skip`."""
        return max(0, self.keep - len(self._kept))

    def skip(self, count: int, file: str = "") -> None:
        """Count ``count`` problems of ``file`` found but not built (past :meth:`room`)."""
        if count > 0:
            self._omitted[file] = self._omitted.get(file, 0) + count

    def within_room(self, positions: np.ndarray, file: str = "") -> np.ndarray:
        """The first of ``positions`` (bad rows of ``file``, in order) that the list has room
        for; the rest are counted, so a reporter builds at most :meth:`room` problems however
        many rows are bad."""
        room = self.room()
        self.skip(len(positions) - room, file)
        return positions[:room]

    def add(self, code: Code, message: str, **where: object) -> None:
        if len(self._kept) >= self.keep:
            self.skip(1, str(where.get("file", "")))
            return
        self._kept.append(Problem(code, message, **where))  # type: ignore[arg-type]

    def extend(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            if isinstance(problem, Omitted):
                self.skip(problem.count, problem.file)
            elif len(self._kept) < self.keep:
                self._kept.append(problem)
            else:
                self.skip(1, problem.file)

    def raise_if_any(self) -> None:
        if self:
            raise InputError(self.problems)

    def __bool__(self) -> bool:
        return bool(self._kept) or bool(self._omitted)
