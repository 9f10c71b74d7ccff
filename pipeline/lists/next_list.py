"""The next rating list: every player of the list in force (and every new player), with the
rating after the period, the floor applied, first ratings added, and K recomputed for the next
period.

Decisions (RULES.md is silent; also in docs/period-runs.md):
- ``games`` is the number of rated games the player has completed (what K's "fewer than 30" rule
  counts): the previous count plus this period's rated games. A blank count stays blank (the core
  reader treats blank as established). A first rating starts the count at the pooled games it was
  computed from.
- ``period_games`` is the rated games of this period (FIDE's "Gms"); for a first rating, the
  games against rated opponents this period that entered the pool.
- ``ever_2400`` is true once a published rating, before or now, is at least 2400, or the list in
  force printed K 10 for the player (proof of an earlier 2400: K 10 is for good).
- K for the next period is the precedence of RULES.md section 4 (``pipeline.grouper.base_k``, the
  same code the grouper uses) with the new rating, the new games count, the ever-2400 flag and the
  next period's year; it is printed on the list, so the next run uses it as published.
- ``i`` (inactive) once 12 periods in a row had no rated game (from ``last_played``; a list that
  has no ``last_played`` keeps an ``i`` it already shows until the player plays). ``w`` for a
  woman, as FIDE prints it (``wi`` both).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.arrays.arrow_text import str_series
from pipeline.grouper import base_k
from pipeline.keys.frame_lookup import member, positions
from pipeline.keys.id_lookup import same_ids
from pipeline.lists.first_rating import FIRST_RATING, FirstRatingRules, FirstRatings
from pipeline.rules.ever_2400 import published_k_proves_2400
from pipeline.rules.months import add_months, month_index, month_indexes
from pipeline.rules.sets import RuleSet

STATUS_RATED = "rated"
STATUS_FIRST = "first rating"
_DROPPED_AFTER = ": unrated on the next list"
STATUS_POOL = "unrated: results kept for a first rating"
STATUS_NEW = "new player"
STATUS_IDLE = ""

INACTIVE_AFTER_MONTHS = 12
WOMAN = {"w", "f"}


def next_list(
    base: pd.DataFrame,
    totals: pd.DataFrame,
    first: FirstRatings,
    period: str,
    rules: RuleSet,
    new_ids: pd.Index,
    first_rules: FirstRatingRules = FIRST_RATING,
) -> tuple[pd.DataFrame, pd.Series]:
    """(the next list, one status per player). ``base`` is the list in force plus new players;
    ``totals`` is the period's totals (``grouper.totals.finish_totals``) over the same ids."""
    info = _by_id_in_order(base, totals["id"])
    old = info["rating"].astype("Int64")
    rated_before = old.notna().to_numpy()
    games_period = totals["games"].to_numpy(dtype=np.int64)

    # Rated players: the grouper's new rating; the floor makes a low one unrated.
    after = totals["new_rating"].astype("Int64").to_numpy(dtype=np.int64, na_value=0)
    dropped = rated_before & (after < first_rules.floor)
    rating = np.where(rated_before & ~dropped, after, 0)

    # Unrated players: a published first rating. The pool's few players are found on the list
    # once (no reindex of the pool by the whole list's ids per column).
    fr = first.ratings
    in_pool = positions(pd.Series(info.index), pd.Series(fr.index))
    pooled = in_pool >= 0
    got_first = _at(fr["published"].to_numpy(dtype=bool), in_pool, False) & ~rated_before
    rating = np.where(got_first, _at(fr["rating"].to_numpy(dtype=np.int64), in_pool, 0), rating)
    current_games = _at(_pooled_games(first, fr.index), in_pool, 0)
    period_games = np.where(got_first, current_games, np.where(rated_before, games_period, 0))

    previous_games = info["games"].astype("Int64")
    added = np.where(got_first, _at(fr["games"].to_numpy(dtype=np.int64), in_pool, 0), games_period)
    games = previous_games.fillna(0) + added
    # Blank stays blank (an established player of an outside list) unless a first rating starts it.
    games = games.where(previous_games.notna() | got_first, pd.NA)

    published = rating > 0
    ever = (
        info["ever_2400"].fillna(False).to_numpy(dtype=bool)
        | (old.fillna(0).to_numpy(dtype=np.int64) >= rules.k.ever_threshold)
        | (published & (rating >= rules.k.ever_threshold))
        | (rated_before & published_k_proves_2400(_published_k(info), rules.k))
    )

    flags, last = _flags(info, published, period_games > 0, period)
    k_next = _next_k(info, rating, published, games, ever, rules, add_months(period, 1))

    ids = info.index.astype(str)
    rows = pd.DataFrame(
        {
            "id": ids,
            "name": info["name"].fillna("").astype(str).array,
            "federation": info["federation"].fillna("").astype(str).array,
            "sex": info["sex"].fillna("").astype(str).array,
            "title": info["title"].fillna("").astype(str).array,
            "birth_year": info["birth_year"].astype("Int64").to_numpy(),
            "rating": pd.arrays.IntegerArray(rating, ~published),
            "period_games": period_games,
            "games": games.astype("Int64").to_numpy(),
            "k": k_next.to_numpy(),
            "ever_2400": ever,
            "flags": flags.array,
            "last_played": last.to_numpy(),
        }
    )
    status = _status(
        [
            got_first,
            dropped,
            rated_before & (games_period > 0),
            ~rated_before & pooled,
            member(info.index, new_ids),
        ],
        [STATUS_FIRST, status_dropped(first_rules.floor), STATUS_RATED, STATUS_POOL, STATUS_NEW],
    )
    return rows, pd.Series(status, index=ids)


def _at(values: np.ndarray, rows: np.ndarray, fill: int | bool) -> np.ndarray:
    """``values[rows]``, ``fill`` where a row is -1 (absent)."""
    out = np.full(len(rows), fill, dtype=values.dtype)
    found = rows >= 0
    out[found] = values[rows[found]]
    return out


def _status(conditions: list[np.ndarray], labels: list[str]) -> pd.Categorical:
    """The first label whose condition holds, else ``STATUS_IDLE``: an int8 code per player
    into a handful of labels (no text per player for the whole list)."""
    codes = np.select(conditions, [np.int8(i + 1) for i in range(len(labels))], np.int8(0))
    return pd.Categorical.from_codes(codes.astype(np.int8), categories=[STATUS_IDLE, *labels])


def status_dropped(floor: int) -> str:
    """The status of a rated player whose new rating is below the era's floor."""
    return f"below {floor}{_DROPPED_AFTER}"


def dropped(status: pd.Series) -> pd.Series:
    """Which statuses say the player dropped below the floor (whatever the era's floor)."""
    if isinstance(status.dtype, pd.CategoricalDtype):  # tested on the few labels, then taken
        labels = pd.Series(status.cat.categories.astype(str))
        hit = np.append(dropped(labels).to_numpy(dtype=bool), False)  # code -1 (missing): no
        return pd.Series(hit[status.cat.codes.to_numpy()], index=status.index)
    return status.str.startswith("below ") & status.str.endswith(_DROPPED_AFTER)


def _by_id_in_order(base: pd.DataFrame, ids: pd.Series) -> pd.DataFrame:
    """``base`` indexed by id, in the order of ``ids``. A period run's totals cover the base
    list in its own order: then no reindex (a copy of every column and a hash of 1.9 M ids for
    FIDE's list) is needed, the result being the same frame."""
    by_id = base.set_index("id")
    if same_ids(base["id"], ids):
        return by_id
    return by_id.reindex(ids)


def _published_k(info: pd.DataFrame) -> pd.Series:
    """The K the list in force prints (blank when the list has no K column)."""
    return info["k"] if "k" in info else pd.Series(pd.NA, index=info.index, dtype="Int64")


def _flags(
    info: pd.DataFrame, published: np.ndarray, played: np.ndarray, period: str
) -> tuple[pd.Series, pd.Series]:
    """(the list's flags: w for women, i for inactive; the month each player last played).
    Inactive: a published rating and no game for INACTIVE_AFTER_MONTHS months; when the month
    is not known, the list's old ``i`` flag stays until the player plays."""
    last = info["last_played"].fillna("").astype(str)
    last = last.where(~played, period)
    months_idle = month_index(period) - month_indexes(last)
    known = last.ne("").to_numpy()
    old_flag_i = info["flags"].fillna("").astype(str).str.contains("i").to_numpy()
    inactive = published & np.where(
        known, months_idle >= INACTIVE_AFTER_MONTHS, old_flag_i & ~played
    )
    woman = info["sex"].fillna("").astype(str).str.lower().isin(WOMAN).to_numpy()
    # One of four texts per player, taken by code (no numpy unicode array of the whole list).
    code = woman.astype(np.int8) + 2 * inactive.astype(np.int8)
    return str_series(pa.array(["", "w", "i", "wi"]).take(code)), last


def _next_k(
    info: pd.DataFrame,
    rating: np.ndarray,
    published: np.ndarray,
    games: pd.Series,
    ever: np.ndarray,
    rules: RuleSet,
    next_period: str,
) -> pd.Series:
    """The K each player has on the next list (the precedence of RULES.md section 4)."""
    k_frame = pd.DataFrame(
        {
            "rating": pd.arrays.IntegerArray(np.where(published, rating, 0), ~published),
            "k": pd.arrays.IntegerArray(
                np.zeros(len(rating), np.int64), np.ones(len(rating), bool)
            ),
            "birth_year": info["birth_year"].astype("Int64").to_numpy(),
            "games": games.astype("Int64").to_numpy(),
            "ever_2400": ever,
        }
    )
    k_next, _ = base_k(k_frame, rules.k, int(next_period[:4]))
    return k_next


def _pooled_games(first: FirstRatings, ids: pd.Index) -> np.ndarray:
    """This period's games in each player's first-rating pool (disregarded events left out),
    for ``ids`` (the pool's players)."""
    return (
        first.current[~first.current["disregarded"]]
        .groupby("player_id")["games"]
        .sum()
        .reindex(ids)
        .fillna(0)
        .to_numpy(dtype=np.int64)
    )
