"""The output tables as text frames: what rating_list.csv and games.csv contain, column by column.

The CSV and XLSX writers share these so the two never disagree.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.columnar.order import stable_order
from pipeline.grouper.totals import natural_order, positions
from pipeline.model import RatedPeriod
from pipeline.writers.format import (
    arrow_text,
    int_arrow,
    int_text,
    pd_decimals,
    plain_text,
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


def rating_list_spec(scale: int) -> dict[str, tuple[str, str, tuple[int, ...]]]:
    """Each rating-list column: its kind (text, int or units), the totals column it comes from
    and, for units, (scale, decimals). One definition for the CSV and the Parquet writers."""
    return {
        "id": ("text", "id", ()),
        "name": ("text", "name", ()),
        "rating": ("int", "rating", ()),
        "k": ("int", "k", ()),
        "games": ("int", "games", ()),
        "score": ("units", "score_h", (100, 1)),
        "expected": ("units", "expected_units", (scale, pd_decimals(scale))),
        "change_exact": ("units", "change_units", (scale, 2)),
        "change": ("int", "change", ()),
        "new_rating": ("int", "new_rating", ()),
        "k_rule": ("text", "k_rule", ()),
        "federation": ("text", "federation", ()),
        "title": ("text", "title", ()),
    }


_AS_TEXT: dict[str, Callable[..., pd.Series]] = {
    "text": lambda values: values,
    "int": int_text,
    "units": units_text,
}


def rating_list_table(result: RatedPeriod) -> pd.DataFrame:
    t = result.totals
    spec = rating_list_spec(result.scale)
    return pd.DataFrame(
        {name: _AS_TEXT[kind](t[source], *units) for name, (kind, source, units) in spec.items()}
    )[RATING_LIST_COLUMNS]


def games_order(result: RatedPeriod) -> np.ndarray:
    """Row order of games.csv: grouped by player in the rating list's order, stable.

    The rating list is already in that order, so each side's rank is its player's row there
    (one hash look-up) and a stable sort of the ranks gives the order; a partition rated apart
    (the Dask engine writes games part by part, with no totals) sorts its own ids.
    """
    totals = result.totals
    if "id" not in totals or not len(totals):
        return natural_order(result.sides["player"])
    rank = positions(result.sides["player"], totals["id"])
    if len(rank) and rank.min() < 0:  # not expected: every side's player has a total
        return natural_order(result.sides["player"])
    return stable_order(rank)


def games_text(result: RatedPeriod) -> dict[str, pa.Array]:
    """The text of games.csv column by column (Arrow strings, no nulls), in the sides' own
    order: every value is formatted where it lies, and the rows are put in order once, as
    whole lines (``write_games_csv``) or per column (``games_columns``)."""
    s = result.sides
    scale = result.scale
    decimals = pd_decimals(scale)
    columns = {
        "player": arrow_text(s["player"]),
        "event": arrow_text(s["event"]),
        "round": arrow_text(s["round"]),
        "opponent": arrow_text(s["opponent"]),
        "player_rating": int_arrow(s["player_rating"]),
        "opponent_rating": int_arrow(s["opponent_rating"]),
        "result": arrow_text(s["result"]),
        "rated": pc.if_else(pa.array(s["rated"].to_numpy(dtype=bool)), "true", "false"),
        "diff": int_arrow(s["diff"]),
        "pd": units_arrow(s["pd_units"], scale, decimals),
        "dev": units_arrow(s["dev_units"], scale, decimals),
        "note": arrow_text(s["note"]),
        "date": arrow_text(s["date"].astype("string")),
        "source": arrow_text(s["source"]),
        "line": int_arrow(s["line"]),
    }
    return {name: plain_text(columns[name]) for name in GAMES_COLUMNS}


def games_columns(result: RatedPeriod) -> dict[str, pa.Array]:
    """games.csv column by column, rows grouped by player in the rating list's order."""
    order = pa.array(games_order(result))
    return {name: column.take(order) for name, column in games_text(result).items()}


def games_table(result: RatedPeriod) -> pd.DataFrame:
    """games.csv as a frame of text (for the spreadsheets and reports)."""
    return pd.DataFrame({name: str_series(c) for name, c in games_columns(result).items()})
