"""First ratings of unrated players, exactly as RULES.md section 7, in integer arithmetic.

A player without a rating collects results against **rated** opponents in a pool kept in the
history store across consecutive periods (at most 26 months). Once the pool holds at least 5 such
games:

    Ra = (sum of the opponents' ratings + 2 x 1800) / (n + 2)    two imaginary 1800 draws
    p  = (points + 1) / (n + 2), rounded to two decimals, .005 up
    Ru = Ra + dp(p)       dp from table 8.1.1; rounded to a whole number, .5 up; capped at 2200

and Ru is published only if it is at least the era's floor (1400); otherwise the pool carries on. A
zero score in the player's first event is disregarded. Before 2024-03 the era's older method
applies (``FirstRatingRules``: no imaginary games, a fixed step per half point above 50%, 9 games
before 2014-07, no cap). Everything is vectorized over players (groupby, no loops).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import arrow_text, factorize_text
from pipeline.keys.frame_lookup import member
from pipeline.rules.fide_tables import dp_table
from pipeline.rules.months import month_index, month_indexes
from pipeline.rules.rounding import rescale_half_away, round_half_up
from pipeline.rules.sets import FIRST_2024, FirstRatingRules

# The method in force since 2024-03-01; a period run uses its era's
# (``RuleSet.first_rating_rules``).
FIRST_RATING = FIRST_2024

# The pool of results of unrated players (one row per player and event), as kept in the history
# store's pending table: its columns and their types, defined once.
POOL_DTYPES: dict[str, type] = {
    "player_id": str,
    "event_sha256": str,
    "event": str,
    "period": str,
    "start_date": str,
    "games": np.int64,
    "points_h": np.int64,
    "opp_sum": np.int64,
    "disregarded": bool,
}
POOL_COLUMNS = list(POOL_DTYPES)


def empty_pool() -> pd.DataFrame:
    """A pool without results, typed."""
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in POOL_DTYPES.items()})


def pool_games(sides: pd.DataFrame) -> np.ndarray:
    """Which sides can count towards a first rating: played by an unrated player against a
    rated opponent (a new array, to be narrowed further)."""
    return (
        sides["played"].to_numpy(dtype=bool)
        & sides["player_rating"].isna().to_numpy()
        & sides["opponent_rating"].notna().to_numpy()
    )


def event_results(rated_sides: pd.DataFrame, candidates: pd.Index, period: str) -> pd.DataFrame:
    """This period's results of ``candidates`` (unrated players) against rated opponents, one row
    per player and event unit. ``rated_sides`` needs ``event_sha256`` and ``start_date`` columns.
    """
    s = rated_sides
    mask = pool_games(s)
    # The candidates are looked up for those games only (not for every side of the period).
    mask[mask] = member(s["player"][mask], candidates)
    part = s.loc[
        mask, ["player", "event_sha256", "event", "start_date", "score_h", "opponent_rating"]
    ]
    if part.empty:
        return empty_pool()
    grouped = part.groupby(["player", "event_sha256", "event", "start_date"], sort=False)
    out = grouped.agg(
        games=("score_h", "size"),
        points_h=("score_h", "sum"),
        opp_sum=("opponent_rating", "sum"),
    ).reset_index()
    out = out.rename(columns={"player": "player_id"})
    out["period"] = period
    out["disregarded"] = False
    for column in ("games", "points_h", "opp_sum"):
        out[column] = out[column].astype(np.int64)
    return out[POOL_COLUMNS]


def mark_zero_first_events(
    current: pd.DataFrame, earlier: pd.DataFrame, rules: FirstRatingRules = FIRST_RATING
) -> pd.DataFrame:
    """Disregard a zero score in a player's first event: the earliest event of this period, for a
    player with no earlier result in the pool (``earlier``), when it scored less than the era's
    minimum (half a point since 2014-07: no point; one point before) or, before 2014-07, had
    fewer than 3 games against rated opponents."""
    if current.empty:
        return current
    # A stable sort by player, start date and event, on codes: the dates' and events' codes sort
    # as the values do (they order one player's events); the players' need not (any order of
    # the players puts each player's rows together, first to last the same). A sort of three
    # text columns took seconds for a FIDE month's pool, pandas' sorted factorize ~1 s.
    player, _ = factorize_text(current["player_id"])
    at = np.lexsort([_sorted_codes(current[c]) for c in ("event", "start_date")] + [player])
    ordered = player[at]
    first = np.ones(len(at), dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    new_player = ~member(current["player_id"], earlier["player_id"])
    zero = current["points_h"].to_numpy() < rules.first_event_min_points_h
    zero |= current["games"].to_numpy() < rules.first_event_min_games
    out = current.copy()
    out.loc[current.index[at[first & new_player[at] & zero[at]]], "disregarded"] = True
    return out


def _sorted_codes(values: pd.Series) -> np.ndarray:
    """Codes that sort as the values do (missing last, as ``sort_values`` puts them)."""
    if values.isna().any():
        codes, uniques = pd.factorize(values, sort=True)
        return np.where(codes < 0, len(uniques), codes)
    # Codes in order of appearance (Arrow's hash), then each distinct value's rank: the few
    # distinct values sorted instead of every cell (code point order, as Python's).
    codes, distinct = factorize_text(values)
    rank = np.empty(len(distinct), dtype=np.int64)
    rank[np.asarray(pc.sort_indices(arrow_text(distinct)))] = np.arange(len(distinct))
    return rank[codes]


@dataclass
class FirstRatings:
    current: pd.DataFrame  # this period's pool rows (with the disregarded flag)
    ratings: (
        pd.DataFrame
    )  # one row per player with pooled results: the computation, published or not


def first_ratings(
    current: pd.DataFrame,
    earlier: pd.DataFrame,
    period: str,
    rules: FirstRatingRules = FIRST_RATING,
) -> FirstRatings:
    """Pool this period's results with the earlier ones still in the window and rate the pool."""
    current = mark_zero_first_events(current, earlier, rules)
    window_start = month_index(period) - (rules.pool_months - 1)
    earlier = earlier[member(earlier["player_id"], current["player_id"])]
    in_window = month_indexes(earlier["period"]) >= window_start
    pool = pd.concat([earlier[in_window], current], ignore_index=True)
    pool = pool[~pool["disregarded"].to_numpy(dtype=bool)]
    totals = pool.groupby("player_id", sort=True)[["games", "points_h", "opp_sum"]].sum()
    return FirstRatings(current, compute(totals, rules))


def compute(totals: pd.DataFrame, rules: FirstRatingRules = FIRST_RATING) -> pd.DataFrame:
    """Ra, p, dp and Ru for pooled totals (index player id; games, points_h, opp_sum)."""
    n = totals["games"].to_numpy(dtype=np.int64)
    points_h = totals["points_h"].to_numpy(dtype=np.int64)
    opp_sum = totals["opp_sum"].to_numpy(dtype=np.int64)
    m = np.maximum(n + rules.imaginary_games, 1)  # an empty pool (n = 0) is never published
    ra_total = opp_sum + rules.imaginary_games * rules.imaginary_rating
    # p in hundredths: 100 x (points + 1) / (n + 2) = (points_h + 100) / (n + 2), .005 up.
    p_h = round_half_up(points_h + rules.imaginary_points_h, m)
    dp = dp_table().dp(np.clip(p_h, 0, 100))
    # Ru = Ra + dp = (ra_total + dp x m) / m, rounded .5 up, then capped.
    ru = round_half_up(ra_total + dp * m, m)
    if rules.method == "older":
        ru, dp = _older_above_half(ru, dp, n, points_h, ra_total, m, rules.half_point_step_h)
    enough = n >= rules.min_games
    capped = ru if rules.cap is None else np.minimum(ru, rules.cap)
    published = enough & (capped >= rules.floor)
    return pd.DataFrame(
        {
            "games": n,
            "points_h": points_h,
            "opp_sum": opp_sum,
            "ra_total": ra_total,
            "ra_h": rescale_half_away(ra_total, m, 100),  # Ra in hundredths, for the report only
            "p_h": p_h,
            "dp": dp,
            "ru": ru,
            "rating": capped,
            "enough_games": enough,
            "published": published,
        },
        index=totals.index,
    )


def _older_above_half(
    ru: np.ndarray,
    dp: np.ndarray,
    n: np.ndarray,
    points_h: np.ndarray,
    ra_total: np.ndarray,
    m: np.ndarray,
    step_h: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The older method at 50% or more: Ru = Ra + step per half point above 50%, the step in
    hundredths. Half points above 50%: h = 2 x points - n = (2 x points_h - 100 n) / 100, a whole
    number (points are whole halves), so Ru x 100 m = 100 ra_total + m x step_h x h exactly;
    rounded .5 up. The report's dp column is then the step's total, Ru - Ra, in whole points
    (truncated towards zero for the display only)."""
    half_points = (2 * points_h - 100 * n) // 100
    at_or_above = half_points >= 0
    ru_above = round_half_up(100 * ra_total + m * step_h * half_points, 100 * m)
    dp_above = (step_h * half_points) // 100
    return np.where(at_or_above, ru_above, ru), np.where(at_or_above, dp_above, dp)
