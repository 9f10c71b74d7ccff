"""The output tables as text frames: what rating_list.csv and games.csv contain, column by column.

The CSV and XLSX writers share these so the two never disagree.
"""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.grouper.period import natural_order
from pipeline.model import RatedPeriod
from pipeline.writers.format import (
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


def games_table(result: RatedPeriod) -> pd.DataFrame:
    """Both sides of every game, grouped by player in the rating list's order (stable)."""
    s = result.sides
    scale = result.scale
    decimals = pd_decimals(scale)
    # Built as Arrow text columns and reordered once at the end: a take per column, not a
    # row-wise reshuffle of the whole sides frame.
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
        "date": arrow_text(s["date"].astype("string")).fill_null(""),
        "source": arrow_text(s["source"]),
        "line": int_arrow(s["line"]),
    }
    order = pa.array(natural_order(s["player"]))
    table = pa.table({name: columns[name] for name in GAMES_COLUMNS}).take(order)
    return pd.DataFrame({name: str_series(table[name]) for name in GAMES_COLUMNS})
