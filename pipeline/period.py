"""Rate one rating period: the library function behind ``fiderate rate``.

readers -> assemble -> engine -> grouper, with a schema check at every boundary. Nothing here
writes files; see :mod:`pipeline.writers`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from pipeline.assemble import assemble_sides, unknown_players
from pipeline.engine import SCALES, rate_sides
from pipeline.errors import InputError, Problem, RunError
from pipeline.grouper import period_totals
from pipeline.model import GamesInput, PlayerList, RatedPeriod, RateOptions, SidesInput
from pipeline.readers import read_event_file, read_players
from pipeline.rules import get_rules
from schemas import Games, Players, RatedSides, RatingList, Sides, validate


def resolve_period(period: str | None, today: dt.date | None = None) -> str:
    """``YYYY-MM``; the current month when not given."""
    if period is None:
        today = today or dt.date.today()
        return f"{today.year:04d}-{today.month:02d}"
    if not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", period):
        raise RunError(f"--period must be YYYY-MM, e.g. 2026-11 (got {period!r})")
    return period


def gather_inputs(
    paths: Sequence[Path | str],
    players_path: Path | str | None,
    *,
    rules: str | None = None,
    sheet: str | None = None,
) -> tuple[list[GamesInput | SidesInput], PlayerList | None, list[Problem]]:
    """Read every file, collecting the problems of all of them (nothing raised for bad input).

    ``rules`` chooses the standard/rapid/blitz column of a FIDE rating list given as players;
    ``sheet`` names the sheet of workbook inputs (default: the sheet whose header fits).
    """
    problems: list[Problem] = []
    inputs: list[GamesInput | SidesInput] = []
    players = None
    if players_path is not None:
        try:
            players = read_players(players_path, rules=rules)
            validate(players.players, Players, players.source)
        except InputError as exc:
            players = None
            problems.extend(exc.problems)
    players_ok = not problems
    for path in paths:
        try:
            item = read_event_file(path, sheet)
            if isinstance(item, GamesInput):
                validate(item.games, Games, item.source)
            inputs.append(item)
        except InputError as exc:
            problems.extend(exc.problems)
            # Report unknown players of a file with other problems in the same pass.
            if isinstance(exc.partial, GamesInput) and players_ok:
                problems.extend(unknown_players(exc.partial, players))
    return inputs, players, problems


def sort_problems(
    problems: list[Problem], paths: Sequence[Path | str], players_path: Path | str | None
) -> list[Problem]:
    """One table per file, in file order, top to bottom: the order a person fixes them in."""
    order = {str(p): i for i, p in enumerate([players_path, *paths]) if p is not None}
    return sorted(problems, key=lambda p: (order.get(p.file, len(order)), p.row or 0))


def assembly_problems(
    inputs: list[GamesInput | SidesInput], players: PlayerList | None
) -> list[Problem]:
    """What putting the readable games and the players together finds (unknown players)."""
    try:
        assemble_sides(inputs, players)
    except InputError as exc:
        return exc.problems
    return []


def check_inputs(
    paths: Sequence[Path | str],
    players_path: Path | str | None,
    *,
    rules: str | None = None,
    sheet: str | None = None,
) -> list[Problem]:
    """Every problem ``rate`` would stop on, without rating: the checks of ``fiderate validate``.

    Players are looked up only when the players file itself was readable: an unreadable list
    would make every player look unknown.
    """
    inputs, players, problems = gather_inputs(paths, players_path, rules=rules, sheet=sheet)
    if players_path is None or players is not None:
        problems.extend(assembly_problems(inputs, players))
    return sort_problems(problems, paths, players_path)


def read_inputs(
    paths: Sequence[Path | str],
    players_path: Path | str | None,
    *,
    rules: str | None = None,
    sheet: str | None = None,
) -> tuple[list[GamesInput | SidesInput], PlayerList | None]:
    """Read every file, collecting the problems of all of them before failing."""
    inputs, players, problems = gather_inputs(paths, players_path, rules=rules, sheet=sheet)
    if problems:
        raise InputError(sort_problems(problems, paths, players_path))
    return inputs, players


def rate_inputs(
    inputs: list[GamesInput | SidesInput], players: PlayerList | None, options: RateOptions
) -> RatedPeriod:
    if options.method not in SCALES:
        raise RunError(f"--method must be one of {', '.join(SCALES)} (got {options.method!r})")
    rules = get_rules(options.rules)
    period = resolve_period(options.period)
    sides = validate(assemble_sides(inputs, players), Sides, internal=True)
    rated = validate(rate_sides(sides, rules, options.method, options.cap), RatedSides, internal=True)
    totals = period_totals(
        rated,
        players,
        rules,
        SCALES[options.method],
        int(period[:4]),
        forced_k=options.k,
        k_cap=options.k_cap,
    )
    totals = validate(totals, RatingList, internal=True)
    return RatedPeriod(
        sides=rated,
        totals=totals,
        options=options,
        scale=SCALES[options.method],
        period=period,
        sources=[i.source for i in inputs],
    )


def rate_files(
    paths: Sequence[Path | str],
    players_path: Path | str | None = None,
    options: RateOptions | None = None,
    *,
    sheet: str | None = None,
) -> RatedPeriod:
    """Read, validate and rate: the whole library path of ``fiderate rate``.

    Bad input stops the run with the same problems ``fiderate validate`` lists (one set of
    checks): reading problems of every file plus, when the players list was readable, the
    players the games name but the list lacks.
    """
    options = options or RateOptions()
    get_rules(options.rules)  # an unknown rule set is a usage error before any reading
    inputs, players, problems = gather_inputs(paths, players_path, rules=options.rules, sheet=sheet)
    if problems:
        if players_path is None or players is not None:
            problems.extend(assembly_problems(inputs, players))
        raise InputError(sort_problems(problems, paths, players_path))
    return rate_inputs(inputs, players, options)


def totals_by_id(result: RatedPeriod) -> pd.DataFrame:
    return result.totals.set_index("id")
