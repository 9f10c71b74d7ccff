"""Players files: the rating list in force (id, name, rating; optional K, birth year, ...)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import arrow_text, duplicated_text
from pipeline.errors import Code
from pipeline.model import PlayerList
from pipeline.problem_list import ProblemList
from pipeline.readers.tables import cells
from pipeline.readers.tables.tabular import RawTable


def parse_players(table: RawTable, problems: ProblemList) -> PlayerList:
    ids = cells.parse_ids(problems, table, "id")
    players = pd.DataFrame(
        {
            "id": ids.astype(str),
            "name": cells.text(table, "name").astype(str),
            "rating": cells.parse_rating(problems, table, "rating"),
            "k": cells.parse_int(problems, table, "k", low=1, high=100, what="a K factor"),
            "birth_year": cells.parse_int(
                problems,
                table,
                "birth_year",
                low=1850,
                high=2100,
                what="a year",
                zero_is_blank=True,
            ),
            "games": cells.parse_int(
                problems, table, "games", low=0, high=100000, what="a number of games"
            ),
            "ever_2400": _ever_2400(table, problems),
            "federation": cells.text(table, "federation").astype(str),
            "title": cells.text(table, "title").astype(str),
            "sex": cells.text(table, "sex").astype(str),
            "line": table.rows.astype(np.int64),
        }
    )
    dup = players["id"].ne("").to_numpy() & _duplicated_ids(players["id"])
    if dup.any():
        first = players.groupby("id")["line"].transform("first")
        for pos in np.flatnonzero(dup):
            problems.add(
                Code.DUPLICATE_PLAYER,
                f"id {players['id'].iat[pos]!r} is already on the list at row {first.iat[pos]}",
                file=table.source,
                row=int(table.rows[pos]),
                column="id",
                value=players["id"].iat[pos],
                fix="keep one row per player id",
            )
    return PlayerList(table.source, players)


def _ever_2400(table: RawTable, problems: ProblemList) -> pd.Series:
    """The ``ever_2400`` column (a blank cell is false, as the format says); a list without the
    column does not say whether a rating ever reached 2400: blank (<NA>), so a K that hangs on
    it is marked assumed (``grouper.kfactor.unknown_facts``)."""
    if "ever_2400" in table.frame.columns:
        return cells.parse_bool(problems, table, "ever_2400")
    return pd.Series(pd.array([pd.NA] * len(table.frame), dtype="boolean"))


def _duplicated_ids(ids: pd.Series) -> np.ndarray:
    """``ids.duplicated(keep="first")`` as a bool array. Ids of digits only (a FIDE list's 1.9 M)
    are compared as numbers with their length, by a stable sort (FIDE's ids come nearly in
    order: a few runs to merge), instead of hashing every id's text.

    Exact: a string of ASCII digits is its length and its value (leading zeros included: "07"
    is (2, 7), "7" is (1, 7)); with at most 17 digits the value is below 10**17, so
    ``value * 32 + length`` is a distinct int64 per distinct string. After a stable sort equal
    keys are adjacent, in order of appearance: each but the first of them is a duplicate."""
    text = arrow_text(ids)
    if not len(text):
        return np.zeros(0, dtype=bool)
    length = pc.binary_length(text)
    digits = pc.and_(pc.ascii_is_decimal(text), pc.less_equal(length, 17))
    if not pc.all(digits).as_py():
        return duplicated_text(ids)
    key = pc.cast(text, pa.int64()).to_numpy() * 32 + length.to_numpy().astype(np.int64)
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    dup = np.zeros(len(key), dtype=bool)
    dup[order[1:]] = ordered[1:] == ordered[:-1]
    return dup
