"""The output tables as text frames: what rating_list.csv and games.csv contain, column by column.

The CSV and XLSX writers share these so the two never disagree.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.grouper.period import natural_order
from pipeline.model import RatedPeriod
from pipeline.writers.format import (
    arrow_ints,
    arrow_text,
    int_arrow,
    int_text,
    pd_decimals,
    str_series,
    units_arrow,
    units_text,
)

RATING_LIST_COLUMNS = [
    "id",
    "name",
    "rating",
    "k",
    "games",
    "score",
    "expected",
    "change_exact",
    "change",
    "new_rating",
    "k_rule",
    "federation",
    "title",
]

GAMES_COLUMNS = [
    "player",
    "event",
    "round",
    "opponent",
    "player_rating",
    "opponent_rating",
    "result",
    "rated",
    "diff",
    "pd",
    "dev",
    "note",
    "date",
    "source",
    "line",
]


def rating_list_table(result: RatedPeriod) -> pd.DataFrame:
    t = result.totals
    scale = result.scale
    return pd.DataFrame(
        {
            "id": t["id"],
            "name": t["name"],
            "rating": int_text(t["rating"]),
            "k": int_text(t["k"]),
            "games": int_text(t["games"]),
            "score": units_text(t["score_h"], 100, 1),
            "expected": units_text(t["expected_units"], scale, pd_decimals(scale)),
            "change_exact": units_text(t["change_units"], scale, 2),
            "change": int_text(t["change"]),
            "new_rating": int_text(t["new_rating"]),
            "k_rule": t["k_rule"],
            "federation": t["federation"],
            "title": t["title"],
        }
    )[RATING_LIST_COLUMNS]


def _taken(column: pa.Array | pa.ChunkedArray, order: pa.Array, few_values: bool) -> pa.Array:
    """``column`` in ``order``. A column with few distinct values (event, result, note) is
    gathered as dictionary codes and expanded from a small dictionary that stays in cache."""
    if few_values:
        return pc.dictionary_encode(column).take(order).cast(column.type)
    return column.take(order)


def games_order(result: RatedPeriod) -> np.ndarray:
    """Row order of games.csv: grouped by player in the rating list's order, stable."""
    return natural_order(result.sides["player"])


def games_table(result: RatedPeriod) -> pd.DataFrame:
    """Both sides of every game, grouped by player in the rating list's order (stable)."""
    s = result.sides
    scale = result.scale
    decimals = pd_decimals(scale)
    # Reorder first (numbers as numbers, text through dictionary codes), then format: a
    # row-wise reshuffle of the whole sides frame costs more than everything else here.
    order_np = games_order(result)
    order = pa.array(order_np)

    def ints(name: str) -> pa.Array:
        return arrow_ints(s[name]).take(order)

    def text(name: str, few_values: bool = True) -> pa.Array:
        return _taken(arrow_text(s[name]), order, few_values)

    columns = {
        "player": text("player", few_values=False),
        "event": text("event"),
        "round": text("round"),
        "opponent": text("opponent", few_values=False),
        "player_rating": int_arrow(ints("player_rating")),
        "opponent_rating": int_arrow(ints("opponent_rating")),
        "result": text("result"),
        "rated": pc.if_else(pa.array(s["rated"].to_numpy(dtype=bool)[order_np]), "true", "false"),
        "diff": int_arrow(ints("diff")),
        "pd": units_arrow(ints("pd_units"), scale, decimals),
        "dev": units_arrow(ints("dev_units"), scale, decimals),
        "note": text("note"),
        "date": _taken(arrow_text(s["date"].astype("string")), order, True).fill_null(""),
        "source": text("source"),
        "line": int_arrow(ints("line")),
    }
    return pd.DataFrame({name: str_series(columns[name]) for name in GAMES_COLUMNS})
