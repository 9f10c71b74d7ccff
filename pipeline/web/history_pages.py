"""The history pages' data: the ``history`` jobs' read-outs of the database ``fiderate period``
writes (opened read-only, as ``fiderate history`` does), and a player's rating over time drawn
as an inline SVG chart on the server (no script library)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.errors import FiderateError, HistoryRefusal, NotInHistory
from pipeline.jobs.player_history import (
    NOT_STORED,
    CalculationRequest,
    HistoryRequest,
    OverviewRequest,
    SearchRequest,
    history_overview,
    run_calculation,
    run_history,
    run_search,
)
from pipeline.site.rating_chart import rating_chart

# The status of a page the database cannot give: the server's history is unavailable, not the
# request wrong.
UNREADABLE = 503


def overview(database: Path) -> dict[str, Any]:
    try:
        found = history_overview(OverviewRequest(database))
    except FiderateError as exc:
        return {"error": str(exc), "lists": [], "pending": [], "status": UNREADABLE}
    return {"error": "", "lists": found.lists, "pending": found.pending}


def _failed(exc: FiderateError, **context: Any) -> dict[str, Any]:
    """A page's context when the job refused: 404 for what the history does not hold, 503 when
    the database cannot be read (damaged, not a history: the server's history is unavailable,
    not the request wrong)."""
    if isinstance(exc, HistoryRefusal):
        status = UNREADABLE
    else:
        status = 404 if isinstance(exc, NotInHistory) else 500
    return {"error": str(exc), "status": status, **context}


def player(database: Path, player_id: str) -> dict[str, Any]:
    if not player_id:
        return {"error": "give a player's id", "player_id": "", "rows": [], "pending": [],
                "status": 400}  # fmt: skip
    try:
        found = run_history(HistoryRequest(player_id, database))
    except FiderateError as exc:
        return _failed(exc, player_id=player_id, rows=[], pending=[])
    rows = found.lists
    return {
        "error": "",
        "player_id": player_id,
        "name": rows[-1]["name"],
        "rows": rows,
        "pending": found.pending,
        "not_stored": NOT_STORED,
        "chart": rating_chart(
            [(str(r["list"]), int(r["rating"])) for r in rows if r["rating"] is not None]  # type: ignore[call-overload]
        ),
    }


def calculation(database: Path, player_id: str, period: str) -> dict[str, Any]:
    """One period's calculation of a player, game by game (``fiderate history --period``)."""
    context: dict[str, Any] = {"player_id": player_id, "period": period, "calc": None}
    if not player_id or not period:
        return {**context, "error": "give a player's id and a period", "status": 404}
    try:
        found = run_calculation(CalculationRequest(player_id, period, database))
    except FiderateError as exc:
        return _failed(exc, **context)
    return {**context, "error": "", "calc": found}


def search(database: Path, query: str) -> dict[str, Any]:
    """Players found by id or by a part of their name."""
    context: dict[str, Any] = {"query": query, "players": [], "matched": 0, "month": None}
    if not query:
        return {**context, "error": ""}
    try:
        found = run_search(SearchRequest(query, database))
    except FiderateError as exc:
        return _failed(exc, **context)
    return {
        **context,
        "error": "",
        "players": found.players,
        "matched": found.matched,
        "month": found.month,
    }
