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

from pipeline.columnar.id_lookup import rows_by_id, take_rows
from pipeline.publish.first_rating import FIRST_RATING, FirstRatingRules, FirstRatings
from pipeline.publish.next_list import STATUS_FIRST, STATUS_IDLE, STATUS_NEW, dropped
from pipeline.writers.format import int_text, units_text

TOP = 20


@dataclass
class PeriodReport:
    changes: pd.DataFrame
    breakdown: pd.DataFrame
    first: pd.DataFrame
    gains: pd.DataFrame
    losses: pd.DataFrame
    summary: pd.DataFrame


def event_breakdown(rated_sides: pd.DataFrame, totals: pd.DataFrame, scale: int) -> pd.DataFrame:
    """One row per (player, event) with rated games, then one TOTAL row per player."""
    # Only the columns needed, then only the rated rows: a filter copies what it is given.
    needed = ["player", "event", "source", "score_h", "pd_units", "dev_units"]
    s = rated_sides[needed][rated_sides["rated"].to_numpy(dtype=bool)]
    columns = [
        "player",
        "name",
        "event",
        "source",
        "games",
        "score",
        "expected",
        "sum_dev",
        "k",
        "k_x_sum_dev",
        "change",
    ]
    if s.empty:
        return pd.DataFrame({c: pd.Series(dtype=str) for c in columns})
    parts = s.assign(
        pd_units=s["pd_units"].to_numpy(dtype=np.int64),
        dev_units=s["dev_units"].to_numpy(dtype=np.int64),
    )
    per_event = (
        parts.groupby(["player", "event", "source"], sort=False)
        .agg(
            games=("score_h", "size"),
            score_h=("score_h", "sum"),
            expected=("pd_units", "sum"),
            dev=("dev_units", "sum"),
        )
        .reset_index()
    )
    t = totals.set_index("id")
    at = rows_by_id(totals["id"], per_event["player"])
    k = take_rows(totals["k"], at).fillna(0).to_numpy(dtype=np.int64)
    per_event["k"] = k
    per_event["kdev"] = k * per_event["dev"].to_numpy(dtype=np.int64)
    per_event["change"] = ""
    played = t[t["games"] > 0]
    total_rows = pd.DataFrame(
        {
            "player": played.index,
            "event": "TOTAL (rounded once)",
            "source": "",
            "games": played["games"].to_numpy(),
            "score_h": played["score_h"].to_numpy(),
            "expected": played["expected_units"].to_numpy(),
            "dev": played["dev_units"].to_numpy(),
            "k": played["k"].fillna(0).to_numpy(dtype=np.int64),
            "kdev": played["change_units"].to_numpy(),
            "change": played["change"].astype(str).array,
        }
    )
    both = pd.concat([per_event.assign(_total=0), total_rows.assign(_total=1)], ignore_index=True)
    # The totals are in list order already: sort by each player's position there. A stable sort,
    # so each player's events keep their order and the TOTAL row comes last.
    position = rows_by_id(totals["id"], both["player"])
    order = np.argsort(position, kind="stable")
    both = both.iloc[order]
    names = take_rows(totals["name"], position[order]).fillna("").array
    return pd.DataFrame(
        {
            "player": both["player"].astype(str).array,
            "name": names,
            "event": both["event"].astype(str).array,
            "source": both["source"].astype(str).array,
            "games": both["games"].astype(str).array,
            "score": units_text(both["score_h"].to_numpy(), 100, 1).array,
            "expected": units_text(both["expected"].to_numpy(), scale, 2).array,
            "sum_dev": units_text(both["dev"].to_numpy(), scale, 2).array,
            "k": both["k"].astype(str).array,
            "k_x_sum_dev": units_text(both["kdev"].to_numpy(), scale, 2).array,
            "change": both["change"].astype(str).array,
        },
        columns=columns,
    )


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
) -> PeriodReport:
    t = totals.set_index("id")
    n = new.set_index("id")
    moved = status.ne(STATUS_IDLE).to_numpy()
    ids = status.index[moved]
    # Each frame's rows of the moved players, looked up once and taken for every column (a
    # reindex per column hashed the whole list each time: 1.9 M ids for FIDE's list).
    at_total = rows_by_id(totals["id"], ids)
    at_new = rows_by_id(new["id"], ids)
    old_rating = take_rows(old["rating"], rows_by_id(old["id"], ids)).astype("Int64")
    changes = pd.DataFrame(
        {
            "id": ids,
            "name": take_rows(new["name"], at_new).array,
            "status": status.to_numpy()[moved],
            "rating": int_text(old_rating).array,
            "k": int_text(take_rows(totals["k"], at_total)).array,
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
    rated_change = t[(t["games"] > 0) & t["rating"].notna()]
    ordered = rated_change.sort_values("change_units", ascending=False, kind="stable")
    pick = ["id", "name", "status", "rating", "games", "change_exact", "change", "new_rating"]
    by_id = changes.set_index("id")
    gains = by_id.loc[ordered.index[ordered["change_units"] > 0][:TOP]].reset_index()[pick]
    losses_idx = ordered.index[::-1][ordered["change_units"].to_numpy()[::-1] < 0][:TOP]
    losses = by_id.loc[losses_idx].reset_index()[pick]

    return PeriodReport(
        changes=changes,
        breakdown=event_breakdown(rated_sides, totals, scale),
        first=_first_table(first, n, rules),
        gains=gains,
        losses=losses,
        summary=_summary(status, t, n, rated_sides, period, new_ids, rules, rules_used),
    )


def _first_table(
    first: FirstRatings, n: pd.DataFrame, rules: FirstRatingRules = FIRST_RATING
) -> pd.DataFrame:
    """Every first-rating calculation of the period, published or not (and why not)."""
    fr = first.ratings
    return pd.DataFrame(
        {
            "id": fr.index.astype(str),
            "name": n["name"].reindex(fr.index).fillna("").array,
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
    t: pd.DataFrame,
    n: pd.DataFrame,
    rated_sides: pd.DataFrame,
    period: str,
    new_ids: pd.Index | None,
    rules: FirstRatingRules = FIRST_RATING,
    rules_used: str = "",
) -> pd.DataFrame:
    """The period in a few counts; each one is a count of rows of the files written (``n`` is
    the new list by id, ``t`` the period totals by id). ``rules_used``: the rule set and why."""
    counts = status.value_counts()
    if new_ids is None:  # not told: the players with the new-player status
        new_ids = status.index[status.eq(STATUS_NEW).to_numpy()]
    new_rows = n.reindex(pd.Index(new_ids).astype(str))
    items = {
        "period": period,
        **({"rules": rules_used} if rules_used else {}),
        "players on the new list": len(n),
        "rated players on the new list": int(n["rating"].notna().sum()),
        "rated players with games": int((t["games"] > 0).sum()),
        "first ratings": int(counts.get(STATUS_FIRST, 0)),
        f"dropped below {rules.floor}": int(dropped(status).sum()),
        "new players (not on the list in force)": len(new_rows),
        "new players still unrated": int(new_rows["rating"].isna().sum()),
        "events (units) rated": rated_sides[["source", "event"]].drop_duplicates().shape[0],
    }
    return pd.DataFrame({"item": list(items), "value": [str(v) for v in items.values()]})
