"""Every event file of a run read and checked at once, without a players list: what the
readers hand the jobs (``fiderate rate`` adds the list's checks; a period rates each event with
its own list, so it reads the events with this alone).

The checks across files live here too, so one call of the readers gives validated inputs: the
schema checks of every games file in one pass (:mod:`.games_check`), the paired-twice check, the
event's dates in order (:mod:`.events.date_order`) and the same games given twice
(:mod:`.duplicate_events`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from pipeline.errors import InputError, Problem
from pipeline.model import READ_DEFAULTS, GamesInput, InputFile, ReadOptions, SidesInput
from pipeline.readers.duplicate_events import duplicate_events
from pipeline.readers.events.date_order import event_date_problems
from pipeline.readers.events.many import read_event_files
from pipeline.readers.events.rounds import paired_twice
from pipeline.readers.games_check import checked_inputs
from pipeline.readers.paths import expand_inputs


class EventReads(NamedTuple):
    """What :func:`read_event_inputs` gives: the inputs read, the games files read only in part
    (they have problems; a caller with a list names their unknown players), each with the place
    in the problems after its own, the problems of all files, and the warnings of all files (those
    that failed too: ``InputError.warnings``)."""

    inputs: list[GamesInput | SidesInput]
    partials: list[tuple[int, GamesInput]]
    problems: list[Problem]
    warnings: list[str]


def read_event_inputs(
    paths: Sequence[Path | str | InputFile], reading: ReadOptions = READ_DEFAULTS
) -> EventReads:
    """The event files read and checked on their own, without a players list (see
    :class:`EventReads`). ``fiderate rate`` adds its list's checks (``readers.rating_inputs``); a
    period rates each event with the list in force when it started, so it reads the events with
    this alone."""
    problems: list[Problem] = []
    warnings: list[str] = []
    inputs: list[GamesInput | SidesInput] = []
    partials: list[tuple[int, GamesInput]] = []
    try:
        paths = expand_inputs(paths)
    except InputError as exc:
        problems.extend(exc.problems)
        paths = []
    for read in read_event_files(paths, reading):  # games files' cells parsed together
        if not isinstance(read, InputError):
            inputs.append(read)
            continue
        problems.extend(read.problems)
        warnings.extend(read.warnings)
        if isinstance(read.partial, GamesInput):
            partials.append((len(problems), read.partial))
    inputs, failed = checked_inputs(inputs)  # one pass of schema checks (see games_check)
    problems.extend(failed)
    for item in inputs:
        if isinstance(item, GamesInput):
            problems.extend(paired_twice(item))
            problems.extend(event_date_problems(item))
    problems.extend(duplicate_events(inputs))  # the same games twice: by content, any format
    return EventReads(inputs, partials, problems, [*warnings, *event_warnings(inputs)])


def event_warnings(inputs: Sequence[GamesInput | SidesInput]) -> list[str]:
    """What the events read say that contradicts itself or is not used (``EventInfo.warnings``),
    in file order: ``fiderate validate`` and ``rate`` print them; they stop nothing."""
    return [
        warning
        for item in inputs
        if isinstance(item, GamesInput) and item.info is not None
        for warning in item.info.warnings
    ]
