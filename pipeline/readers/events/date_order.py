"""An event's dates must be in order (``date-order``): it starts no later than it ends, and no
round is played before the start or after the end. One rule for ``validate``/``rate`` (the dates
a TRF declares: 042, 052, 132, and its games' dates) and ``convert`` (the same, with the
``--start``/``--end`` given), so a TRF that ``convert`` refuses to write ``validate`` refuses to
pass.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from pipeline.errors import Code, Problem
from pipeline.model import GamesInput


def date_order_problems(
    source: str,
    start: str | None,
    end: str | None,
    round_dates: Iterable[str],
    *,
    start_from: str = "042 start date",
    end_from: str = "052 end date",
) -> list[Problem]:
    """What is out of order among ``start``, ``end`` and the rounds' dates (YYYY-MM-DD, which
    compare as text); ``start_from``/``end_from`` say where each came from."""
    dates = sorted({d for d in round_dates if d})
    problems = []

    def out_of_order(column: str, value: str, message: str) -> None:
        fix = (
            f"correct the {column}: the event's first day, on or before its first round"
            if column == start_from
            else f"correct the {column}: the event's last day, on or after its last round"
        )
        problems.append(
            Problem(Code.DATE_ORDER, message, file=source, column=column, value=value, fix=fix)
        )

    if start and end and end < start:
        out_of_order(end_from, end, f"the event ends ({end}) before it starts ({start})")
    if end and dates and dates[-1] > end:
        late = [d for d in dates if d > end]
        out_of_order(
            end_from,
            end,
            f"the event ends ({end}) before {len(late)} of its round dates "
            f"({late[0]} .. {late[-1]})",
        )
    if start and dates and dates[0] < start:
        early = [d for d in dates if d < start]
        out_of_order(
            start_from,
            start,
            f"the event starts ({start}) after {len(early)} of its round dates "
            f"({early[0]} .. {early[-1]})",
        )
    return problems


def played_dates(item: GamesInput) -> list[str]:
    """The distinct dates the event says it was played on: its round dates (TRF 132) and its
    games' dates."""
    games = item.games["date"] if "date" in item.games.columns else pd.Series([], dtype=str)
    played = {str(d) for d in games.dropna().unique() if str(d)}
    if item.info is not None:
        played.update(d for d in item.info.round_dates.values() if d)
    return sorted(played)


def event_date_problems(item: GamesInput) -> list[Problem]:
    """The ``date-order`` problems of an event file that declares a start or an end (a TRF)."""
    info = item.info
    if info is None or not (info.start or info.end):
        return []
    return date_order_problems(item.source, info.start, info.end, played_dates(item))
