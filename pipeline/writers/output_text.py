"""The output tables as text frames: what rating_list.csv and games.csv contain, column by column.

The CSV and XLSX writers share these so the two never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


# A table declared as data: output column -> (kind, source column, arguments of the kind).
Spec = dict[str, tuple[str, str, tuple[int, ...]]]


def rating_list_spec(scale: int) -> Spec:
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


def spec_columns(frame: pd.DataFrame, spec: Spec, by_kind: dict[str, Callable[..., Any]]) -> dict:
    """Each column of ``spec`` made from ``frame`` by the converter of its kind: the one loop of
    every writer of the rating list and games (text for CSV, typed Arrow for Parquet)."""
    return {
        name: by_kind[kind](frame[source], *units) for name, (kind, source, units) in spec.items()
    }


_AS_TEXT: dict[str, Callable[..., pd.Series]] = {
    "text": lambda values: values,
    "int": int_text,
    "units": units_text,
}


def rating_list_table(result: RatedPeriod) -> pd.DataFrame:
    spec = rating_list_spec(result.scale)
    return pd.DataFrame(spec_columns(result.totals, spec, _AS_TEXT))[RATING_LIST_COLUMNS]


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


def games_spec(scale: int) -> Spec:
    """Each games column: its kind (text, int, units, bool or date), the sides column it comes
    from and, for units, (scale, decimals). One definition for the CSV and the Parquet writers."""
    decimals = pd_decimals(scale)
    return {
        "player": ("text", "player", ()),
        "event": ("text", "event", ()),
        "round": ("text", "round", ()),
        "opponent": ("text", "opponent", ()),
        "player_rating": ("int", "player_rating", ()),
        "opponent_rating": ("int", "opponent_rating", ()),
        "result": ("text", "result", ()),
        "rated": ("bool", "rated", ()),
        "diff": ("int", "diff", ()),
        "pd": ("units", "pd_units", (scale, decimals)),
        "dev": ("units", "dev_units", (scale, decimals)),
        "note": ("text", "note", ()),
        "date": ("date", "date", ()),
        "source": ("text", "source", ()),
        "line": ("int", "line", ()),
    }


def _date_text(values: pd.Series) -> pa.Array | pa.ChunkedArray:
    return arrow_text(values.astype("string"))


def _bool_text(values: pd.Series) -> pa.Array:
    return pc.if_else(pa.array(values.to_numpy(dtype=bool)), "true", "false")


_GAMES_AS_TEXT: dict[str, Callable[..., pa.Array | pa.ChunkedArray]] = {
    "text": arrow_text,
    "int": int_arrow,
    "units": units_arrow,
    "bool": _bool_text,
    "date": _date_text,
}


def games_text(result: RatedPeriod) -> dict[str, pa.Array]:
    """The text of games.csv column by column (Arrow strings, no nulls), in the sides' own
    order: every value is formatted where it lies, and the rows are put in order once, as
    whole lines (``write_games_csv``) or per column (``games_columns``)."""
    columns = spec_columns(result.sides, games_spec(result.scale), _GAMES_AS_TEXT)
    return {name: plain_text(column) for name, column in columns.items()}


def games_columns(result: RatedPeriod) -> dict[str, pa.Array]:
    """games.csv column by column, rows grouped by player in the rating list's order."""
    order = pa.array(games_order(result))
    return {name: column.take(order) for name, column in games_text(result).items()}


def games_table(result: RatedPeriod) -> pd.DataFrame:
    """games.csv as a frame of text (for the spreadsheets and reports)."""
    return pd.DataFrame({name: str_series(c) for name, c in games_columns(result).items()})
