"""Convert one event file to a TRF, or back to a games file (CSV/XLSX): the library function
behind ``fiderate convert``.

The event is read and checked exactly as ``fiderate rate`` reads it (same readers, same players
rules: the list in force decides, the event's own players fill in), then written atomically.
A start or end date given as an option must agree with the event's dates (``date-order``, the
rule ``validate`` applies to a TRF), so what ``convert`` writes ``validate`` passes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd

from pipeline.engine.sides import assemble_sides
from pipeline.errors import InputError, RunError, UsageError
from pipeline.jobs.rate.stages import read_inputs, with_byes
from pipeline.model import READ_DEFAULTS, GamesInput, PlayerList, ReadOptions
from pipeline.readers.events.date_order import date_order_problems, played_dates
from pipeline.readers.events.dates import find_date
from pipeline.writers import (
    OutputBatch,
    TrfText,
    event_trf,
    games_file_table,
    header_records,
    keep_records,
    write_games_file,
)

CONVERT_FORMATS = ("trf", "csv", "xlsx")

BYE_COLUMNS = ["player", "event", "round", "date", "score_h", "code"]
PEOPLE_COLUMNS = ["id", "name", "rating", "birth_year", "federation", "title", "sex"]


def event_people(
    item: GamesInput, sides: pd.DataFrame, listed: pd.DataFrame | None
) -> pd.DataFrame:
    """One row per player of the event, with the rating each side is rated from. A name is the
    list's (or the event's own players'), else the games file's (``white_name``/``black_name``),
    else the id."""
    own = item.players.players if item.players is not None else None
    ids = pd.concat([sides["player"], own["id"] if own is not None else pd.Series([], dtype=str)])
    ids = pd.Series(ids.drop_duplicates().to_numpy(), dtype=str)
    people = pd.DataFrame({"id": ids})
    if listed is not None:
        info = listed.drop_duplicates("id").set_index("id")
        for column in PEOPLE_COLUMNS[1:]:
            if column in info.columns:
                people[column] = ids.map(info[column]).to_numpy()
    for column in PEOPLE_COLUMNS[1:]:
        if column not in people.columns:
            people[column] = pd.NA
    used = sides.dropna(subset=["player_rating"]).drop_duplicates("player")
    used_rating = ids.map(used.set_index("player")["player_rating"]).astype("Int64")
    people["rating"] = used_rating.fillna(people["rating"].astype("Int64")).to_numpy()
    named = people["name"].notna() & people["name"].ne("")
    people["name"] = people["name"].where(named, ids.map(game_names(item.games)).to_numpy())
    named = people["name"].notna() & people["name"].ne("")
    people["name"] = people["name"].where(named, people["id"])
    for column in ("federation", "title", "sex"):
        people[column] = people[column].fillna("").astype(str)
    people["birth_year"] = people["birth_year"].astype("Int64")
    if own is not None and "sno" in own.columns:
        people["sno"] = ids.map(own.set_index("id")["sno"]).to_numpy()
    return people


def game_names(games: pd.DataFrame) -> pd.Series:
    """id -> the first name a games file's rows give the player (none without name columns)."""
    parts = [
        pd.Series(games[f"{side}_name"].fillna("").to_numpy(), index=games[side].to_numpy())
        for side in ("white", "black")
        if f"{side}_name" in games.columns
    ]
    if not parts:
        return pd.Series([], dtype=str)
    names = pd.concat(parts)
    names = names[names.ne("")]
    return names[~names.index.duplicated(keep="first")]


def _no_game(people: pd.DataFrame, games: pd.DataFrame) -> tuple[pd.DataFrame, str | None]:
    """(the players with a game, a note naming those left out): a games file has rows for games
    only, so a player with byes or absences alone has no place in it."""
    playing = people["id"].isin(pd.concat([games["white"], games["black"]]))
    left = people[~playing]
    if not len(left):
        return people, None
    named = ", ".join(f"{n!r} ({i})" for i, n in zip(left["id"], left["name"], strict=True))
    note = f"{len(left)} player(s) with no game left out (a games file has rows for games only): "
    return people[playing], note + named


def _read_event(
    input_path: Path | str, players_path: Path | str | None, reading: ReadOptions
) -> tuple[GamesInput, PlayerList | None, pd.DataFrame]:
    """The event (both players of every game), the players and its sides (unknown players
    stop here)."""
    inputs, players = read_inputs([input_path], players_path, reading=reading)
    item = inputs[0]
    if not isinstance(item, GamesInput):
        raise RunError(
            f"{item.source} is an individual file (one player's side of each game): a converted "
            "event needs both players of every game; give a games file, TRF or crosstable"
        )
    return item, players, assemble_sides(with_byes(inputs, players), players)


def _check_dates(item: GamesInput, header: Mapping[str, str | None]) -> None:
    """Refuse a --start/--end that puts the event's dates out of order (``date-order``)."""
    given = {k: find_date(v) for k in ("start", "end") if (v := header.get(k))}
    if not given:
        return
    info = item.info
    start = given.get("start") or (info.start if info is not None else None)
    end = given.get("end") or (info.end if info is not None else None)
    problems = date_order_problems(
        item.source,
        start,
        end,
        played_dates(item),
        start_from="--start" if "start" in given else "042 start date",
        end_from="--end" if "end" in given else "052 end date",
    )
    if problems:
        raise InputError(problems)


def _write(output: Path, data: bytes | pd.DataFrame, kind: str, protect: list[Path]) -> None:
    with OutputBatch(output.parent if str(output.parent) else ".", protect=protect) as batch:
        target = batch.path(output.name)
        if isinstance(data, bytes):
            target.write_bytes(data)
        else:
            write_games_file(data, target, kind)
        batch.commit()


def convert_event(
    input_path: Path | str,
    output: Path | str,
    players_path: Path | str | None = None,
    *,
    to: str = "trf",
    reading: ReadOptions = READ_DEFAULTS,
    header: Mapping[str, str | None] | None = None,
) -> TrfText:
    """``to`` "trf": :func:`convert_to_trf`. "csv"/"xlsx": the event as a games file
    (:mod:`pipeline.writers.games_file`), read back by ``fiderate rate`` as the same games with
    the same ratings. Header options have no place in a games file: refused (UsageError)."""
    if to not in CONVERT_FORMATS:
        raise UsageError(f"--to must be one of {', '.join(CONVERT_FORMATS)} (got {to!r})")
    if to == "trf":
        return convert_to_trf(input_path, output, players_path, reading=reading, header=header)
    given = [f"--{k.replace('_', '-')}" for k, v in (header or {}).items() if v]
    if given:
        raise UsageError(
            f"{', '.join(given)}: a games file has no header records; leave them out, or "
            "convert --to trf"
        )
    item, players, sides = _read_event(input_path, players_path, reading)
    people = event_people(item, sides, players.players if players is not None else None)
    people, no_game = _no_game(people, item.games)
    table = games_file_table(item.games, people)
    protect = [Path(input_path), *([Path(players_path)] if players_path is not None else [])]
    _write(Path(output), table, to, protect)
    byes = 0 if item.byes is None else len(item.byes)
    notes = (
        [f"{byes} bye(s) or absence(s) left out: a games file has rows for games only"]
        if byes
        else []
    )
    notes += [no_game] if no_game else []
    rounds = int(item.info.rounds or 0) if item.info is not None else item.games["round"].nunique()
    return TrfText("", len(people), len(item.games), rounds, notes)


def convert_to_trf(
    input_path: Path | str,
    output: Path | str,
    players_path: Path | str | None = None,
    *,
    reading: ReadOptions = READ_DEFAULTS,
    header: Mapping[str, str | None] | None = None,
) -> TrfText:
    """``header``: option name -> value for the header records (``name``, ``city``,
    ``federation``, ``start``, ``end``, ``arbiter``, ``time_control``). A TRF input is written
    back record for record, with its own line endings (only a given header record and a rating
    the list changes differ)."""
    records = header_records(header or {})
    item, players, sides = _read_event(input_path, players_path, reading)
    _check_dates(item, header or {})
    byes = item.byes if item.byes is not None else pd.DataFrame(columns=BYE_COLUMNS)
    people = event_people(item, sides, players.players if players is not None else None)
    if item.info is not None and item.info.records:
        ranks = people.dropna(subset=["sno"])
        ratings = pd.Series(ranks["rating"].to_numpy(), index=ranks["sno"].astype(int).to_numpy())
        text, notes = keep_records(item.info.records, ratings, records, item.info.newline)
        rounds = int(item.info.rounds or 0)
        trf = TrfText(text, len(people), len(item.games), rounds, notes)
    else:
        trf = event_trf(item.games, byes, people, item.info, records)
    protect = [Path(input_path), *([Path(players_path)] if players_path is not None else [])]
    _write(Path(output), trf.text.encode("utf-8"), "trf", protect)
    return trf


@dataclass(frozen=True)
class EventHeader:
    """TRF header records to write (``--name``, ``--city``, ...); None: the event's own."""

    name: str | None = None  # record 012
    city: str | None = None  # 022
    federation: str | None = None  # 032
    start: str | None = None  # 042
    end: str | None = None  # 052
    arbiter: str | None = None  # 102
    time_control: str | None = None  # 122


@dataclass(frozen=True)
class ConvertRequest:
    """One ``fiderate convert`` run: the event file, the file to write, its format (``trf``,
    ``csv`` or ``xlsx``), the list in force, how to read and the header records to set."""

    input: Path | str
    output: Path | str
    to: str = "trf"
    players: Path | str | None = None
    reading: ReadOptions = READ_DEFAULTS
    header: EventHeader = EventHeader()


@dataclass(frozen=True)
class ConvertResult:
    """What was written: the file, and the event's players, games and rounds in it; ``notes``
    on what the format could not hold or what changed."""

    output: Path
    players: int
    games: int
    rounds: int
    notes: tuple[str, ...] = ()


def convert(request: ConvertRequest) -> ConvertResult:
    """Write ``request.input``'s event as ``request.to`` (:func:`convert_event`), atomically."""
    written = convert_event(
        request.input,
        request.output,
        request.players,
        to=request.to,
        reading=request.reading,
        header=asdict(request.header),
    )
    return ConvertResult(
        Path(request.output), written.players, written.games, written.rounds, tuple(written.notes)
    )
