"""Which players a ``rate`` run's new list holds: by default only the events' players (anyone
with a side in the games, byes included); ``--all-players`` keeps every player of the list in
force as well (a period run publishes the whole list)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.keys.frame_lookup import member
from pipeline.model import PlayerList


def event_players_only(totals: pd.DataFrame, players: pd.Series) -> pd.DataFrame:
    """The rows of ``totals`` whose id is among ``players``, in their order."""
    keep = member(totals["id"], pd.Index(players.astype(str).unique()))
    if keep.all():
        return totals
    return totals[keep].reset_index(drop=True)


def listed_event_players(players: PlayerList, ids: pd.Series) -> PlayerList:
    """The list in force cut to the rows of ``ids`` (the events' players), in list order.

    ``rate`` keeps only the events' players, and every per-player figure (K, the 700 rule, the
    totals) depends on the player's own row alone, so the other rows (most of a 1.9 M-player
    list) need none: totals of the cut list are the kept rows of the whole list's totals. A
    list's ids are unique (schema ``Players``), so each id finds at most one row.
    """
    rows = players.positions(ids)
    rows = np.sort(rows[rows >= 0])
    if len(rows) == len(players.players):
        return players
    return PlayerList(players.source, players.players.take(rows).reset_index(drop=True))
