"""Convert one event file to a TRF: the library function behind ``fiderate convert``.

The event is read and checked exactly as ``fiderate rate`` reads it (same readers, same players
rules: the list in force decides, the event's own players fill in), then written atomically.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from pipeline.engine.sides import assemble_sides
from pipeline.errors import RunError
from pipeline.model import READ_DEFAULTS, GamesInput, ReadOptions
from pipeline.run.rate import read_inputs, with_byes
from pipeline.writers.atomic import OutputBatch
from pipeline.writers.trf import TrfText, event_trf
from pipeline.writers.trf_header import header_records, keep_records

BYE_COLUMNS = ["player", "event", "round", "date", "score_h", "code"]
PEOPLE_COLUMNS = ["id", "name", "rating", "birth_year", "federation", "title", "sex"]


def event_people(
    item: GamesInput, sides: pd.DataFrame, listed: pd.DataFrame | None
) -> pd.DataFrame:
    """One row per player of the event, with the rating each side is rated from."""
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
    people["name"] = people["name"].where(
        people["name"].notna() & people["name"].ne(""), people["id"]
    )
    for column in ("federation", "title", "sex"):
        people[column] = people[column].fillna("").astype(str)
    people["birth_year"] = people["birth_year"].astype("Int64")
    if own is not None and "sno" in own.columns:
        people["sno"] = ids.map(own.set_index("id")["sno"]).to_numpy()
    return people


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
    back record for record (only a given header record and a rating the list changes differ)."""
    records = header_records(header or {})
    inputs, players = read_inputs([input_path], players_path, reading=reading)
    item = inputs[0]
    if not isinstance(item, GamesInput):
        raise RunError(
            f"{item.source} is an individual file (one player's side of each game): a TRF needs "
            "both players of every game; give a games file, TRF or crosstable"
        )
    sides = assemble_sides(with_byes(inputs, players), players)  # unknown players stop here
    byes = item.byes if item.byes is not None else pd.DataFrame(columns=BYE_COLUMNS)
    people = event_people(item, sides, players.players if players is not None else None)
    if item.info is not None and item.info.records:
        ranks = people.dropna(subset=["sno"])
        ratings = pd.Series(ranks["rating"].to_numpy(), index=ranks["sno"].astype(int).to_numpy())
        text, notes = keep_records(item.info.records, ratings, records)
        rounds = int(item.info.rounds or 0)
        trf = TrfText(text, len(people), len(item.games), rounds, notes)
    else:
        trf = event_trf(item.games, byes, people, item.info, records)
    output = Path(output)
    protect = [Path(input_path), *([Path(players_path)] if players_path is not None else [])]
    with OutputBatch(output.parent if str(output.parent) else ".", protect=protect) as batch:
        batch.path(output.name).write_bytes(trf.text.encode("utf-8"))
        batch.commit()
    return trf
