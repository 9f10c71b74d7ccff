"""The per-period change report: who changed and why, as text tables for CSV and XLSX.

- ``changes``: every player whose list entry moved (rated, first rating, dropped below 1400, new,
  pool), with the old and the new rating.
- ``breakdown``: per player and event, K x sum(S - PD) for that event, then a total row per player
  with the exact period change and the change rounded **once** (never per event).
- ``first``: the first-rating computations (pooled games, points, Ra, p, dp, Ru), published or not.
- gains and losses: the largest changes either way.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.arrays.arrow_text import str_series, text_array
from pipeline.arrays.number_text import int_text, units_text
from pipeline.keys.id_lookup import IdLookup, same_ids, take_rows
from pipeline.lists.breakdown import event_breakdown
from pipeline.lists.first_rating import FIRST_RATING, FirstRatingRules, FirstRatings
from pipeline.lists.next_list import (
    STATUS_FIRST,
    STATUS_IDLE,
    STATUS_NEW,
    STATUS_POOL,
    dropped,
)

TOP = 20
_ASSUMED_TEXTS = pa.array(["", "false", "true"])  # no totals row, not assumed, assumed


@dataclass
class PeriodReport:
    changes: pd.DataFrame
    breakdown: pd.DataFrame
    first: pd.DataFrame
    gains: pd.DataFrame
    losses: pd.DataFrame
    summary: pd.DataFrame
    new_players: pd.DataFrame  # the changes of players new on the list (first ratings, new)
    dropped: pd.DataFrame  # the changes of players who dropped below the floor


def build_report(
    old: pd.DataFrame,
    new: pd.DataFrame,
    status: pd.Series,
    totals: pd.DataFrame,
    rated_sides: pd.DataFrame,
    first: FirstRatings,
    scale: int,
    period: str,
    new_ids: pd.Index | None = None,
    rules: FirstRatingRules = FIRST_RATING,
    rules_used: str = "",
    on_totals: IdLookup | None = None,
) -> PeriodReport:
    """The report's tables. ``status`` is the next list's (indexed by id); in a period run
    ``old``, ``new`` and ``totals`` list the same players in its order, and each is then read
    at the moved players' own rows (no look-up of 1.9 M ids); any other frame is looked up.
    ``on_totals``: the id look-up of ``totals`` when the caller has one
    (``RatedPeriod.totals_ids``)."""
    moved = status.ne(STATUS_IDLE).to_numpy()
    ids = status.index[moved]
    # One look-up of the new list, reused by every table: the totals' when both list the same.
    same = same_ids(totals["id"], new["id"])
    on_new = on_totals if same and on_totals is not None else IdLookup(new["id"])
    at_total = _moved_rows(totals["id"], status, moved)
    at_new = _moved_rows(new["id"], status, moved, on_new)
    old_rating = take_rows(old["rating"], _moved_rows(old["id"], status, moved)).astype("Int64")
    changes = pd.DataFrame(
        {
            "id": ids,
            "name": take_rows(new["name"], at_new).array,
            "status": str_series(text_array(status.array[moved])).array,
            "rating": int_text(old_rating).array,
            "k": int_text(take_rows(totals["k"], at_total)).array,
            "k_assumed": _assumed_text(totals["k_assumed"].to_numpy(dtype=bool), at_total).array,
            "games": take_rows(totals["games"], at_total).astype(str).array,
            "score": units_text(take_rows(totals["score_h"], at_total).to_numpy(), 100, 1).array,
            "change_exact": units_text(
                take_rows(totals["change_units"], at_total).to_numpy(), scale, 2
            ).array,
            "change": take_rows(totals["change"], at_total).astype(str).array,
            "new_rating": int_text(take_rows(totals["new_rating"], at_total)).array,
            "published_rating": int_text(take_rows(new["rating"], at_new)).array,
            "next_k": int_text(take_rows(new["k"], at_new)).array,
        }
    )
    changes = _unrated_rows(changes, first)
    gains, losses = _largest(totals, changes, at_total)
    if on_totals is None:
        on_totals = on_new if same else IdLookup(totals["id"])
    return PeriodReport(
        changes=changes,
        breakdown=event_breakdown(rated_sides, totals, scale, on_totals),
        first=_first_table(first, new, on_new, rules),
        gains=gains,
        losses=losses,
        summary=_summary(
            status, totals, new, on_new, rated_sides, period, new_ids, rules, rules_used
        ),
        new_players=changes[changes["status"].isin([STATUS_FIRST, STATUS_NEW])],
        dropped=changes[dropped(changes["status"]).to_numpy()],
    )


def _unrated_rows(changes: pd.DataFrame, first: FirstRatings) -> pd.DataFrame:
    """The rows of players who were unrated in the period (a first rating, results kept for
    one): no change, as they had no rating to change (blank, the status says what happened, in
    the words every face uses: "first rating"), and the games and points their first rating
    pools (earlier periods' in the window too), not the 0 rated games of an unrated player."""
    unrated = changes["status"].isin([STATUS_FIRST, STATUS_POOL]).to_numpy()
    if not unrated.any():
        return changes
    fr = first.ratings
    at = pd.Index(fr.index.astype(str)).get_indexer(changes["id"].astype(str))
    pooled = unrated & (at >= 0)
    rows = at[pooled]
    changes = changes.copy()
    for column in ("games", "score"):
        values = changes[column].to_numpy(dtype=object)
        if column == "games":
            values[pooled] = fr["games"].to_numpy()[rows].astype(str)
        else:
            values[pooled] = units_text(fr["points_h"].to_numpy()[rows], 100, 1).to_numpy()
        changes[column] = pd.array(values, dtype=changes[column].dtype)
    for column in ("change_exact", "change"):
        changes[column] = changes[column].mask(unrated, "")
    return changes


def _assumed_text(assumed: np.ndarray, rows: np.ndarray) -> pd.Series:
    """``k_assumed`` in rating_list.csv's words (true/false) for the totals rows ``rows``; blank
    where a player has no totals row (-1), as the K is."""
    code = np.zeros(len(rows), dtype=np.int8)
    found = rows >= 0
    code[found] = 1 + assumed[rows[found]]
    return str_series(_ASSUMED_TEXTS.take(code))


def _moved_rows(
    frame_ids: pd.Series, status: pd.Series, moved: np.ndarray, lookup: IdLookup | None = None
) -> np.ndarray:
    """The moved players' rows in a frame: their own rows when the frame lists the statuses'
    players in the same order, else looked up (-1 where absent)."""
    if same_ids(frame_ids, status.index):
        return np.flatnonzero(moved)
    lookup = lookup if lookup is not None else IdLookup(frame_ids)
    return lookup.positions(pd.Series(status.index[moved]))


def _largest(
    totals: pd.DataFrame, changes: pd.DataFrame, at_total: np.ndarray
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The TOP largest gains and losses of the rated players who played, largest first (ties
    in list order, losses from the end of the list), as rows of ``changes``."""
    candidates = np.flatnonzero(
        (totals["games"].to_numpy(dtype=np.int64) > 0) & totals["rating"].notna().to_numpy()
    )
    units = totals["change_units"].to_numpy(dtype=np.int64)[candidates]
    order = np.argsort(-units, kind="stable")  # as a stable descending sort_values
    ranked, units = candidates[order], units[order]
    gains = ranked[units > 0][:TOP]
    losses = ranked[::-1][units[::-1] < 0][:TOP]
    # Each totals row's row in changes (every rated player who played has moved).
    row_of = np.full(len(totals), -1, dtype=np.int64)
    found = at_total >= 0
    row_of[at_total[found]] = np.flatnonzero(found)
    pick = ["id", "name", "status", "rating", "games", "change_exact", "change", "new_rating"]
    gains, losses = row_of[gains], row_of[losses]
    return (
        changes.iloc[gains[gains >= 0]][pick].reset_index(drop=True),
        changes.iloc[losses[losses >= 0]][pick].reset_index(drop=True),
    )


def _first_table(
    first: FirstRatings, new: pd.DataFrame, on_new: IdLookup, rules: FirstRatingRules
) -> pd.DataFrame:
    """Every first-rating calculation of the period, published or not (and why not)."""
    fr = first.ratings
    at = on_new.positions(pd.Series(fr.index))
    return pd.DataFrame(
        {
            "id": fr.index.astype(str),
            "name": take_rows(new["name"], at).fillna("").array,
            "pooled_games": fr["games"].astype(str).array,
            "points": units_text(fr["points_h"].to_numpy(), 100, 1).array,
            "opponents_sum": fr["opp_sum"].astype(str).array,
            "ra": units_text(fr["ra_h"].to_numpy(), 100, 2).array,
            "p": units_text(fr["p_h"].to_numpy(), 100, 2).array,
            "dp": fr["dp"].astype(str).array,
            "ru": fr["ru"].astype(str).array,
            "rating": fr["rating"].astype(str).array,
            "published": np.where(
                fr["published"].to_numpy(dtype=bool),
                "yes",
                np.where(
                    fr["enough_games"].to_numpy(dtype=bool),
                    f"no: below {rules.floor}",
                    f"no: fewer than {rules.min_games} games",
                ),
            ),
        }
    )


def _summary(
    status: pd.Series,
    totals: pd.DataFrame,
    new: pd.DataFrame,
    on_new: IdLookup,
    rated_sides: pd.DataFrame,
    period: str,
    new_ids: pd.Index | None,
    rules: FirstRatingRules = FIRST_RATING,
    rules_used: str = "",
) -> pd.DataFrame:
    """The period in a few counts; each one is a count of rows of the files written (``n`` is
    the new list, ``on_new`` its id look-up). ``rules_used``: the rule set and why."""
    counts = status.value_counts()
    if new_ids is None:  # not told: the players with the new-player status
        new_ids = status.index[status.eq(STATUS_NEW).to_numpy()]
    at = on_new.positions(pd.Series(pd.Index(new_ids).astype(str)))
    unrated = new["rating"].isna().to_numpy()
    items = {
        "period": period,
        **({"rules": rules_used} if rules_used else {}),
        "players on the new list": len(new),
        "rated players on the new list": int((~unrated).sum()),
        "rated players with games": int((totals["games"] > 0).sum()),
        "first ratings": int(counts.get(STATUS_FIRST, 0)),
        f"dropped below {rules.floor}": int(dropped(status).sum()),
        "new players (not on the list in force)": len(at),
        "new players still unrated": int(((at < 0) | unrated[np.maximum(at, 0)]).sum()),
        "events (units) rated": rated_sides[["source", "event"]].drop_duplicates().shape[0],
    }
    return pd.DataFrame({"item": list(items), "value": [str(v) for v in items.values()]})
