"""The standings of a rated period: the order and ranks the reports show, each player's points
over every game and FIDE performance, and the breakdown's order of the game sides.

A stage, run before any report is written (``pipeline.jobs.rate.outputs``): the writers only
format what :class:`pipeline.model.Standings` holds (``pipeline.writers.text.report_text``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.grouper.performance import event_performance
from pipeline.keys.id_lookup import natural_order
from pipeline.model import RatedPeriod, Standings


def standings(result: RatedPeriod) -> Standings:
    """In the event file's own final ranks when it gives them (a TRF rated alone; players it
    ranks none come after, in the order below), else by points (every game, forfeits included),
    then rating, then id. ``result.sides`` must hold its text columns (the player's at least)."""
    t = result.totals
    points_h, rp = event_performance(result.sides, t)
    games = t["games"].to_numpy(dtype=np.int64)
    rating = t["rating"].fillna(0).to_numpy(dtype=np.int64)
    id_rank = np.empty(len(t), dtype=np.int64)
    id_rank[natural_order(t["id"])] = np.arange(len(t))
    if result.event_ranks is None:
        order = np.lexsort((id_rank, -rating, -points_h))
        ranks = np.arange(1, len(t) + 1)
    else:
        file_rank = result.event_ranks.reindex(t["id"].astype(str)).astype("Int64")
        unranked = file_rank.isna().to_numpy()
        rank_key = file_rank.fillna(0).to_numpy(dtype=np.int64)
        order = np.lexsort((id_rank, -rating, -points_h, rank_key, unranked))
        # The file's rank where it has one; players it does not rank follow, numbered on.
        shown = rank_key[order]
        after = int(shown[~unranked[order]].max(initial=0))
        ranks = np.where(unranked[order], after + np.cumsum(unranked[order]), shown)
    performance = pd.Series(pd.array(rp, dtype="Int64")).where(games > 0)
    return Standings(
        order=order,
        ranks=ranks,
        points_h=points_h,
        performance=performance,
        side_order=natural_order(result.sides["player"]),
    )
