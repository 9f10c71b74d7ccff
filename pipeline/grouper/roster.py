"""Which players a ``rate`` run's new list holds: by default only the events' players (anyone
with a side in the games, byes included); ``--all-players`` keeps every player of the list in
force as well (a period run publishes the whole list)."""

from __future__ import annotations

import pandas as pd

from pipeline.columnar.lookup import member


def event_players_only(totals: pd.DataFrame, players: pd.Series) -> pd.DataFrame:
    """The rows of ``totals`` whose id is among ``players``, in their order."""
    keep = member(totals["id"], pd.Index(players.astype(str).unique()))
    if keep.all():
        return totals
    return totals[keep].reset_index(drop=True)
