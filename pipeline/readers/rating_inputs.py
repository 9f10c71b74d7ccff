"""The inputs of one rating period read in one call: every event file and the list in force,
checked together (``fiderate rate``, ``validate``, ``norms``, ``convert``).

:func:`read_rating_inputs` is the readers' stage for a job that rates every event with one list:
the event files (:func:`pipeline.readers.event_inputs.read_event_inputs`: their own checks and
those across files), the list in force checked against ``schemas.Players``, the players the
events bring themselves merged in (the list decides where it has a value), how the events meet
the list, and the final ranks a lone event prints. Nothing here rates; the problems of every
file are gathered, never raised, so a job reports them all at once.

A period (``fiderate period``) rates each event with the list in force when it started, so it
reads the events with ``read_event_inputs`` alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from pipeline.errors import Code, InputError, Problem
from pipeline.model import (
    READ_DEFAULTS,
    GamesInput,
    InputFile,
    ListMatch,
    NormSources,
    PlayerList,
    ReadOptions,
    SidesInput,
)
from pipeline.readers import read_players
from pipeline.readers.event_inputs import read_event_inputs
from pipeline.readers.lists.list_match import list_match
from pipeline.readers.lists.players_merge import merge_players
from schemas import Players, validate


@dataclass
class RatingInputs:
    """What the readers hand a job that rates: the inputs read (those that read cleanly), the
    players (the list in force with the events' own players merged in; None when neither gives
    any), and every problem found (empty when the run may go on).

    ``partials``: the games files read only in part, each with its place in ``problems`` after
    its own problems (a job with a list names their unknown players there: the engine's check).
    ``list_readable``: the list in force (if any) was read; an unreadable one would make every
    player look unknown, so the unknown-player check is skipped then. ``list_match``: how the
    events meet the list in force (a clean read with a list only). ``event_ranks``: id -> the
    final rank a lone event file prints. ``event_name``: a lone TRF's 012 record (the tournament
    name), "" otherwise. ``norm_sources``: what the title-norm check reads, for
    events that carry titles and federations (TRF, crosstables)."""

    inputs: list[GamesInput | SidesInput]
    players: PlayerList | None
    problems: list[Problem] = field(default_factory=list)
    partials: list[tuple[int, GamesInput]] = field(default_factory=list)
    list_readable: bool = True
    list_match: ListMatch | None = None
    event_ranks: pd.Series | None = None
    event_name: str = ""
    norm_sources: NormSources | None = None
    warnings: list[str] = field(default_factory=list)  # the events' own (``EventReads``)


def read_list_in_force(
    players_path: Path | str | InputFile | None, rules: str | None
) -> PlayerList | None:
    """The players list, its FIDE-list column chosen by ``rules``, checked against Players."""
    if players_path is None:
        return None
    players = read_players(players_path, rules=rules)
    validate(players.players, Players, players.source)
    return players


def read_rating_inputs(
    paths: Sequence[Path | str | InputFile],
    players_path: Path | str | InputFile | None,
    *,
    rules: str | None = None,
    reading: ReadOptions = READ_DEFAULTS,
) -> RatingInputs:
    """Read every file, collecting the problems of all of them (bad input raises nothing here),
    and the warnings of the events read.

    ``rules`` chooses the standard/rapid/blitz column of a FIDE rating list given as players;
    ``reading`` says how the event files are read (format, sheet, crosstable columns).
    Event files that carry their own players (TRF, crosstables) add them to the players: the list
    in force (``players_path``) decides for every player on it where it has a value (a blank
    detail such as a birth year falls back to the event's); the event's own data is used for
    players the list lacks, and is the whole list when no ``players_path`` is given.
    """
    problems: list[Problem] = []
    players = None
    try:
        players = read_list_in_force(players_path, rules)
    except InputError as exc:
        problems.extend(exc.problems)
    list_readable = not problems
    inputs, partials, read_problems, warnings = read_event_inputs(paths, reading)
    problems.extend(read_problems)
    read = RatingInputs(inputs, players, problems, partials, list_readable, warnings=warnings)
    embedded = [i.players for i in inputs if isinstance(i, GamesInput) and i.players is not None]
    if players is not None and not problems:
        read.list_match = list_match(players, inputs)
    if embedded and list_readable:
        try:
            read.players = merge_players(players, embedded)
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        return read
    read.event_ranks = file_ranks(inputs)
    read.event_name = trf_event_name(inputs)
    if any(isinstance(i, GamesInput) and i.info is not None for i in inputs):
        # Events (TRF, crosstables) carry titles and federations: their norms go in the reports,
        # checked by the output stage only if a report is written (``jobs.rate.outputs``).
        read.norm_sources = NormSources(tuple(inputs), read.players)
    return read


def sort_problems(
    problems: list[Problem],
    paths: Sequence[Path | str | InputFile],
    players_path: Path | str | InputFile | None,
) -> list[Problem]:
    """One table per file, in file order, top to bottom: the order a person fixes them in; a
    file cut short says so first (the problems after it follow from the cut)."""
    order = {str(p): i for i, p in enumerate([players_path, *paths]) if p is not None}
    return sorted(
        problems,
        key=lambda p: (order.get(p.file, len(order)), p.code != Code.TRUNCATED_FILE, p.row or 0),
    )


def trf_event_name(inputs: Sequence[GamesInput | SidesInput]) -> str:
    """The tournament name a lone TRF gives in its 012 record, "" for anything else: several
    files are no one event, and a crosstable's or games file's "name" is only its file name."""
    if len(inputs) != 1 or not isinstance(inputs[0], GamesInput) or inputs[0].info is None:
        return ""
    info = inputs[0].info
    return info.name.strip() if info.records else ""


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
