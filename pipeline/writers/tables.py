"""The output tables as text frames: what rating_list.csv and games.csv contain, column by column.

The CSV and XLSX writers share these so the two never disagree.
"""

from __future__ import annotations

import pandas as pd

from pipeline.grouper.period import natural_order
from pipeline.model import RatedPeriod
from pipeline.writers.format import int_text, pd_decimals, units_text

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
            "games": t["games"].astype(str),
            "score": units_text(t["score_h"], 100, 1),
            "expected": units_text(t["expected_units"], scale, pd_decimals(scale)),
            "change_exact": units_text(t["change_units"], scale, 2),
            "change": t["change"].astype(str),
            "new_rating": int_text(t["new_rating"]),
            "k_rule": t["k_rule"],
            "federation": t["federation"],
            "title": t["title"],
        }
    )[RATING_LIST_COLUMNS]


def games_table(result: RatedPeriod) -> pd.DataFrame:
    s = result.sides
    scale = result.scale
    decimals = pd_decimals(scale)
    order = natural_order(s["player"])
    s = s.iloc[order]
    table = pd.DataFrame(
        {
            "player": s["player"],
            "event": s["event"],
            "round": s["round"],
            "opponent": s["opponent"],
            "player_rating": int_text(s["player_rating"]),
            "opponent_rating": int_text(s["opponent_rating"]),
            "result": s["result"],
            "rated": s["rated"].map({True: "true", False: "false"}),
            "diff": int_text(s["diff"]),
            "pd": units_text(s["pd_units"], scale, decimals),
            "dev": units_text(s["dev_units"], scale, decimals),
            "note": s["note"],
            "date": s["date"].astype("string").fillna(""),
            "source": s["source"],
            "line": s["line"].astype(str),
        }
    )
    return table[GAMES_COLUMNS].reset_index(drop=True)
