"""The rating period an event belongs to, from its own dates.

FIDE rates an event in the period in which it ends. Without ``--period`` the period is the month
of the latest end date among the inputs: a TRF's 052 record, else its last game (round) date,
else its start date (042). With ``--period`` the period is as given, and every event or game
dated outside it is a warning (rating it there is allowed: federations re-rate history).
Only when no input carries any date is the current month used, and the reason says so.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from pipeline.file_names import shown_name
from pipeline.model import GamesInput, SidesInput
from pipeline.rules.periods import resolve_period


@dataclass(frozen=True)
class EventDates:
    """What one input says about when it was played."""

    source: str
    end: str | None  # YYYY-MM-DD
    end_from: str  # where the end date comes from, e.g. "TRF 052 end date"
    games: pd.Series  # the game dates given (YYYY-MM-DD), blanks dropped


@dataclass(frozen=True)
class PeriodChoice:
    period: str
    reason: str
    warnings: list[str] = field(default_factory=list)


def _game_dates(item: GamesInput | SidesInput) -> pd.Series:
    frame = item.games if isinstance(item, GamesInput) else item.sides
    if "date" not in frame:
        return pd.Series([], dtype=str)
    return frame["date"].dropna().astype(str).loc[lambda s: s.ne("")]


def event_dates(item: GamesInput | SidesInput) -> EventDates:
    games = _game_dates(item)
    info = item.info if isinstance(item, GamesInput) else None
    if info is not None and info.end:
        return EventDates(item.source, info.end, "052 end date", games)
    if len(games):
        return EventDates(item.source, str(games.max()), "last game date", games)
    if info is not None and info.start:
        return EventDates(item.source, info.start, "042 start date", games)
    return EventDates(item.source, None, "", games)


def _outside(dates: EventDates, period: str) -> str | None:
    """The warning for one input dated outside ``period`` (None when it is not)."""
    month = dates.games.str.slice(0, 7)
    outside = dates.games[month.ne(period).to_numpy()]
    end_outside = dates.end is not None and dates.end[:7] != period
    if not len(outside) and not end_outside:
        return None
    parts = []
    if end_outside:
        parts.append(f"the event ends {dates.end} ({dates.end_from})")
    if len(outside):
        parts.append(
            f"{len(outside):,} of {len(dates.games):,} dated games fall outside it "
            f"({outside.min()} .. {outside.max()})"
        )
    return f"{shown_name(dates.source)}: rated in period {period} but " + " and ".join(parts)


def choose_period(
    inputs: Sequence[GamesInput | SidesInput], given: str | None, today: dt.date | None = None
) -> PeriodChoice:
    """The period and why; warnings for inputs dated outside it."""
    dated = [d for d in map(event_dates, inputs) if d.end is not None]
    if given is not None:
        period = resolve_period(given)
        reason = "given with --period"
    elif dated:
        latest = max(dated, key=lambda d: d.end or "")
        period = (latest.end or "")[:7]
        # The file's name, not its folders: the reason is printed in the published reports.
        reason = f"{shown_name(latest.source)} ends {latest.end} ({latest.end_from})"
    else:
        today = today or dt.date.today()
        period = f"{today.year:04d}-{today.month:02d}"
        reason = "no date in the inputs: the current month (give --period to choose)"
    warnings = [w for w in (_outside(d, period) for d in dated) if w is not None]
    return PeriodChoice(period, reason, warnings)
