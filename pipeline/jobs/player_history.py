"""``fiderate history PLAYER_ID``: a player's ratings over the recorded periods, as a job: a
:class:`HistoryRequest` in, a :class:`PlayerHistory` out, the database only read (never changed
or created)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import RunError
from pipeline.history.database import read_player


@dataclass(frozen=True)
class HistoryRequest:
    player_id: str
    database: Path  # the history database written by ``fiderate period``


@dataclass(frozen=True)
class PlayerHistory:
    player_id: str
    database: Path
    lists: list[dict[str, object]]  # one row per list the player is on, oldest first
    pending: list[dict[str, object]]  # results still waiting for a first rating


def run_history(request: HistoryRequest) -> PlayerHistory:
    rows, pending = read_player(request.database, request.player_id)
    if not rows:
        raise RunError(f"player {request.player_id!r} is on no list in {str(request.database)!r}")
    return PlayerHistory(request.player_id, request.database, rows, pending)


@dataclass(frozen=True)
class OverviewRequest:
    database: Path  # the history database written by ``fiderate period``


@dataclass(frozen=True)
class HistoryOverview:
    database: Path
    lists: list[dict[str, object]]  # every list recorded, newest first
    pending: list[dict[str, object]]  # every result waiting for a first rating, oldest first


def history_overview(request: OverviewRequest) -> HistoryOverview:
    """The lists and the pending first-rating results of a history database (read-only)."""
    from pipeline.history.overview import read_overview

    lists, pending = read_overview(request.database)
    return HistoryOverview(request.database, lists, pending)
