"""Uploads of the "rate an event" page: the request body counted as it arrives (a body past the
limit stops at once, before it is all read), each file read into memory (the rate job reads it
from there, as an ``InputFile`` under a name of our own making: nothing goes to disk), and the
finished runs kept in a bounded store under tokens nobody can guess.

A name sent by the browser is never a path: :func:`safe_name` keeps its last part's letters,
digits, dots, dashes and spaces, for display and for format detection by extension only.
"""

from __future__ import annotations

import io
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")
MAX_NAME = 80

# The largest files an upload may hold, from what one rating job may hold in memory: the server
# rates ``job_slots.RUNNING`` events at once, each within JOB_MEMORY, three quarters of it for
# the event and one for the rating list. A job's peak grows with the event far faster than with
# the list (its pages hold every player's calculation): measured over the web page (docs/web.md),
# a 10 MB games file of 200,000 games peaked about 290 bytes per byte, a 20 MB list of 400,000
# players about 11. Rounded down to whole MiB; a larger event is for ``fiderate rate``. (Since
# an upload is one rate call, that games file peaks at 52 bytes per byte: most of the 290 was the
# norms job the page ran on it, which the report never showed. The bound stays: an event file
# of the same size (a TRF) still has its norms checked, and that was not measured again.)
JOB_MEMORY = 1 << 30  # 1 GiB
EVENT_PEAK_PER_BYTE = 300
LIST_PEAK_PER_BYTE = 12
MIB = 1 << 20
EVENT_BYTES = JOB_MEMORY * 3 // 4 // EVENT_PEAK_PER_BYTE // MIB * MIB  # 2 MiB
LIST_BYTES = JOB_MEMORY // 4 // LIST_PEAK_PER_BYTE // MIB * MIB  # 21 MiB


class UploadTooLarge(Exception):
    """The request body, or one file of it, is larger than the limit."""


def safe_name(sent: str | None, fallback: str = "upload") -> str:
    """The base name of ``sent`` (a browser's file name), reduced to harmless characters; never
    empty, never starting with a dot, never a path."""
    base = PurePosixPath((sent or "").replace("\\", "/")).name
    cleaned = UNSAFE.sub("_", base).strip(" .")[-MAX_NAME:].strip(" .")
    return cleaned or fallback


Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]


def counted(receive: Receive, limit: int) -> Receive:
    """``receive`` that raises :class:`UploadTooLarge` once more than ``limit`` body bytes came."""
    seen = 0

    async def wrapped() -> MutableMapping[str, Any]:
        nonlocal seen
        message = await receive()
        if message.get("type") == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise UploadTooLarge
        return message

    return wrapped


@dataclass(frozen=True)
class FinishedRun:
    """What the pages of one rated upload show, and its outputs as one zip."""

    name: str  # the uploaded event's safe name
    summary: dict[str, Any]
    view: Any  # pipeline.report.EventReport: what the event and player pages render
    norms: dict[str, Any]
    zip_bytes: bytes
    files: tuple[str, ...]


class RunStore:
    """The last ``max_runs`` finished runs (and at most ``max_bytes`` of zips), oldest dropped
    first; safe to use from the server's threads."""

    def __init__(self, max_runs: int = 32, max_bytes: int = 512 << 20) -> None:
        self.max_runs, self.max_bytes = max_runs, max_bytes
        self._runs: OrderedDict[str, FinishedRun] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, run: FinishedRun) -> str:
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._runs[token] = run
            while len(self._runs) > self.max_runs or (
                len(self._runs) > 1
                and sum(len(r.zip_bytes) for r in self._runs.values()) > self.max_bytes
            ):
                self._runs.popitem(last=False)
        return token

    def get(self, token: str) -> FinishedRun | None:
        with self._lock:
            return self._runs.get(token)


def read_upload(source: Any, limit: int, chunk: int = 1 << 20) -> bytes:
    """The bytes of an upload's spooled file (``source.file``), raising :class:`UploadTooLarge`
    past ``limit`` bytes. Read in chunks: a read of ``limit`` bytes at once would reserve them
    all before reading one (``readers.limits``)."""
    held = io.BytesIO()  # grows in place; getvalue() hands its buffer over, uncopied
    source.file.seek(0)
    while block := source.file.read(chunk):
        if held.tell() + len(block) > limit:
            raise UploadTooLarge
        held.write(block)
    return held.getvalue()
