"""The output tables as text frames: what rating_list.csv and games.csv contain, column by column.

The CSV and XLSX writers share these so the two never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.arrays.coded_text import CodedText, TextColumn, encoded_text
from pipeline.arrays.number_text import (
    arrow_text,
    int_coded,
    int_text,
    pd_decimals,
    plain_text,
    str_series,
    units_coded,
    units_text,
)
from pipeline.arrays.order import stable_order
from pipeline.file_names import shown_name, shown_names
from pipeline.keys.id_lookup import IdLookup, natural_order
from pipeline.model import RatedPeriod
from pipeline.resources.threads import each

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
    "k_assumed",
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
        # The input could not decide the K (no games count, 2400 history or birth year).
        "k_assumed": ("bool", "k_assumed", ()),
        "federation": ("text", "federation", ()),
        "title": ("text", "title", ()),
    }


def spec_columns(frame: pd.DataFrame, spec: Spec, by_kind: dict[str, Callable[..., Any]]) -> dict:
    """Each column of ``spec`` made from ``frame`` by the converter of its kind: the one loop of
    every writer of the rating list and games (text for CSV, typed Arrow for Parquet). A big
    frame's columns are made on every core at once (the converters are functions of one
    column; their Arrow kernels, the hashing of text above all, release the GIL)."""

    def make(entry: tuple[str, str, tuple[int, ...]]) -> Any:
        kind, source, units = entry
        return by_kind[kind](frame[source], *units)

    made = each([partial(make, entry) for entry in spec.values()], len(frame))
    return dict(zip(spec, made, strict=True))


def bool_text(values: pd.Series) -> pd.Series:
    """true/false, as games.csv writes its ``rated`` column."""
    return pd.Series(np.where(values.to_numpy(dtype=bool), "true", "false"), index=values.index)


_AS_TEXT: dict[str, Callable[..., pd.Series]] = {
    "text": lambda values: values,
    "int": int_text,
    "units": units_text,
    "bool": bool_text,
}


def rating_list_table(result: RatedPeriod) -> pd.DataFrame:
    spec = rating_list_spec(result.scale)
    return pd.DataFrame(spec_columns(result.totals, spec, _AS_TEXT))[RATING_LIST_COLUMNS]


def player_ranks(result: RatedPeriod) -> np.ndarray | None:
    """Each side's player's row in the rating list, or None for a partition rated apart (the
    Dask engine writes games part by part, with no totals) and, not expected, a side whose
    player has no total. With the sides' player codes (``RatedPeriod.side_players``) each
    distinct id is looked up once and spread over the sides by code; else each side's id."""
    totals = result.totals
    if "id" not in totals or not len(totals):
        return None
    on_totals = result.totals_ids if result.totals_ids is not None else IdLookup(totals["id"])
    if result.side_players is not None:
        codes, ids = result.side_players
        rank = on_totals.positions(ids)[codes]
    else:
        rank = on_totals.positions(result.sides["player"])
    return None if len(rank) and rank.min() < 0 else rank


def games_order(result: RatedPeriod, ranks: np.ndarray | None) -> np.ndarray:
    """Row order of games.csv: grouped by player in the rating list's order, stable.

    The rating list is already in that order, so a stable sort of each side's player's rank
    (``player_ranks``) gives the order; without ranks, the players' ids are sorted."""
    if ranks is None:
        return natural_order(result.sides["player"])
    return stable_order(ranks)


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


def _text_coded(values: pd.Series) -> TextColumn:
    return encoded_text(plain_text(arrow_text(values)))


def _date_coded(values: pd.Series) -> TextColumn:
    return _text_coded(values.astype("string"))


_BOOL_TEXTS = pa.array(["false", "true"])


def _bool_coded(values: pd.Series) -> CodedText:
    return CodedText(_BOOL_TEXTS, pa.array(values.to_numpy(dtype=bool).astype(np.int8)))


_GAMES_CODED: dict[str, Callable[..., TextColumn]] = {
    "text": _text_coded,
    "int": int_coded,
    "units": units_coded,
    "bool": _bool_coded,
    "date": _date_coded,
}


def games_coded(result: RatedPeriod, ranks: np.ndarray | None) -> dict[str, TextColumn]:
    """The text of games.csv column by column, in the sides' own order, as codes into each
    column's distinct texts (each distinct number formatted once; the players' ids are the
    rating list's, by ``ranks`` when given). The rows are taken in the file's order only where
    they are written (``write_games_csv``, block by block) or per column (``games_columns``)."""
    spec = games_spec(result.scale)
    known = {name: _codes_text(*codes) for name, codes in (result.side_texts or {}).items()}
    if ranks is not None:
        known["player"] = _codes_text(ranks, result.totals["id"])
    rest_spec = {k: v for k, v in spec.items() if k not in known}
    # Only the columns still needed: the texts known by code are never built (the output stage
    # builds the sides' text columns only for outputs that read them: ``jobs.rate.outputs``).
    frame = result.sides[sorted({source for _, source, _ in rest_spec.values()})]
    rest = spec_columns(frame, rest_spec, _GAMES_CODED)
    columns = {name: known[name] if name in known else rest[name] for name in spec}
    source = columns["source"]
    if isinstance(source, CodedText):  # file names, not the organiser's folders (file_names)
        columns["source"] = source.with_texts(partial(_names_of, shown_names(result.sources)))
    return columns


def _names_of(names: dict[str, str], texts: pa.Array) -> pa.Array:
    """The shown name of each distinct source text (a text not among the sources: its own)."""
    return pa.array([names.get(t, shown_name(t)) for t in texts.to_pylist()], texts.type)


def _codes_text(codes: np.ndarray, texts: pd.Series) -> CodedText:
    """A column given as each row's code into its distinct texts (``RatedPeriod.side_texts``, or
    each side's rank into the rating list's ids)."""
    return CodedText(plain_text(arrow_text(texts)), pa.array(codes.astype(np.int32, copy=False)))


def games_columns(result: RatedPeriod) -> dict[str, pa.Array]:
    """games.csv column by column, rows grouped by player in the rating list's order."""
    ranks = player_ranks(result)
    order = pa.array(games_order(result, ranks))
    return {name: coded.rows(order) for name, coded in games_coded(result, ranks).items()}


def games_table(result: RatedPeriod) -> pd.DataFrame:
    """games.csv as a frame of text (for the spreadsheets and reports)."""
    return pd.DataFrame({name: str_series(c) for name, c in games_columns(result).items()})
