"""The plain facts of a period run that the history stores: the event files read (with their
hashes), each event unit, what is kept of a unit once rated, and the earlier lists given.

Plain data only: the period job builds them (:mod:`pipeline.jobs.period_events`,
:mod:`pipeline.jobs.period_earlier_lists`); the store and its checks read them. Here, below
both, so the storage never imports the orchestration.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.model import GamesInput, PlayerList, SidesInput


@dataclass
class EventFile:
    path: Path
    sha256: str


@dataclass
class EventUnit:
    """One event of one file, as rated: its data, when it started, which list rates it."""

    file: EventFile
    name: str
    data: GamesInput | SidesInput
    start_date: str  # YYYY-MM-DD
    dated: bool  # False: no date anywhere, taken as the first day of the period

    @property
    def start_month(self) -> str:
        return self.start_date[:7]

    @property
    def games(self) -> int:
        frame = self.data.games if isinstance(self.data, GamesInput) else self.data.sides
        return len(frame)


@dataclass(frozen=True)
class UnitFacts:
    """What a run keeps of an event unit once the period is rated (the units' games, a full
    copy of every event file, 1 M games in a FIDE month, are dropped then): what the first
    ratings, the notes and the history need."""

    file: EventFile
    name: str
    source: str
    start_date: str
    dated: bool
    games: int

    @classmethod
    def of(cls, unit: EventUnit) -> UnitFacts:
        source = str(unit.data.source)
        return cls(unit.file, unit.name, source, unit.start_date, unit.dated, unit.games)


@dataclass(frozen=True)
class EarlierList:
    """``--earlier-list YYYY-MM=PATH`` as read: the list in force in that month."""

    month: str
    path: Path
    sha256: str
    players: PlayerList
