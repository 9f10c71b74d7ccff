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


def read_inputs(
    paths: Sequence[Path | str], players_path: Path | str | None
) -> tuple[list[GamesInput | SidesInput], PlayerList | None]:
    """Read every file, collecting the problems of all of them before failing."""
    problems: list[Problem] = []
    inputs: list[GamesInput | SidesInput] = []
    players = None
    if players_path is not None:
        try:
            players = read_players(players_path)
            validate(players.players, Players, players.source)
        except InputError as exc:
            problems.extend(exc.problems)
    players_ok = not problems
    for path in paths:
        try:
            item = read_event_file(path)
            if isinstance(item, GamesInput):
                validate(item.games, Games, item.source)
            inputs.append(item)
        except InputError as exc:
            problems.extend(exc.problems)
            # Report unknown players of a file with other problems in the same pass.
            if isinstance(exc.partial, GamesInput) and players_ok:
                problems.extend(unknown_players(exc.partial, players))
    if problems:
        # One table per file, in file order, top to bottom: the order a person fixes them in.
        order = {str(p): i for i, p in enumerate([players_path, *paths]) if p is not None}
        problems.sort(key=lambda p: (order.get(p.file, len(order)), p.row or 0))
        raise InputError(problems)
    return inputs, players


def assemble_each(
    inputs: Sequence[GamesInput | SidesInput], lists: Sequence[PlayerList | None]
) -> pd.DataFrame:
    """Sides of each input assembled with its own list (the list in force when the event started),
    every problem of every input reported at once."""
    problems: list[Problem] = []
    parts = []
    for item, players in zip(inputs, lists, strict=True):
        try:
            parts.append(assemble_sides([item], players))
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return pd.concat(parts, ignore_index=True) if parts else assemble_sides([], None)


def rate_inputs(
    inputs: list[GamesInput | SidesInput],
    players: PlayerList | None,
    options: RateOptions,
    *,
    event_players: Sequence[PlayerList | None] | None = None,
) -> RatedPeriod:
    """Rate ``inputs`` as one period. ``players`` is the list in force at the start of the period
    (the ratings the changes are added to); ``event_players``, if given, is one list per input to
    take that event's ratings from (``fiderate period``: the list in force when it started)."""
    if options.method not in SCALES:
        raise RunError(f"--method must be one of {', '.join(SCALES)} (got {options.method!r})")
    rules = get_rules(options.rules)
    period = resolve_period(options.period)
    if event_players is None:
        assembled = assemble_sides(inputs, players)
    else:
        assembled = assemble_each(inputs, event_players)
    sides = validate(assembled, Sides, internal=True)
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
) -> RatedPeriod:
    """Read, validate and rate: the whole library path of ``fiderate rate``."""
    inputs, players = read_inputs(paths, players_path)
    return rate_inputs(inputs, players, options or RateOptions())


def totals_by_id(result: RatedPeriod) -> pd.DataFrame:
    return result.totals.set_index("id")
