"""Players files: the rating list in force (id, name, rating; optional K, birth year, ...)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.columnar.arrow import duplicated_text
from pipeline.errors import Code, ProblemList
from pipeline.model import PlayerList
from pipeline.readers import cells
from pipeline.readers.tabular import RawTable


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
            "ever_2400": cells.parse_bool(problems, table, "ever_2400"),
            "federation": cells.text(table, "federation").astype(str),
            "title": cells.text(table, "title").astype(str),
            "sex": cells.text(table, "sex").astype(str),
            "line": table.rows.astype(np.int64),
        }
    )
    dup = players["id"].ne("").to_numpy() & duplicated_text(players["id"])
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
