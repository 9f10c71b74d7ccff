"""How the reports name the input files: by file name, not by the path given.

A report is published (a club's web page, an e-mail to the players); the folders of the
organiser's computer (``/home/anna/Documents/...``) are not the reader's business. The file name
is what the organiser recognises. When two inputs share a name (``club-a/games.csv``,
``club-b/games.csv``), each gets as many of its last folders as tell them apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePath, PurePosixPath, PureWindowsPath


def _parts(path: str) -> tuple[str, ...]:
    """The path's parts, with either separator (a Windows path read on Linux, or the reverse)."""
    parts = PureWindowsPath(path).parts if "\\" in path else PurePosixPath(path).parts
    return tuple(p for p in parts if p not in ("/", "\\")) or (path,)


def shown_names(paths: Iterable[str | PurePath]) -> dict[str, str]:
    """Each path (as text) -> the name the reports show: its file name, or as many of its last
    parts as tell it apart from every other path of ``paths`` with the same name."""
    texts = list(dict.fromkeys(str(p) for p in paths))
    parts = {t: _parts(t) for t in texts}
    shown: dict[str, str] = {}
    for text in texts:
        depth = 1
        while depth < len(parts[text]) and any(
            other != text and parts[other][-depth:] == parts[text][-depth:] for other in texts
        ):
            depth += 1
        shown[text] = "/".join(parts[text][-depth:])
    return shown


def event_title(event_name: str, paths: Iterable[str | PurePath]) -> str:
    """What every face calls a rated event (report.html's title and heading, the web's event
    page): its own name (a lone TRF's 012 record, ``RatedPeriod.event_name``), else the names
    of its input files."""
    return event_name or ", ".join(shown_names(paths).values()) or "Rating report"


def shown_name(path: str | PurePath) -> str:
    """One path's file name (no other path to tell it from)."""
    return _parts(str(path))[-1]
