"""The events of a period: find the files, hash them, read them, and decide which list rates each.

An event is rated with the list in force when it **started** (RULES.md section 6). A file may hold
several events (the ``event`` column); each is a unit of its own with its own start date: the
reader's ``start_date`` if it gives one (event metadata, e.g. a TRF header), else the earliest game
date. A unit with no date at all is taken to start in the period being rated.

Ratings printed on an event's own file (``white_rating``/``black_rating``, an individual file's
``rating``) are used only with ``--trust-event-ratings``; otherwise they are blanked here, so the
assembler takes every rating from the list in force.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import arrow_text, factorize_text, str_series
from pipeline.errors import Code, InputError, Problem
from pipeline.jobs.rate.stages import sort_problems
from pipeline.model import EventFile, EventUnit, GamesInput, PlayerList, SidesInput
from pipeline.readers.event_inputs import read_event_inputs
from pipeline.readers.limits import input_problem
from pipeline.readers.lists.players_merge import merge_players
from pipeline.resources.file_hash import sha256_of

# What a directory of events may hold; anything else there (notes, PDFs) is ignored.
EVENT_SUFFIXES = {".csv", ".xlsx", ".xlsm", ".trf", ".txt", ".tsv"}


def find_event_files(arguments: Sequence[Path | str]) -> list[EventFile]:
    """Files named, and the event files inside folders named (sorted, hidden files skipped)."""
    problems = []
    paths: list[Path] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            found = sorted(
                p
                for p in path.iterdir()
                if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in EVENT_SUFFIXES
            )
            if not found:
                problems.append(
                    Problem(
                        Code.NOT_A_TABLE,
                        "the folder holds no event files",
                        file=str(path),
                        fix=f"put the events ({', '.join(sorted(EVENT_SUFFIXES))}) in it",
                    )
                )
            paths.extend(found)
        elif path.is_file():
            paths.append(path)
        else:  # missing, or a FIFO or device (refused unopened: its hash would never end)
            problem = input_problem(path)
            problems.append(
                problem
                if problem is not None and problem.code != Code.NOT_A_TABLE
                else Problem(
                    Code.NOT_A_TABLE,
                    "the event file does not exist",
                    file=str(path),
                    fix="check the path given to --events",
                )
            )
    if problems:
        raise InputError(problems)
    # The same event given twice (same file, a copy, or the same games in another format) is
    # refused when the files are read: pipeline.readers.duplicate_events, the rule of every command.
    return [EventFile(p, sha256_of(p)) for p in paths]


def _frame(data: GamesInput | SidesInput) -> pd.DataFrame:
    return data.games if isinstance(data, GamesInput) else data.sides


def _part(
    data: GamesInput | SidesInput, name: object, part: pd.DataFrame
) -> GamesInput | SidesInput:
    """One event of a multi-event file, keeping what the reader brought with it (players, byes)."""
    if isinstance(data, SidesInput):
        return SidesInput(data.source, part)
    byes = data.byes
    if byes is not None and "event" in byes.columns:
        byes = byes[byes["event"].eq(name)]
    return dataclasses.replace(data, games=part, byes=byes)


def split_units(file: EventFile, data: GamesInput | SidesInput, period: str) -> list[EventUnit]:
    frame = _frame(data)
    units = []
    info = data.info if isinstance(data, GamesInput) else None
    metadata_start = info.start if info is not None else None
    names = frame["event"].unique()
    # One event per file is the rule: then the input itself is the unit (no copy).
    if len(names) <= 1:
        groups = [(names[0] if len(names) else Path(data.source).stem, frame)]
    else:
        groups = list(frame.groupby("event", sort=False))
    for name, part in groups:
        item = data if len(groups) == 1 else _part(data, name, part)
        dates = part["date"].dropna() if "date" in part.columns else pd.Series([], dtype=str)
        if metadata_start:
            start, dated = str(metadata_start)[:10], True
        elif len(dates):
            start, dated = str(dates.min()), True
        else:
            start, dated = f"{period}-01", False
        units.append(EventUnit(file, str(name), item, start, dated))
    return units


def read_events(files: Sequence[EventFile], period: str) -> list[EventUnit]:
    """Read every event file (all problems of all files at once) and split them into units."""
    paths = [f.path for f in files]
    # No list here: a player the list in force lacks is a new, unrated player, not a problem.
    inputs, _, problems, _ = read_event_inputs(paths)
    embedded = [i.players for i in inputs if isinstance(i, GamesInput) and i.players is not None]
    if embedded:
        try:  # two event files giving a new player different ratings
            merge_players(None, embedded)
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(sort_problems(problems, paths, None))
    units: list[EventUnit] = []
    for file, data in zip(files, inputs, strict=True):
        units.extend(split_units(file, data, period))
    return units


def untrusted(data: GamesInput | SidesInput, players: PlayerList) -> GamesInput | SidesInput:
    """The event with the ratings printed on it replaced by the list's (``players``: the list in
    force for it). For a games file the assembler reads the list itself once the overrides are
    blank; an individual file's ids are looked up in the list's own (reused) id look-up.
    """
    if isinstance(data, GamesInput):
        if data.games["white_rating"].isna().all() and data.games["black_rating"].isna().all():
            return data  # no ratings printed on the file: nothing to blank, no copy
        games = data.games.copy()
        games["white_rating"] = pd.Series(pd.NA, index=games.index, dtype="Int64")
        games["black_rating"] = pd.Series(pd.NA, index=games.index, dtype="Int64")
        return dataclasses.replace(data, games=games)
    sides = data.sides.copy()
    rating = players.players["rating"].astype("Int64").array
    for column, rating_column in (("player", "player_rating"), ("opponent", "opponent_rating")):
        where = players.positions(sides[column])
        sides[rating_column] = pd.Series(rating.take(where, allow_fill=True), index=sides.index)
    return SidesInput(data.source, sides)


def player_ids(units: Sequence[EventUnit]) -> pd.Series:
    """Every player id in the events (distinct, in first-seen order)."""
    parts = []
    for unit in units:
        frame = _frame(unit.data)
        if isinstance(unit.data, GamesInput):
            parts += [frame["white"], frame["black"]]
        else:
            parts += [frame["player"], frame["opponent"][frame["opponent"].ne("")]]
    if not parts:
        return pd.Series([], dtype=str)
    # The distinct values in order of first appearance (``drop_duplicates``), by Arrow's hash
    # over the columns' own buffers: no concatenated copy of 2 M ids (a FIDE month).
    chunks: list[pa.Array] = []
    for part in parts:
        text = arrow_text(part)
        chunks += text.chunks if isinstance(text, pa.ChunkedArray) else [text]
    if any(c.null_count for c in chunks):  # never from the readers: pandas' way, as before
        ids = pd.concat(parts, ignore_index=True).astype(str)
        return factorize_text(ids[ids.ne("")])[1]
    kind = pa.large_string()
    distinct = pc.unique(pa.chunked_array([c.cast(kind) for c in chunks], kind))
    distinct = pc.filter(distinct, pc.not_equal(distinct, ""))
    # 32-bit offsets when they reach, as factorize_text gives (the list's ids are those).
    return str_series(distinct.cast(pa.string()) if distinct.nbytes < 2**31 - 1 else distinct)


PLAYER_DETAILS = ["name", "federation", "sex", "title", "birth_year"]


def embedded_players(units: Sequence[EventUnit]) -> pd.DataFrame:
    """The players event files bring along (TRF, crosstables), first file first: id, rating and
    the details a new player's row on the list takes from them."""
    frames = [
        u.data.players.players
        for u in units
        if isinstance(u.data, GamesInput) and u.data.players is not None
    ]
    columns = ["id", "rating", *PLAYER_DETAILS]
    if not frames:
        return pd.DataFrame({c: pd.Series(dtype=str) for c in columns})
    merged = pd.concat(
        [f[[c for c in columns if c in f.columns]] for f in frames], ignore_index=True
    )
    merged = merged[merged["id"].astype(str).ne("")]
    return merged.drop_duplicates("id", keep="first").reset_index(drop=True)


def player_names(units: Sequence[EventUnit]) -> pd.Series:
    """Names the events give (individual files' ``name``, games files' optional
    ``white_name``/``black_name``): id -> name, for players the list does not know."""
    parts = []
    for unit in units:
        frame = _frame(unit.data)
        for id_col, name_col in (
            ("white", "white_name"),
            ("black", "black_name"),
            ("player", "name"),
        ):
            if id_col in frame.columns and name_col in frame.columns:
                named = frame[frame[name_col].astype(str).ne("")]
                parts.append(pd.Series(named[name_col].astype(str).to_numpy(), index=named[id_col]))
    if not parts:
        return pd.Series([], dtype=str)
    names = pd.concat(parts)
    return names[~names.index.duplicated(keep="first")]
