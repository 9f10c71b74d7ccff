"""Individual files: one player's games, as in FIDE's individual calculation or a calculator.

Columns: player, rating, opponent_rating, result; optional event, round, k, opponent, name, date.
Each row is one side of a game; the opponent is not rated from this file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.errors import Code
from pipeline.model import SidesInput
from pipeline.problem_list import ProblemList
from pipeline.readers.events.results import SIDE_RESULT_HELP, SIDE_RESULTS
from pipeline.readers.tables import cells
from pipeline.readers.tables.tabular import RawTable


def parse_individual(table: RawTable, problems: ProblemList) -> SidesInput:
    player = cells.parse_ids(problems, table, "player")
    score_h, played, canonical = cells.parse_results(
        problems, table, SIDE_RESULTS, "-", SIDE_RESULT_HELP
    )
    score_h = score_h.astype(np.int64)
    played = played.astype(bool)

    rating = cells.parse_rating(problems, table, "rating")
    k = cells.parse_int(problems, table, "k", low=1, high=100, what="a K factor")
    event = cells.text(table, "event").replace("", Path(table.source).stem)
    sides = pd.DataFrame(
        {
            "player": player.astype(str),
            "opponent": cells.text(table, "opponent").astype(str),
            "event": event.astype(str),
            "round": cells.parse_round(problems, table),
            "date": cells.parse_date(problems, table, "date"),
            "player_rating": rating,
            "opponent_rating": cells.parse_rating(problems, table, "opponent_rating"),
            "score_h": score_h,
            "played": played,
            "result": pd.Series(canonical.astype(str), dtype=str),
            "k": k,
            "name": cells.text(table, "name").astype(str),
            "source": table.source,
            "line": table.rows.astype(np.int64),
        }
    )
    _check_k(sides, table, problems)
    return SidesInput(table.source, sides)


def _check_k(sides: pd.DataFrame, table: RawTable, problems: ProblemList) -> None:
    """One player has one K for the whole period."""
    given = sides[sides["k"].notna()]
    counts = given.groupby("player")["k"].nunique()
    for player in counts[counts > 1].index:
        rows = given[given["player"] == player]
        first = rows["k"].iloc[0]
        for _, row in rows[rows["k"] != first].iterrows():
            problems.add(
                Code.INCONSISTENT_K,
                f"player {player!r} has K {first} on an earlier row and K {row['k']} here",
                file=table.source,
                row=int(row["line"]),
                column="k",
                value=str(row["k"]),
                fix="give the player one K for the whole period (or leave k blank)",
            )
