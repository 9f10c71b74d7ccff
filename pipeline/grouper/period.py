"""The grouper: sum each player's rated games over the period, decide K, and compute the change
K x sum(S - PD) exactly, rounded once (.5 away from zero). Aggregation by integer codes and
``np.bincount``: no per-player Python loop.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.frames import member
from pipeline.grouper.kfactor import RULE_700_SUFFIX, apply_700_rule, base_k
from pipeline.model import PlayerList
from pipeline.rounding import round_half_away
from pipeline.rules import RuleSet

PLAYER_INFO = ["id", "name", "rating", "k", "birth_year", "games", "ever_2400", "federation", "title"]


def natural_order(ids: pd.Series) -> np.ndarray:
    """Numeric ids in numeric order first, then other ids alphabetically."""
    text = ids.astype(str).to_numpy()
    digits = ids.astype(str).str.fullmatch(r"\d+").to_numpy()
    lengths = np.where(digits, ids.astype(str).str.len().to_numpy(), 0)
    return np.lexsort((text, lengths, ~digits))


def player_info(sides: pd.DataFrame, players: PlayerList | None) -> pd.DataFrame:
    """One row per player: everyone on the list, plus anyone rated from the inputs alone."""
    listed = players.players[PLAYER_INFO] if players is not None else None
    seen = sides.drop_duplicates("player", keep="last")
    if listed is not None:
        seen = seen[~member(seen["player"], listed["id"])]
    extra = pd.DataFrame(
        {
            "id": seen["player"].astype(str),
            "name": seen["name"].where(seen["name"].ne(""), seen["player"]).astype(str),
            # Not on a list: the rating the player's last row was rated with.
            "rating": seen["player_rating"].astype("Int64"),
            "k": seen["k"].astype("Int64"),
            "birth_year": pd.Series(pd.NA, index=seen.index, dtype="Int64"),
            "games": pd.Series(pd.NA, index=seen.index, dtype="Int64"),
            "ever_2400": False,
            "federation": "",
            "title": "",
        }
    )
    if listed is None:
        info = extra
    elif extra.empty:
        info = listed.copy()
    else:
        info = pd.concat([listed, extra], ignore_index=True)
    # A K on an individual file row counts as published for a player the list gives none.
    given_k = sides.loc[sides["k"].notna()].drop_duplicates("player").set_index("player")["k"]
    if len(given_k):
        info["k"] = info["k"].fillna(info["id"].map(given_k).astype("Int64"))
    info = info.iloc[natural_order(info["id"])].reset_index(drop=True)
    return info


def period_totals(
    rated_sides: pd.DataFrame,
    players: PlayerList | None,
    rules: RuleSet,
    scale: int,
    period_year: int,
    forced_k: int | None = None,
    k_cap: bool = False,
) -> pd.DataFrame:
    """Per-player totals and the new rating (schema ``schemas.totals.RatingList``)."""
    info = player_info(rated_sides, players)
    codes = pd.Index(info["id"]).get_indexer(rated_sides["player"])
    rated = rated_sides["rated"].to_numpy(dtype=bool)
    idx = codes[rated]
    size = len(info)

    def total(column: str) -> np.ndarray:
        values = rated_sides[column].to_numpy(dtype=np.int64, na_value=0)[rated]
        # bincount sums in float64: exact for integers below 2**53, far above any real period.
        return np.rint(np.bincount(idx, weights=values, minlength=size)).astype(np.int64)

    games = np.bincount(idx, minlength=size).astype(np.int64)
    score_h = total("score_h")
    expected_units = total("pd_units")
    dev_units = total("dev_units")

    k_base, k_rule = base_k(info, rules.k, period_year, forced_k)
    rated_player = k_base.notna().to_numpy()
    k_base_values = k_base.fillna(0).to_numpy(dtype=np.int64)
    if forced_k is None or k_cap:
        k_used = apply_700_rule(k_base_values, games, rules.k.period_cap)
    else:
        k_used = k_base_values
    reduced = k_used != k_base_values
    k_rule = k_rule.where(~reduced, k_rule + RULE_700_SUFFIX)

    change_units = k_used * dev_units
    change = round_half_away(change_units, scale)
    rating = info["rating"]
    new_rating = rating + pd.Series(change, index=info.index)

    return pd.DataFrame(
        {
            "id": info["id"].astype(str),
            "name": info["name"].astype(str),
            "rating": rating.astype("Int64"),
            "k": pd.arrays.IntegerArray(k_used, ~rated_player),
            "games": games,
            "score_h": score_h,
            "expected_units": expected_units,
            "dev_units": dev_units,
            "change_units": change_units,
            "change": change.astype(np.int64),
            "new_rating": new_rating.astype("Int64"),
            "k_base": k_base,
            "k_rule": k_rule.astype(str),
            "federation": info["federation"].astype(str),
            "title": info["title"].astype(str),
        }
    )
