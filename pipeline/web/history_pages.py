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
    history_overview,
    run_calculation,
    run_history,
)
from pipeline.rules.rating_kinds import KINDS
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


def failed(exc: FiderateError, **context: Any) -> dict[str, Any]:
    """A page's context when the job refused: 404 for what the history does not hold, 503 when
    the database cannot be read (damaged, not a history: the server's history is unavailable,
    not the request wrong)."""
    if isinstance(exc, HistoryRefusal):
        status = UNREADABLE
    else:
        status = 404 if isinstance(exc, NotInHistory) else 500
    return {"error": str(exc), "status": status, **context}


def _kind_asked(kind: str) -> tuple[str | None, str]:
    """(the kind of list asked for by ``?kind=``, None for every kind; an error when it is
    none of the three)."""
    if not kind:
        return None, ""
    if kind not in KINDS:
        return None, f"no kind of list {kind!r}: choose {', '.join(KINDS)}"
    return kind, ""


def player(database: Path, player_id: str, kind: str = "") -> dict[str, Any]:
    """A player's lists, a table and a chart per kind of list (``?kind=``: that kind only)."""
    asked, wrong = _kind_asked(kind)
    context: dict[str, Any] = {"player_id": player_id, "kind": asked, "all_kinds": KINDS,
                               "kinds": [], "rows": [], "pending": []}  # fmt: skip
    if not player_id or wrong:
        return {**context, "error": wrong or "give a player's id", "status": 400}
    try:
        found = run_history(HistoryRequest(player_id, database, asked))
    except FiderateError as exc:
        return failed(exc, **context)
    rows = found.lists
    return {
        **context,
        "error": "",
        "name": rows[-1]["name"],
        "rows": rows,
        "kinds": [_kind_table(k, [r for r in rows if r["rating_kind"] == k]) for k in found.kinds],
        "pending": found.pending,
        "not_stored": NOT_STORED,
    }


def _kind_table(kind: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One kind's rows and chart; its table's id: ``periods`` for standard (the page of a
    standard history keeps its id), ``periods-rapid`` and ``periods-blitz`` beside it."""
    return {
        "kind": kind,
        "table_id": "periods" if kind == KINDS[0] else f"periods-{kind}",
        "rows": rows,
        "chart": rating_chart(
            [(str(r["list"]), int(r["rating"])) for r in rows if r["rating"] is not None]
        ),
    }


def calculation(database: Path, player_id: str, period: str, kind: str = "") -> dict[str, Any]:
    """One period's calculation of a player, game by game (``fiderate history --period``), of
    the kind of list asked (``?kind=``; default: the kind that rated the player then)."""
    asked, wrong = _kind_asked(kind)
    context: dict[str, Any] = {"player_id": player_id, "period": period, "calc": None}
    if wrong:
        return {**context, "error": wrong, "status": 400}
    if not player_id or not period:
        return {**context, "error": "give a player's id and a period", "status": 404}
    try:
        found = run_calculation(CalculationRequest(player_id, period, database, asked))
    except FiderateError as exc:
        return failed(exc, **context)
    return {**context, "error": "", "calc": found}


def search(query: str, found: Any = None, kinds: tuple[str, ...] = ()) -> dict[str, Any]:
    """The history's search page: ``found`` (the players found, how many matched) by the
    rating site's search (pipeline/site/name_search.py: every player the history has a page
    for, by an id's beginning or a name's word, accents and case aside), answered by the server
    from the index it keeps (pipeline/web/app.py); None when no search was made."""
    context: dict[str, Any] = {"query": query, "players": [], "matched": 0, "kinds": list(kinds),
                               "searched": found is not None}  # fmt: skip
    if found is None:
        return {**context, "error": ""}
    from pipeline.site.pages import search_players

    rows, matched = found
    return {**context, "error": "", "players": search_players(rows, kinds), "matched": matched}
