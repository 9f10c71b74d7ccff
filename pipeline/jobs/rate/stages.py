"""Rate one rating period: the library function behind ``fiderate rate``, for every engine.

readers -> assemble -> engine -> grouper, with a schema check at every boundary. Nothing here
writes files; see :mod:`pipeline.writers`. One run function, :func:`rate_files`, serves both
engines: with no executor the period is rated in this process; with one (the Dask executor of
:mod:`pipeline.jobs.rate.dask_executor`) the executor turns the files into per-player partial sums
and this module finishes them exactly as for one process. An option an executor cannot honour is
refused (:class:`~pipeline.errors.UsageError`, exit 2), never ignored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from pipeline.engine.assemble import with_byes
from pipeline.engine.rate_events import rate_events
from pipeline.engine.sides import assemble_sides, unknown_players
from pipeline.errors import InputError, Problem, UsageError
from pipeline.grouper.period_result import finish_period, total_rated
from pipeline.jobs.plan import Executor, plan_run, refuse
from pipeline.model import (
    READ_DEFAULTS,
    GamesInput,
    InputFile,
    PlayerList,
    RatedPeriod,
    RateOptions,
    ReadOptions,
    RunPlan,
    SidesInput,
)
from pipeline.readers.duplicate_events import identical_files
from pipeline.readers.paths import expand_inputs
from pipeline.readers.rating_inputs import (
    RatingInputs,
    read_list_in_force,
    read_rating_inputs,
    sort_problems,
)
from pipeline.rules.periods import resolve_period


def input_problems(
    read: RatingInputs,
    paths: Sequence[Path | str | InputFile],
    players_path: Path | str | InputFile | None,
) -> list[Problem]:
    """Every problem of ``read`` in the order a person fixes them, with the players the events
    name that the list lacks (the engine's assembly check): of the files read only in part too,
    right after their own problems. Players are looked up only when the list in force was
    readable: an unreadable list would make every player look unknown."""
    problems = list(read.problems)
    if read.list_readable:
        # Last first: the earlier places stay put.
        for at, partial_input in reversed(read.partials):
            problems[at:at] = unknown_players(partial_input, read.players)
        if players_path is None or read.players is not None:
            problems.extend(assembly_problems(read.inputs, read.players))
    return sort_problems(problems, paths, players_path)


def assembly_problems(
    inputs: list[GamesInput | SidesInput], players: PlayerList | None
) -> list[Problem]:
    """What putting the readable events and the players together finds (unknown players)."""
    try:
        assemble_sides(with_byes(inputs, players), players)
    except InputError as exc:
        return exc.problems
    return []


def check_inputs(
    paths: Sequence[Path | str | InputFile],
    players_path: Path | str | InputFile | None,
    *,
    rules: str | None = None,
    reading: ReadOptions = READ_DEFAULTS,
) -> list[Problem]:
    """Every problem ``rate`` would stop on, without rating: the checks of ``fiderate validate``."""
    read = read_rating_inputs(paths, players_path, rules=rules, reading=reading)
    return input_problems(read, paths, players_path)


def read_inputs(
    paths: Sequence[Path | str | InputFile],
    players_path: Path | str | InputFile | None,
    *,
    rules: str | None = None,
    reading: ReadOptions = READ_DEFAULTS,
) -> tuple[list[GamesInput | SidesInput], PlayerList | None]:
    """Read every file, collecting the problems of all of them before failing."""
    read = read_rating_inputs(paths, players_path, rules=rules, reading=reading)
    if read.problems:
        raise InputError(input_problems(read, paths, players_path), warnings=read.warnings)
    return read.inputs, read.players


def rate_inputs(
    inputs: list[GamesInput | SidesInput],
    players: PlayerList | None,
    options: RateOptions,
) -> RatedPeriod:
    """Rate ``inputs`` as one period (``fiderate rate``): every event with ``players``, the list
    in force at the start of the period (the ratings the changes are added to)."""
    plan = plan_run(options, inputs)
    return total_rated(rate_events(inputs, players, options, plan), players, options, plan)


def rate_files(
    paths: Sequence[Path | str | InputFile],
    players_path: Path | str | InputFile | None = None,
    options: RateOptions | None = None,
    *,
    reading: ReadOptions = READ_DEFAULTS,
    executor: Executor | None = None,
) -> RatedPeriod:
    """Read, validate and rate: the whole library path of ``fiderate rate``, on either engine:
    readers -> engine -> grouper, one call each.

    Bad input stops the run with the same problems ``fiderate validate`` lists (one set of
    checks, :func:`input_problems`): reading problems of every file plus, when the players list
    was readable, the players the events name but the list lacks.

    With an ``executor`` the files are rated by it (each reads and checks its own files) and the
    result carries the totals only (``sides`` is empty); options it cannot honour are refused
    first, with :class:`UsageError`.

    With ``options.period`` the events' own start and end dates choose nothing: one that cannot
    be read is a warning (``ReadOptions.dates_needed``). The events' warnings come first in the
    result's.
    """
    options = options or RateOptions()
    plan = plan_run(options)  # a bad option is a usage error, before any reading
    if options.period is not None:  # the events' own dates do not choose it
        reading = replace(reading, dates_needed=False)
    if executor is not None:
        return _rate_on_executor(paths, players_path, options, plan, reading, executor)
    read = read_rating_inputs(paths, players_path, rules=options.rules, reading=reading)
    if read.problems:
        raise InputError(input_problems(read, paths, players_path), warnings=read.warnings)
    plan = plan_run(options, read.inputs)
    games = rate_events(read.inputs, read.players, options, plan)
    result = total_rated(games, read.players, options, plan)
    return replace(
        result,
        list_match=read.list_match,
        event_ranks=read.event_ranks,
        event_name=read.event_name,
        norm_sources=read.norm_sources,
        warnings=[*read.warnings, *result.warnings],
    )


def _rate_on_executor(
    paths: Sequence[Path | str | InputFile],
    players_path: Path | str | InputFile | None,
    options: RateOptions,
    plan: RunPlan,
    reading: ReadOptions,
    executor: Executor,
) -> RatedPeriod:
    """The files rated by ``executor`` (each worker reads and checks its own files) into
    per-player partial sums, finished here exactly as for one process."""
    refuse(executor.name, executor.refusals(options, reading))
    if options.period is None:
        # The files are read by the executor, after the rules in force must be known.
        raise UsageError(
            f"--engine {executor.name} needs --period YYYY-MM (the month the events end in): "
            "the events' dates are read on the workers, after the rules must be chosen"
        )
    options = replace(options, rules=plan.rules.name)  # the workers rate with this era
    players = read_list_in_force(players_path, options.rules)
    files = [str(p) for p in expand_inputs(paths)]
    if copies := identical_files(files):  # the same file twice, caught before any work
        raise InputError(copies)
    partials = executor.partials(files, players, options, plan, reading)
    return finish_period(pd.DataFrame(), partials, players, options, plan, files)


# resolve_period, RunPlan and refuse live in pipeline.jobs.plan; re-exported for the callers of
# this module.
__all__ = [
    "RunPlan",
    "check_inputs",
    "input_problems",
    "rate_files",
    "rate_inputs",
    "read_inputs",
    "read_list_in_force",
    "refuse",
    "resolve_period",
    "with_byes",
]
