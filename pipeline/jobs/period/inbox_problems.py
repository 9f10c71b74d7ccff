"""What a scheduled run tells the officer when a person is needed: the event files of a
published month that were added late, changed or removed, and the command lines that settle it
(``--replace`` of the last month published, or the next period with the late files and the
``--earlier-list`` they need). Planned by :mod:`pipeline.jobs.period.schedule`.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pipeline.errors import Code, Problem
from pipeline.history import store as history
from pipeline.history.published_inputs import PublishedMonth, published_month
from pipeline.model import EventFile
from pipeline.rules.months import add_months
from pipeline.rules.sets import DEFAULT_RULES


class ScheduledCommand(Protocol):
    """What the command lines are built from: the scheduled run's own options."""

    @property
    def out_dir(self) -> Path: ...
    @property
    def events(self) -> tuple[Path, ...]: ...
    @property
    def db_path(self) -> Path | None: ...
    @property
    def database(self) -> Path: ...
    @property
    def rules(self) -> str: ...
    @property
    def rating_kind(self) -> str: ...


@dataclass(frozen=True)
class InboxFile:
    file: EventFile
    month: str | None  # the month its earliest event started; None: no date in it
    rated_in: str | None  # the period that rated this content, if one did


def list_name(month: str) -> str:
    """The list in force in ``month`` as a period run writes it
    (``writers.period_files.output_names``)."""
    return f"rating_list_{month}.csv"


def person_needed(
    request: ScheduledCommand,
    con: sqlite3.Connection | None,
    inbox: Sequence[InboxFile],
    late: dict[str, list[EventFile]],
    checked: PublishedMonth | None,
    published: list[str],
    target: str | None,
) -> list[Problem]:
    """Late events and changed inputs of published months, with the command lines that settle
    them. With --period, only that month's (the others are for the scheduled run)."""
    months = sorted(set(late) | ({checked.period} if checked is not None else set()))
    if target is not None:
        months = [m for m in months if m == target]
    problems = []
    latest = published[-1] if published else ""
    for month in months:
        added = late.get(month, [])
        recorded = published_month(con, month, request.rating_kind) if con is not None else None
        old_paths = set(recorded.events.values()) if recorded is not None else set()
        here = {i.file.sha256 for i in inbox if i.rated_in == month}
        removed = (
            [p for sha, p in recorded.events.items() if sha not in here]
            if recorded is not None and checked is not None and month == checked.period
            else []
        )
        changed = [str(f.path) for f in added if str(f.path) in old_paths]
        removed = [p for p in removed if p not in changed]
        added_paths = [str(f.path) for f in added if str(f.path) not in changed]
        if not (added_paths or changed or removed):
            continue
        problems.append(
            _month_problem(request, con, inbox, month, latest, (added_paths, changed, removed))
        )
    return problems


def _month_problem(
    request: ScheduledCommand,
    con: sqlite3.Connection | None,
    inbox: Sequence[InboxFile],
    month: str,
    latest: str,
    files: tuple[list[str], list[str], list[str]],
) -> Problem:
    """One published month's late, changed or removed files, and the lines that settle it."""
    added, changed, removed = files
    following = add_months(latest, 1)
    parts = [
        f"{what}: {', '.join(paths)}"
        for what, paths in (("added", added), ("changed", changed), ("removed", removed))
        if paths
    ]
    replace_line = command_line(request, month, replace=True)
    next_line = next_period_line(request, con, month, latest, added + changed, inbox)
    published = (
        con is not None and history.published_run(con, month, request.rating_kind) is not None
    )
    if month == latest:
        fix = f"to rate {month} again with the files as they are now: {replace_line}"
    else:
        fix = (
            f"{month} can no longer be rated again ({latest} is published); " if published else ""
        ) + f"once {following} is over, rate the event with the next period: {next_line}"
    if changed or removed:
        message = f"the events of {month}, published, differ from those it was rated from: "
        code = Code.INPUTS_CHANGED
    else:
        message = (
            f"an event dated {month} arrived after {month} was published: "
            if published
            else f"an event dated {month}, before this history's first list, arrived: "
        )
        code = Code.LATE_EVENT
        if month == latest:
            fix += f"; or, once {following} is over, rate it with the next period: {next_line}"
    return Problem(code, message + "; ".join(parts), file=str(request.database), fix=fix)


# A word any shell (sh, cmd, PowerShell) takes as it is: no quotes needed around it.
_PLAIN_WORD = re.compile(r"[\w@%+=:,./\\-]+")


def shell_words(words: Sequence[str]) -> str:
    """``words`` as a command line to copy: a word with spaces or other signs in double quotes,
    which sh, cmd and PowerShell all read (POSIX single quotes are not cmd's)."""
    return " ".join(
        w if _PLAIN_WORD.fullmatch(w) else '"' + w.replace('"', '\\"') + '"' for w in words
    )


def command_line(request: ScheduledCommand, month: str, replace: bool = False) -> str:
    """The scheduled command line for one month, as the officer types it."""
    words = ["fiderate", "period", "--out", str(request.out_dir)]
    for path in request.events:
        words += ["--events", str(path)]
    if request.db_path is not None:
        words += ["--db", str(request.db_path)]
    words += ["--period", month] + (["--replace"] if replace else []) + _rules_words(request)
    return shell_words(words)


def _rules_words(request: ScheduledCommand) -> list[str]:
    """``--rules`` as given, unless it is the default (the line of a standard list stays
    short): the line publishes the same kind of list."""
    return [] if request.rules == DEFAULT_RULES else ["--rules", request.rules]


def next_period_line(
    request: ScheduledCommand,
    con: sqlite3.Connection | None,
    month: str,
    latest: str,
    paths: list[str],
    inbox: Sequence[InboxFile],
) -> str:
    """The explicit run of the next period with the late files: its list, the late files and
    the files given dated in that period, and, when the history lacks the late month's list,
    the ``--earlier-list`` it needs."""
    following = add_months(latest, 1)
    words = ["fiderate", "period", "--list", str(request.out_dir / list_name(following))]
    own = [str(i.file.path) for i in inbox if i.rated_in is None and i.month == following]
    for path in paths + own:
        words += ["--events", path]
    words += ["--period", following, "--out", str(request.out_dir), *_rules_words(request)]
    if request.db_path is not None:
        words += ["--db", str(request.db_path)]
    if con is not None and not history.has_list_in_force(con, month, request.rating_kind):
        words += ["--earlier-list", f"{month}=<the list of {month}>"]
    return shell_words(words)
