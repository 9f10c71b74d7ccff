"""The history pages' data: the ``history`` jobs' read-outs of the database ``fiderate period``
writes (opened read-only, as ``fiderate history`` does), and a player's rating over time drawn
as an inline SVG chart on the server (no script library)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

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
from pipeline.rules.rating_kinds import KINDS

# The chart's own units: drawn 1:1 at about 400 px, so at 390 px (a phone) its 13-unit text is
# 12 px on screen, and at most LABELS labels fit side by side (style.css: svg.chart).
WIDTH, HEIGHT, PAD = 400, 220, 36
LABELS = 5  # a long history labels every few lists, so the labels never overlap
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
        return _failed(exc, **context)
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
        # The kinds of list the matches are on: a rating column each when there are several.
        "kinds": [k for k in KINDS if any(k in p["ratings"] for p in found.players)],  # type: ignore[operator]
        "matched": found.matched,
        "month": found.month,
    }


def rating_chart(points: list[tuple[str, int]]) -> Markup:
    """An SVG line chart of (list month, rating), one dot per list, labelled; empty markup when
    there is nothing to draw. Whole-pixel coordinates: integers only."""
    if not points:
        return Markup("")
    low = min(r for _, r in points)
    high = max(r for _, r in points)
    span = max(high - low, 20)
    low -= span // 10
    high = low + span + span // 5
    n = len(points)
    step = (WIDTH - 2 * PAD) // max(n - 1, 1)

    def x(i: int) -> int:
        return PAD + i * step if n > 1 else WIDTH // 2

    def y(r: int) -> int:
        return HEIGHT - PAD - (r - low) * (HEIGHT - 2 * PAD) // (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="rating over time, {escape(points[0][0])} to {escape(points[-1][0])}">',
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD // 2}" y2="{HEIGHT - PAD}" '
        'class="axis"/>',
        f'<line x1="{PAD}" y1="{PAD // 2}" x2="{PAD}" y2="{HEIGHT - PAD}" class="axis"/>',
    ]  # each dot carries its rating: no scale numbers to read off
    line = " ".join(f"{x(i)},{y(r)}" for i, (_, r) in enumerate(points))
    parts.append(f'<polyline points="{line}" class="line"/>')
    every = -(-n // LABELS)  # at most LABELS labelled dots, the last one always
    for i, (month, rating) in enumerate(points):
        parts.append(f'<circle cx="{x(i)}" cy="{y(rating)}" r="4" class="dot"/>')
        last = i == n - 1
        if not last and (i % every or n - 1 - i < every):  # never crowding the last label
            continue
        parts.append(f'<text x="{x(i)}" y="{y(rating) - 10}" text-anchor="middle">{rating}</text>')
        parts.append(
            f'<text x="{x(i)}" y="{HEIGHT - PAD + 18}" text-anchor="middle">{escape(month)}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
