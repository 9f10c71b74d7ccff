"""Scheduled period runs: one fixed command line (``fiderate period --out LISTS --events INBOX``)
that cron, a systemd timer or Windows' Task Scheduler runs again and again (docs/scheduling.md).

Given no ``--list`` or no ``--period`` (or an ``--until``), the run reads what to do from the
history and the calendar:

- the list in force is the one the history holds for the month (the last list it published);
- the period is the month after the last one published, once that month's last day has passed,
  and each month after it that is over too (a machine left off catches up in one run, so that
  the same command again has nothing to do), in order; ``--until YYYY-MM`` stops at that month;
  ``--period`` chooses the (first) month;
- each event file belongs to the month its earliest event started (an undated one to the first
  month published now), a file already rated to the month that rated it (by content hash: names
  and times do not matter); files of a later month wait for it.

Nothing due: the month last published is checked against the files given. The same files (same
contents) -> "2026-11 already published from these 3 files; nothing to do", exit 0, and nothing
changes but the audit log's row. A file added for a published month (a *late* event), changed or
removed -> the run refuses (exit 1: a person decides) and prints the command lines that would
settle it. The history's own check (:mod:`pipeline.history.checks`) still stands behind every
month rated: a scheduled run rates each month through the same ``run_period`` steps.

One concept: what a scheduled run decides from the history, the calendar and the files given
(the months, each file's month, nothing to do), and its record of each month published
(``run-YYYY-MM.json``); what it tells a person is :mod:`pipeline.jobs.period.inbox_problems`.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

from pipeline.errors import Code, HistoryRefusal, Problem, UsageError
from pipeline.history import database
from pipeline.history import store as history
from pipeline.history.journal import recover
from pipeline.history.published_inputs import (
    PublishedMonth,
    list_file_in_force,
    log_nothing_to_do,
    published_month,
    published_periods,
)
from pipeline.history.record import now, user
from pipeline.jobs.period.events import find_event_files, read_events
from pipeline.jobs.period.inbox_problems import InboxFile, list_name, person_needed
from pipeline.model import EventFile
from pipeline.resources.file_hash import sha256_of
from pipeline.rules.months import add_months
from pipeline.rules.periods import resolve_period
from pipeline.writers import OutputBatch


class PeriodRequest(Protocol):
    """What a scheduled run reads of ``jobs.period.PeriodRequest`` (a frozen dataclass; that
    module calls this one, so the type is described here, not imported)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def list_path(self) -> Path | None: ...
    @property
    def events(self) -> tuple[Path, ...]: ...
    @property
    def period(self) -> str | None: ...
    @property
    def out_dir(self) -> Path: ...
    @property
    def db_path(self) -> Path | None: ...
    @property
    def replace(self) -> bool: ...
    @property
    def command(self) -> str: ...
    @property
    def earlier_lists(self) -> tuple[tuple[str, Path], ...]: ...
    @property
    def until(self) -> str | None: ...
    @property
    def today(self) -> dt.date | None: ...
    @property
    def database(self) -> Path: ...
    @property
    def rules(self) -> str: ...
    @property
    def rating_kind(self) -> str: ...


class PeriodOutcome(Protocol):
    """What a scheduled run reads of ``jobs.period.PeriodOutcome`` (a frozen dataclass)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def period(self) -> str: ...
    @property
    def run_id(self) -> int: ...
    @property
    def written(self) -> list[Path]: ...
    @property
    def notes(self) -> list[str]: ...
    @property
    def report(self) -> Any: ...  # a PeriodReport, or None


Request = TypeVar("Request", bound=PeriodRequest)


def is_scheduled(request: PeriodRequest) -> bool:
    """Whether the history and the calendar choose the list, the period or the months."""
    return request.list_path is None or request.period is None or request.until is not None


def month_is_over(month: str, today: dt.date) -> bool:
    """Whether the last day of ``month`` has passed on ``today`` (events of the month may still
    arrive on its last day)."""
    following = add_months(month, 1)
    return today >= dt.date(int(following[:4]), int(following[5:7]), 1)


def due_months(after: str, today: dt.date, until: str | None = None) -> list[str]:
    """The months after ``after`` whose last day has passed on ``today``, in order, up to
    ``until`` when given."""
    months: list[str] = []
    month = add_months(after, 1)
    while month_is_over(month, today) and (until is None or month <= until):
        months.append(month)
        month = add_months(month, 1)
    return months


@dataclass(frozen=True)
class SchedulePlan:
    """What a scheduled run does: the months to publish (each with its files), or the month it
    checks when none is due; the files left waiting; notes for the officer."""

    months: tuple[str, ...]
    files: dict[str, list[EventFile]]
    first_list: Path | None
    replace: bool
    checked: PublishedMonth | None
    waiting: tuple[tuple[str, str], ...]  # (path, month or "undated")
    notes: tuple[str, ...] = field(default=())


def scheduled_plan(request: PeriodRequest) -> SchedulePlan:
    """What a scheduled run does (the caller holds the history's lock): a committed run's
    renames completed first (its list is read here), then the plan; when nothing is due, the
    audit log's nothing-to-do row is written here."""
    started = now()
    con = database.open_history(request.database)
    try:
        if con is not None:
            recover(con)  # a committed run's renames first: its list is read below
        plan = plan_schedule(request, con, request.today or dt.date.today())
        if not plan.months:
            assert con is not None and plan.checked is not None  # a history with a month
            log_nothing_to_do(
                con,
                started=started,
                finished=now(),
                user=user(),
                command=request.command,
                period=plan.checked.period,
                rating_kind=request.rating_kind,
            )
    finally:
        if con is not None:
            con.close()
    return plan


def month_requests(request: Request, plan: SchedulePlan) -> list[Request]:
    """The explicit request of each month the plan publishes, in order: the first month with
    the list in force, each later one with the list the month before it publishes."""
    return [
        replace(
            request,
            list_path=plan.first_list if i == 0 else request.out_dir / list_name(month),
            events=tuple(f.path for f in plan.files.get(month, [])),
            period=month,
            until=None,
            replace=plan.replace and i == 0,
            earlier_lists=request.earlier_lists if i == 0 else (),
        )
        for i, month in enumerate(plan.months)
    ]


def plan_notes(plan: SchedulePlan) -> list[str]:
    """What the officer is told besides each month's own notes: the plan's notes and each file
    left waiting for its month."""
    return [*plan.notes, *(f"waiting for {month}: {path}" for path, month in plan.waiting)]


def plan_schedule(
    request: PeriodRequest, con: sqlite3.Connection | None, today: dt.date
) -> SchedulePlan:
    """The months to publish and their files, or the month to check; refuses (exit 1) what a
    person must decide, every such problem at once."""
    until = resolve_period(request.until) if request.until is not None else None
    # Each kind of list has its own months: a rapid run follows the rapid lists only.
    published = published_periods(con, request.rating_kind) if con is not None else []
    latest = published[-1] if published else None
    if latest is None:
        if request.list_path is None or request.period is None:
            raise UsageError(
                f"{request.database} holds no published list yet: the first run of a new "
                "history takes --list (the list in force) and --period (the month to rate); "
                "later runs find both in the history"
            )
        start = resolve_period(request.period)
        months = [start, *(due_months(start, today, until) if until is not None else [])]
    elif request.period is not None:
        start = resolve_period(request.period)
        if start in published:
            months = [start] if request.replace else []
        elif start == add_months(latest, 1):
            months = [start, *(due_months(start, today, until) if until is not None else [])]
        else:
            raise UsageError(
                f"--period {start}: this history's lists go up to {latest}, so the next period "
                f"to rate is {add_months(latest, 1)}"
            )
    else:
        if request.replace:
            raise UsageError("--replace needs --period: the month to rate again")
        months = due_months(latest, today, until)
    assert con is not None or latest is None
    return _assign(request, con, published, months, today)


def _assign(
    request: PeriodRequest,
    con: sqlite3.Connection | None,
    published: list[str],
    months: list[str],
    today: dt.date,
) -> SchedulePlan:
    """Each file to its month: the months published now get theirs; the others are checked."""
    inbox, notes = _inbox(request, con)
    latest = published[-1] if published else None
    target = resolve_period(request.period) if request.period is not None else None
    replacing = bool(months) and months[0] in published
    checked_period = (target or latest) if not months else None
    files: dict[str, list[EventFile]] = {m: [] for m in months}
    late: dict[str, list[EventFile]] = {}
    waiting: list[tuple[str, str]] = []
    for item in inbox:
        if item.rated_in is not None:
            if replacing and item.rated_in == months[0]:
                files[months[0]].append(item.file)
            continue
        month = item.month or (months[0] if months else None)
        if month is None:
            waiting.append((str(item.file.path), "undated"))
        elif latest is not None and month <= latest and not (replacing and month == months[0]):
            # Dated in a month published (or before the history's first list): late.
            late.setdefault(month, []).append(item.file)
        elif months and month <= months[-1]:
            # On a new history, an event of a month before the first period is rated with it,
            # with that month's list (--earlier-list), as in any period run.
            files[max(month, months[0])].append(item.file)
        else:
            waiting.append((str(item.file.path), month))
    checked = (
        published_month(con, checked_period, request.rating_kind)
        if con is not None and checked_period
        else None
    )
    problems = person_needed(request, con, inbox, late, checked, published, target)
    if problems:
        raise HistoryRefusal(problems)
    if replacing and request.list_path is None:  # the history's list: only the files can differ
        now_published = (
            published_month(con, months[0], request.rating_kind) if con is not None else None
        )
        if now_published is not None and set(now_published.events) == {
            f.sha256 for f in files[months[0]]
        }:
            # --replace with the very files the month was published from: nothing changes.
            return SchedulePlan((), {}, None, False, now_published, tuple(waiting), tuple(notes))
    first_list = _first_list(request, con, months[0]) if months else None
    if target is None and not months and latest and not month_is_over(add_months(latest, 1), today):
        following = add_months(latest, 2)
        notes.append(f"{add_months(latest, 1)} is due from {following}-01")
    return SchedulePlan(
        tuple(months),
        files,
        first_list,
        replacing,
        checked,
        tuple(waiting),
        tuple(notes),
    )


def _inbox(
    request: PeriodRequest, con: sqlite3.Connection | None
) -> tuple[list[InboxFile], list[str]]:
    """The files given, each once by content (a copy under another name is noted and left
    out), with the month it belongs to: rated files by the history, the others by their dates
    (read, every problem of every file at once)."""
    copies: dict[str, list[EventFile]] = {}
    for f in find_event_files(request.events):
        copies.setdefault(f.sha256, []).append(f)
    # Rated for this kind of list: a file rated for another is refused by the month's own run
    # (an event is rated once in the history), naming the list that rated it.
    rated = {
        sha: found
        for sha, found in (history.rated_events(con, copies) if con is not None else {}).items()
        if found[2] == request.rating_kind
    }
    notes: list[str] = []
    seen: dict[str, EventFile] = {}
    for sha, same in copies.items():
        # The copy the history rated keeps its name (a --replace rates it under that name).
        kept = next((f for f in same if sha in rated and str(f.path) == rated[sha][0]), same[0])
        seen[sha] = kept
        notes += [
            f"{f.path} is the same file as {kept.path}: taken once" for f in same if f is not kept
        ]
    unrated = [f for sha, f in seen.items() if sha not in rated]
    months: dict[str, str | None] = {f.sha256: None for f in unrated}
    if unrated:
        for unit in read_events(unrated, "2000-01"):
            if unit.dated:
                old = months[unit.file.sha256]
                months[unit.file.sha256] = min(old or unit.start_month, unit.start_month)
    return [
        InboxFile(f, months.get(sha), rated[sha][1] if sha in rated else None)
        for sha, f in seen.items()
    ], notes


def _first_list(request: PeriodRequest, con: sqlite3.Connection | None, month: str) -> Path:
    """The list in force in ``month``: ``--list`` if given, else the history's (its file, as
    long as its content is the one the history recorded)."""
    if request.list_path is not None:
        return request.list_path
    assert con is not None  # a history with a published month (plan_schedule)
    known = list_file_in_force(con, month, request.rating_kind)
    candidates = [request.out_dir / list_name(month)]
    if known is not None:
        candidates.insert(0, Path(known[0]))
    for path in candidates:
        if known is not None and path.is_file() and sha256_of(path) == known[1]:
            return path
    raise HistoryRefusal(
        [
            Problem(
                Code.INPUTS_CHANGED,
                f"the list in force in {month} is not where the history wrote it, or its "
                "content changed since",
                file=str(candidates[-1]),
                fix=f"put the {month} list back as it was written, or give it with --list",
            )
        ]
    )


def write_run_file(
    out_dir: Path,
    outcome: PeriodOutcome,
    request: PeriodRequest,
    waiting: Sequence[tuple[str, str]],
) -> Path:
    """``run-YYYY-MM.json`` beside the outputs, written atomically: what the month was
    published from and what it published (a scheduler's record of the run)."""
    data = run_summary(outcome, request, waiting)
    with OutputBatch(out_dir) as batch:
        batch.path(f"run-{outcome.period}.json").write_text(
            json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        return batch.commit()[0]


def run_summary(
    outcome: PeriodOutcome, request: PeriodRequest, waiting: Sequence[tuple[str, str]]
) -> dict[str, object]:
    """The JSON-ready record of one published month."""
    summary: dict[str, object] = {}
    if outcome.report is not None:
        for item, value in zip(
            outcome.report.summary["item"], outcome.report.summary["value"], strict=True
        ):
            summary[str(item)] = int(value) if str(value).isdigit() else str(value)
    list_path = request.list_path
    return {
        "period": outcome.period,
        "run_id": outcome.run_id,
        "list": {
            "path": str(list_path),
            "sha256": sha256_of(list_path) if list_path is not None else "",
        },
        "events": [{"path": str(p), "sha256": sha256_of(p)} for p in request.events],
        "summary": summary,
        "written": [str(p) for p in outcome.written],
        "waiting": [{"path": p, "month": m} for p, m in waiting],
        "notes": list(outcome.notes),
    }
