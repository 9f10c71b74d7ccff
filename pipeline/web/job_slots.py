"""The bound on "rate an event" jobs: at most ``running`` rate at once, at most ``waiting`` more
queue for a turn, and an upload beyond those is told to come back (503 with ``Retry-After``)
before its body is read.

Why: one rating job holds its whole event in memory (several times the file's size, more for a
large event's pages: docs/web.md), and the server's worker threads would otherwise run as many
jobs at once as uploads arrive. A queue rather than an early 503 for the first ``waiting``
uploads: a tournament hall's arbiters uploading together all get their results, in turn.
A waiting upload holds no worker thread and no job memory; its files wait on disk (the form
parser's temporary files), so the disk bound is ``(running + waiting)`` times two files.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio

RUNNING = 2  # jobs rating at once: each may hold a whole event in memory
WAITING = 30  # uploads queued behind them (twenty arbiters at once all get their results)
RETRY_AFTER = 30  # seconds a refused upload is told to wait


class Busy(Exception):
    """Every running and waiting place is taken."""


class JobSlots:
    """``running`` places to rate and ``waiting`` places to queue for one; used from the event
    loop only (the counts need no lock: the loop runs one coroutine at a time)."""

    def __init__(self, running: int = RUNNING, waiting: int = WAITING) -> None:
        if running < 1 or waiting < 0:
            raise ValueError("at least one running job, and no negative queue")
        self.running, self.waiting = running, waiting
        self.admitted = 0  # uploads holding a place (running or queued)
        self._turns: anyio.Semaphore | None = None  # made in the loop that uses it

    @asynccontextmanager
    async def place(self) -> AsyncIterator[None]:
        """A place in the queue, taken before the upload's body is read; :class:`Busy` when
        none is free."""
        if self.admitted >= self.running + self.waiting:
            raise Busy
        self.admitted += 1
        try:
            yield
        finally:
            self.admitted -= 1

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """One of the ``running`` turns to rate, waited for in order of arrival."""
        if self._turns is None:
            self._turns = anyio.Semaphore(self.running)
        async with self._turns:
            yield
