"""Rate one rating period: the library function behind ``fiderate rate``, for every engine.

readers -> assemble -> engine -> grouper, with a schema check at every boundary. Nothing here
writes files; see :mod:`pipeline.writers`. One run function, :func:`rate_files`, serves both
engines: with no executor the period is rated in this process; with one (the Dask executor of
:mod:`pipeline.jobs.dask_executor`) the executor turns the files into per-player partial sums
and this module finishes them exactly as for one process. An option an executor cannot honour is
refused (:class:`~pipeline.errors.UsageError`, exit 2), never ignored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.engine.late_first_rating import late_first_ratings, unrated_at_start
from pipeline.engine.matches import SideKeys
from pipeline.engine.rate_sides import rate_sides_coded
from pipeline.engine.sequential import sequential_sides
from pipeline.engine.sides import (
    assemble_sides,
    codable,
    side_text_codes,
    unknown_players,
)
from pipeline.errors import Code, InputError, Problem, UsageError
from pipeline.grouper.period_result import finish_period
from pipeline.grouper.totals import partial_totals
from pipeline.jobs.assemble import list_ratings, with_byes
from pipeline.jobs.list_match import list_match
from pipeline.jobs.plan import Executor, plan_run, refuse
from pipeline.jobs.players_merge import merge_players
from pipeline.jobs.side_codes import side_codes_and_texts
from pipeline.model import (
    READ_DEFAULTS,
    GamesInput,
    ListMatch,
    NormSources,
    PlayerList,
    RatedPeriod,
    RateOptions,
    ReadOptions,
    RunPlan,
    SidesInput,
)
from pipeline.readers import read_players
from pipeline.readers.duplicate_events import identical_files
from pipeline.readers.event_inputs import read_event_inputs
from pipeline.readers.paths import expand_inputs
from pipeline.rules.periods import resolve_period
from schemas import Players, RatedSides, validate
from schemas.sides import ENGINE_COLUMNS, EngineOutput


def read_list_in_force(players_path: Path | str | None, rules: str | None) -> PlayerList | None:
    """The players list, its FIDE-list column chosen by ``rules``, checked against Players."""
    if players_path is None:
        return None
    players = read_players(players_path, rules=rules)
    validate(players.players, Players, players.source)
    return players


def gather_inputs(
    paths: Sequence[Path | str],
    players_path: Path | str | None,
    *,
    rules: str | None = None,
    reading: ReadOptions = READ_DEFAULTS,
    matched: list[ListMatch] | None = None,
) -> tuple[list[GamesInput | SidesInput], PlayerList | None, list[Problem]]:
    """Read every file, collecting the problems of all of them (bad input raises nothing here).

    ``rules`` chooses the standard/rapid/blitz column of a FIDE rating list given as players;
    ``reading`` says how the event files are read (format, sheet, crosstable columns).
    Event files that carry their own players (TRF, crosstables) add them to the players: the list
    in force (``players_path``) decides for every player on it where it has a value (a blank
    detail such as a birth year falls back to the event's); the event's own data is used for
    players the list lacks, and is the whole list when no ``players_path`` is given.
    ``matched``, if given, receives how the events meet the list in force (a clean read only).
    """
    matched = [] if matched is None else matched
    problems: list[Problem] = []
    players = None
    if players_path is not None:
        try:
            players = read_list_in_force(players_path, rules)
        except InputError as exc:
            players = None
            problems.extend(exc.problems)
    players_ok = not problems
    inputs, partials, read_problems = read_event_inputs(paths, reading)
    if players_ok:
        # Unknown players of a file with other problems, reported in the same pass, right
        # after that file's reading problems (last first: the earlier places stay put).
        for at, partial_input in reversed(partials):
            read_problems[at:at] = unknown_players(partial_input, players)
    problems.extend(read_problems)
    embedded = [i.players for i in inputs if isinstance(i, GamesInput) and i.players is not None]
    if players is not None and not problems:
        matched.append(list_match(players, inputs))
    if embedded and players_ok:
        try:
            players = merge_players(players, embedded)
        except InputError as exc:
            problems.extend(exc.problems)
    return inputs, players, problems


def sort_problems(
    problems: list[Problem], paths: Sequence[Path | str], players_path: Path | str | None
) -> list[Problem]:
    """One table per file, in file order, top to bottom: the order a person fixes them in; a
    file cut short says so first (the problems after it follow from the cut)."""
    order = {str(p): i for i, p in enumerate([players_path, *paths]) if p is not None}
    return sorted(
        problems,
        key=lambda p: (order.get(p.file, len(order)), p.code != Code.TRUNCATED_FILE, p.row or 0),
    )


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
    paths: Sequence[Path | str],
    players_path: Path | str | None,
    *,
    rules: str | None = None,
    reading: ReadOptions = READ_DEFAULTS,
) -> list[Problem]:
    """Every problem ``rate`` would stop on, without rating: the checks of ``fiderate validate``.

    Players are looked up only when the players file itself was readable: an unreadable list
    would make every player look unknown.
    """
    inputs, players, problems = gather_inputs(paths, players_path, rules=rules, reading=reading)
    if players_path is None or players is not None:
        problems.extend(assembly_problems(inputs, players))
    return sort_problems(problems, paths, players_path)


def read_inputs(
    paths: Sequence[Path | str],
    players_path: Path | str | None,
    *,
    rules: str | None = None,
    reading: ReadOptions = READ_DEFAULTS,
) -> tuple[list[GamesInput | SidesInput], PlayerList | None]:
    """Read every file, collecting the problems of all of them before failing."""
    inputs, players, problems = gather_inputs(paths, players_path, rules=rules, reading=reading)
    if problems:
        raise InputError(sort_problems(problems, paths, players_path))
    return inputs, players


def check_rated(rated: pd.DataFrame, whole: bool) -> pd.DataFrame:
    """The engine's boundary, validated once on the narrowest frame: sides assembled from games
    files were checked as Games and Players when read, so only the engine's own columns are
    checked; sides read from individual files (``whole``) are checked whole (RatedSides)."""
    if whole:
        return validate(rated, RatedSides, internal=True)
    validate(rated[ENGINE_COLUMNS], EngineOutput, internal=True)
    return rated


def started_unrated(inputs: Sequence[GamesInput | SidesInput], period: str) -> pd.DataFrame:
    """(source, player) of the players an event file gives no rating, in the event files that
    started before ``period`` (their ratings are those of an earlier list: B.02 8.2.4)."""
    parts = [
        pd.DataFrame({"source": item.source, "player": ids.to_numpy(dtype=str)})
        for item in inputs
        if isinstance(item, GamesInput)
        and item.players is not None
        and item.info is not None
        and item.info.start is not None
        and item.info.start[:7] < period
        and len(ids := item.players.players.loc[item.players.players["rating"].isna(), "id"])
    ]
    return pd.concat(parts) if parts else pd.DataFrame({"source": [], "player": []})


def rate_inputs(
    inputs: list[GamesInput | SidesInput],
    players: PlayerList | None,
    options: RateOptions,
) -> RatedPeriod:
    """Rate ``inputs`` as one period (``fiderate rate``): every event with ``players``, the list
    in force at the start of the period (the ratings the changes are added to)."""
    plan = plan_run(options, inputs)
    codes, texts = side_codes_and_texts(inputs)
    # The sides' text columns left as codes (``RatedPeriod.texts_coded``; the output stage
    # builds them for the outputs that read them) when nothing before the writers reads them:
    # not the sequential mode, the once-per-event cap of old eras, nor 8.2.4's look-up of the
    # players an event began without.
    started = started_unrated(inputs, plan.period)
    late = players is not None and len(started) > 0
    coded = (
        texts is not None
        and options.mode == "fide"
        and not plan.rules.cap_once_per_event
        and not late
        and all(isinstance(i, GamesInput) and codable(i) for i in inputs)
    )
    sides = assemble_sides(with_byes(inputs, players), players, coded=coded)
    # 8.2.4: an event begun under an older list.
    if late and players is not None:
        blank = unrated_at_start(sides, started)
        sides = late_first_ratings(blank, list_ratings(blank["player"], players))
    return rate_sides(inputs, sides, players, options, plan, codes, texts, coded=coded)


def rate_sides(
    inputs: Sequence[GamesInput | SidesInput],
    sides: pd.DataFrame,
    players: PlayerList | None,
    options: RateOptions,
    plan: RunPlan,
    codes: tuple[np.ndarray, pd.Series] | None,
    texts: dict[str, tuple[np.ndarray, pd.Series]] | None,
    *,
    coded: bool,
) -> RatedPeriod:
    """The assembled ``sides`` of ``inputs`` rated (engine) and totalled (grouper): the steps
    every job that rates shares, whichever list each side's rating was taken from. ``coded``:
    the sides' text columns are codes (see :func:`rate_inputs`), built by the output stage
    (``jobs.rate_outputs``) for the outputs that show them."""
    keys = None
    if codes is not None and texts is not None:
        keys = SideKeys.of_games(codes, texts["source"], texts["event"])
        # games.csv's opponent, result and note by code too: the opponent is the other side's
        # player, the result the side's points and whether it was played (``engine.sides``),
        # the note the engine's own code (``rate_sides_coded``).
        result_codes = side_text_codes(
            sides["score_h"].to_numpy(dtype=np.int64), sides["played"].to_numpy(dtype=bool)
        )
        texts = {**texts, "opponent": (keys.opponent, codes[1]), "result": result_codes}
    rated, note_codes = rate_sides_coded(sides, plan.rules, options.method, options.cap, keys=keys)
    rated = check_rated(rated, whole=any(isinstance(i, SidesInput) for i in inputs))
    if texts is not None:
        texts["note"] = note_codes
    sources = [i.source for i in inputs]
    if options.mode == "sequential":  # not the FIDE method: see pipeline.engine.sequential
        fide = finish_period(
            rated, partial_totals(rated, 0, codes), players, options, plan, sources
        )
        k_used = fide.totals.set_index("id")["k"]
        rated = sequential_sides(rated, k_used, plan.rules, options.method, options.cap)
        codes = texts = None  # the sides were re-rated: encode their ids afresh
    result = finish_period(rated, partial_totals(rated, 0, codes), players, options, plan, sources)
    result.side_players, result.side_texts = codes, texts
    return result


def rate_files(
    paths: Sequence[Path | str],
    players_path: Path | str | None = None,
    options: RateOptions | None = None,
    *,
    reading: ReadOptions = READ_DEFAULTS,
    executor: Executor | None = None,
) -> RatedPeriod:
    """Read, validate and rate: the whole library path of ``fiderate rate``, on either engine.

    Bad input stops the run with the same problems ``fiderate validate`` lists (one set of
    checks, :func:`check_inputs`): reading problems of every file plus, when the players list
    was readable, the players the events name but the list lacks.

    With an ``executor`` the files are rated by it (each reads and checks its own files) and the
    result carries the totals only (``sides`` is empty); options it cannot honour are refused
    first, with :class:`UsageError`.
    """
    options = options or RateOptions()
    plan = plan_run(options)  # a bad option is a usage error, before any reading
    if executor is not None:
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
    matched: list[ListMatch] = []
    inputs, players, problems = gather_inputs(
        paths,
        players_path,
        rules=options.rules,
        reading=reading,
        matched=matched,
    )
    if problems:
        if players_path is None or players is not None:
            problems.extend(assembly_problems(inputs, players))
        raise InputError(sort_problems(problems, paths, players_path))
    result = rate_inputs(inputs, players, options)
    result.list_match = matched[0] if matched else None
    result.event_ranks = file_ranks(inputs)
    if any(isinstance(i, GamesInput) and i.info is not None for i in inputs):
        # Events (TRF, crosstables) carry titles and federations: their norms go in the reports,
        # checked by the output stage only if a report is written (``jobs.rate_outputs``).
        result.norm_sources = NormSources(tuple(inputs), players)
    return result


def file_ranks(inputs: Sequence[GamesInput | SidesInput]) -> pd.Series | None:
    """id -> the final rank the event file prints (a TRF's columns 86-89), when the run rates
    that one event alone: ranks of two events cannot be merged into one order."""
    if len(inputs) != 1 or not isinstance(inputs[0], GamesInput) or inputs[0].players is None:
        return None
    players = inputs[0].players.players
    if "final_rank" not in players.columns or players["final_rank"].isna().all():
        return None
    ranked = players[players["final_rank"].notna()]
    return pd.Series(ranked["final_rank"].astype("Int64").to_numpy(), index=ranked["id"])


def totals_by_id(result: RatedPeriod) -> pd.DataFrame:
    return result.totals.set_index("id")


# resolve_period, RunPlan and refuse live in pipeline.jobs.plan; re-exported for the callers of
# this module.
__all__ = [
    "RunPlan",
    "check_inputs",
    "check_rated",
    "gather_inputs",
    "read_event_inputs",
    "rate_files",
    "rate_inputs",
    "rate_sides",
    "read_inputs",
    "read_list_in_force",
    "refuse",
    "resolve_period",
    "with_byes",
]
