"""First ratings of unrated players, exactly as RULES.md section 7, in integer arithmetic.

A player without a rating collects results against **rated** opponents in a pool kept in the
history store across consecutive periods (at most 26 months). Once the pool holds at least 5 such
games:

    Ra = (sum of the opponents' ratings + 2 x 1800) / (n + 2)    two imaginary 1800 draws
    p  = (points + 1) / (n + 2), rounded to two decimals, .005 up
    Ru = Ra + dp(p)       dp from table 8.1.1; rounded to a whole number, .5 up; capped at 2200

and Ru is published only if it is at least 1400; otherwise the pool carries on. A zero score in the
player's first event is disregarded. Everything is vectorized over players (groupby, no loops).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from pipeline.columnar.lookup import member
from pipeline.publish.months import month_index, month_indexes
from pipeline.rules.fide_tables import dp_table
from pipeline.rules.rounding import rescale_half_away, round_half_up


@dataclass(frozen=True)
class FirstRatingRules:
    """The numbers of RULES.md sections 6 and 7, as data."""

    min_games: int = 5  # games against rated opponents
    imaginary_games: int = 2  # two imaginary opponents ...
    imaginary_rating: int = 1800  # ... rated 1800 ...
    imaginary_points_h: int = 100  # ... both drawn: 2 x 0.5 = 1 point (hundredths)
    cap: int = 2200
    floor: int = 1400  # ratings below this are not published (first or not)
    pool_months: int = 26  # results pooled over consecutive periods of at most 26 months


FIRST_RATING = FirstRatingRules()

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


def event_results(rated_sides: pd.DataFrame, candidates: pd.Index, period: str) -> pd.DataFrame:
    """This period's results of ``candidates`` (unrated players) against rated opponents, one row
    per player and event unit. ``rated_sides`` needs ``event_sha256`` and ``start_date`` columns.
    """
    s = rated_sides
    mask = (
        s["played"].to_numpy(dtype=bool)
        & s["player_rating"].isna().to_numpy()
        & s["opponent_rating"].notna().to_numpy()
        & member(s["player"], candidates)
    )
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


def mark_zero_first_events(current: pd.DataFrame, earlier: pd.DataFrame) -> pd.DataFrame:
    """Disregard a zero score in a player's first event: the earliest event of this period, for a
    player with no earlier result in the pool (``earlier``), when it scored no point."""
    if current.empty:
        return current
    order = current.sort_values(["player_id", "start_date", "event"], kind="stable")
    first = ~order["player_id"].duplicated(keep="first")
    new_player = ~member(order["player_id"], earlier["player_id"])
    zero = order["points_h"].eq(0)
    out = current.copy()
    out.loc[order.index[(first & new_player & zero).to_numpy()], "disregarded"] = True
    return out


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
    current = mark_zero_first_events(current, earlier)
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
    m = n + rules.imaginary_games
    ra_total = opp_sum + rules.imaginary_games * rules.imaginary_rating
    # p in hundredths: 100 x (points + 1) / (n + 2) = (points_h + 100) / (n + 2), .005 up.
    p_h = round_half_up(points_h + rules.imaginary_points_h, m)
    dp = dp_table().dp(np.clip(p_h, 0, 100))
    # Ru = Ra + dp = (ra_total + dp x m) / m, rounded .5 up, then capped.
    ru = round_half_up(ra_total + dp * m, m)
    enough = n >= rules.min_games
    capped = np.minimum(ru, rules.cap)
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
