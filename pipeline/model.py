"""Plain containers passed between the pipeline stages (never attributes hung on DataFrames)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from pipeline.keys.game_codes import GameCodes
    from pipeline.keys.id_lookup import IdLookup
    from pipeline.rules.sets import RuleSet


@dataclass(frozen=True, repr=False)
class InputFile:
    """An input held in memory instead of on disk (a file uploaded to ``fiderate serve``): read
    by the same readers with the same checks and limits as a path, and named in every problem
    by ``name`` (the upload's safe name: never a path), which also gives its format by its
    extension, as a path's does. ``str()`` of it is that name, as ``str()`` of a path is the
    path: problems, sources and reports name an input by ``str(input)``."""

    name: str
    data: bytes

    @property
    def suffix(self) -> str:
        return PurePosixPath(self.name).suffix

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:  # never the bytes
        return f"InputFile({self.name!r}, {len(self.data):,} bytes)"


@dataclass(frozen=True)
class ZipOutput:
    """Where a run's files go when they go to no folder: one zip in memory, the same files
    with the same names and bytes a folder would get (``WriteReport.archive``): the download
    of a web upload."""


@dataclass
class EventInfo:
    """What an event file says about the event itself (TRF 012/042/052/XXR/132 records)."""

    name: str = ""
    start: str | None = None  # YYYY-MM-DD
    end: str | None = None
    rounds: int | None = None  # rounds declared (XXR / 142) or seen
    round_dates: dict[int, str] = field(default_factory=dict)
    # Records we do not interpret (XX*/BB* extensions, 013, 2xx/3xx team records), kept as read.
    kept: list[tuple[int, str]] = field(default_factory=list)
    # Every line of a TRF as read (without its line ending): a TRF-to-TRF conversion keeps them.
    records: list[str] = field(default_factory=list)
    # The line ending the TRF was written with (its first), kept by a TRF-to-TRF conversion.
    newline: str = "\r\n"
    # What the file says that contradicts itself or that is not used, read as other tools read
    # it (results past the XXR round count; a 042/052 date --period makes unneeded): each a
    # sentence naming the file, printed by ``fiderate validate`` and ``rate``.
    warnings: list[str] = field(default_factory=list)


@dataclass
class GamesInput:
    """A games file: one row per game (schema ``schemas.games.Games``).

    Event formats (TRF, crosstables) bring more: ``players`` (the file's own player list, schema
    ``schemas.players.Players`` plus a ``sno`` column), ``byes`` (one row per bye or absence, in
    the layout of ``schemas.sides.Sides`` plus a ``code`` column) and ``info``.
    """

    source: str
    games: pd.DataFrame
    players: PlayerList | None = None
    byes: pd.DataFrame | None = None
    info: EventInfo | None = None
    # The games' integer codes (built on first use, for that very frame): the checks, the list
    # look-up and the list match share one encoding of the ids instead of hashing them each.
    _codes: tuple[pd.DataFrame, GameCodes] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def keep_codes(self, codes: GameCodes) -> None:
        """Take ``codes`` as those of ``games`` (built from the same cells elsewhere)."""
        self._codes = (self.games, codes)

    def codes(self) -> GameCodes:
        """Event, round and player codes of ``games`` (``pipeline.keys.game_codes``)."""
        from pipeline.keys.game_codes import encode_games

        if self._codes is None or self._codes[0] is not self.games:
            self._codes = (self.games, encode_games(self.games))
        return self._codes[1]


@dataclass
class SidesInput:
    """An individual file: one row per game of the rated player (schema ``schemas.sides.Sides``)."""

    source: str
    sides: pd.DataFrame


def _lookup_of(
    frame: pd.DataFrame, cached: tuple[pd.DataFrame, IdLookup] | None
) -> tuple[pd.DataFrame, IdLookup]:
    """(``frame``, the id look-up of its "id" column): ``cached`` when it was built for that very
    frame, else built now (a frame put in its place gets a look-up of its own)."""
    from pipeline.keys.id_lookup import IdLookup

    if cached is None or cached[0] is not frame:
        return frame, IdLookup(frame["id"])
    return cached


@dataclass
class PlayerList:
    """The rating list in force (schema ``schemas.players.Players``), indexed by nothing."""

    source: str
    players: pd.DataFrame
    # The id look-up of ``players`` (built on first use, for that very frame): every event of a
    # period asks the same list, and building the look-up is the costly part.
    _lookup: tuple[pd.DataFrame, IdLookup] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def lookup(self) -> IdLookup:
        """The list's id look-up, built on first use for this very frame."""
        self._lookup = _lookup_of(self.players, self._lookup)
        return self._lookup[1]

    def positions(self, ids: pd.Series) -> np.ndarray:
        """Each id's row on the list, -1 when it is not there."""
        return self.lookup().positions(ids)


@dataclass(frozen=True)
class RateOptions:
    """Everything that changes how a period is rated, as chosen on the command line."""

    rules: str = "standard"  # a family (by the period's date) or an era's name
    method: str = "fide"  # "fide" (table 8.1.2) or "formula" (logistic)
    k: int | None = None  # force one K for everybody
    k_cap: bool = False  # apply the 700 rule to a forced K as well
    cap: bool | None = None  # 400-point rule; None = the method's default
    period: str | None = None  # YYYY-MM; None = the month the events end in
    # "fide": every game against the start rating (the FIDE method). "sequential": the rating is
    # updated after every game, as some club calculators do (not FIDE; see calculator.sequential).
    mode: str = "fide"
    # Rows of the new list: False (``rate``'s default) only the events' players; True every
    # player of the list in force too (``rate --all-players``; period runs publish the whole list).
    all_players: bool = False


@dataclass(frozen=True)
class ReadOptions:
    """How the event files are read (``--input-format``, ``--sheet``, ``--column``): one value
    carried through ``rate``, ``validate``, ``norms``, ``convert`` and both engines."""

    input_format: str | None = None  # None: detected from content and extension
    sheet: str | None = None  # XLSX: by name or number; None: the first that fits
    columns: Mapping[str, str] | Sequence[str] | None = None  # crosstables: NAME=ROLE
    # Whether the events' own start and end dates (TRF 042/052) choose the rating period: with
    # --period they do not, and one that cannot be read is a warning instead of a problem.
    dates_needed: bool = True


READ_DEFAULTS = ReadOptions()  # every file read as its content and extension say


@dataclass
class NormReport:
    """Title norms of the events of a run (``pipeline.norms``): one ``table`` row per event,
    player and title (columns ``pipeline.norms.report.COLUMNS``), the events' facts, and what an
    event file cannot say (``to_confirm``)."""

    table: pd.DataFrame
    events: list[dict[str, object]] = field(default_factory=list)
    to_confirm: tuple[str, ...] = ()


@dataclass(frozen=True)
class NormSources:
    """What the title-norm check reads besides the rated sides: the events as read and the
    players (``pipeline.norms.norm_inputs``). A run keeps them only for event formats (TRF,
    crosstables: titles and federations), for the output stage to check norms when a report
    shows them (``pipeline.jobs.rate.outputs``)."""

    inputs: tuple[GamesInput | SidesInput, ...]
    players: PlayerList | None


@dataclass
class RatedGames:
    """What the engine hands the grouper: every side of every input rated (schema
    ``schemas.sides.RatedSides``, or ``EngineOutput`` with the text columns left as codes), and
    the codes the totals and games.csv work on (see :class:`RatedPeriod`'s fields of the same
    names). ``sources``: the input files, in order."""

    sides: pd.DataFrame
    sources: list[str]
    side_players: tuple[np.ndarray, pd.Series] | None = None
    side_texts: dict[str, tuple[np.ndarray, pd.Series]] | None = None


@dataclass
class RatedPeriod:
    """The result of rating one period: every side of every game, and per-player totals.

    Plain data: nothing here computes on read. What only some outputs need (the sides' text
    columns, the standings, the title norms) is computed by the output stage
    (``pipeline.jobs.rate.outputs``) for the outputs asked for, before any writer runs."""

    # Schema schemas.sides.RatedSides, but for the text columns ``engine.sides.CODED_COLUMNS``
    # a run leaves as codes in ``side_players`` and ``side_texts`` when nothing before the
    # writers reads them (``texts_coded``): for 1 M games, 200+ MB of text and a third of a
    # second that rating_list.csv and games.csv (which take those texts by code) never need.
    sides: pd.DataFrame
    totals: pd.DataFrame  # schema schemas.totals.RatingList
    options: RateOptions
    scale: int  # sides.pd_units / scale is the expected score
    period: str
    sources: list[str] = field(default_factory=list)
    period_reason: str = "given with --period"
    rule_set: str = ""  # the era's name actually used (options.rules may name a family)
    rules_reason: str = ""
    warnings: list[str] = field(default_factory=list)  # e.g. games dated outside the period
    list_match: ListMatch | None = None  # how the events met --players (``rate`` only)
    # id -> final rank printed on the event file (one TRF rated alone): the standings order.
    event_ranks: pd.Series | None = None
    # The tournament name of a lone TRF (its 012 record), "" otherwise: the reports' title
    # (``file_names.event_title``).
    event_name: str = ""
    # Title norms of the events, once checked (the output stage checks them from
    # ``norm_sources`` when a report shows them; a run that writes no report never does).
    norms: NormReport | None = None
    norm_sources: NormSources | None = field(default=None, repr=False)
    # (each side's player code, the distinct ids) from the games' own encoding, when the sides
    # are exactly the games' sides in order (``engine.side_codes.side_codes``): games.csv's order.
    side_players: tuple[np.ndarray, pd.Series] | None = field(default=None, repr=False)
    # Likewise event, round, date, source, opponent, result and note: name -> (each side's
    # code, the distinct texts; a blank is ""), so games.csv takes their text by code instead
    # of hashing 2 M cells (opponent, result and note come from the engine: rate_inputs).
    side_texts: dict[str, tuple[np.ndarray, pd.Series]] | None = field(default=None, repr=False)
    # The id look-up of ``totals``' ids (an explicit value, never built on read): the list in
    # force's when both list the same ids in the same order (a period's totals are its list in
    # force, row for row; ``finish_period`` sets it), else built by the stage that needs it
    # (the output stage, a period run) and passed on with the period: one look-up of a FIDE
    # list's 1.9 M ids, not two. A ``totals`` with other ids needs its own (or None).
    totals_ids: IdLookup | None = field(default=None, repr=False, compare=False)

    @property
    def texts_coded(self) -> bool:
        """Whether the sides' text columns are left as codes (``side_players``,
        ``side_texts``)."""
        return "player" not in self.sides.columns

    def side_counts(self) -> tuple[int, int]:
        """(rated game sides, all game sides)."""
        rated = self.sides["rated"]
        return int(rated.sum()), len(rated)

    def with_totals_ids_only(self) -> RatedPeriod:
        """The same period with only the totals' ids (games.csv's order): a period frees the
        rest of its totals before it writes games.csv."""
        return replace(self, totals=self.totals[["id"]])


@dataclass(frozen=True)
class Standings:
    """What the event reports show beyond the rating list, computed by the standings stage
    (``pipeline.grouper.standings``) before any report is written."""

    # Rows of ``totals`` in standings order, and the rank each of them shows.
    order: np.ndarray
    ranks: np.ndarray
    # Per row of ``totals``: points over every game (forfeits included, in hundredths) and the
    # FIDE performance over the rated games (blank where the player has no rated game).
    points_h: np.ndarray
    performance: pd.Series  # Int64
    # Rows of ``sides`` grouped by player in the ids' natural order (the per-game breakdown).
    side_order: np.ndarray


@dataclass(frozen=True)
class ListMatch:
    """How the events of a run meet the list in force (see
    :mod:`pipeline.readers.lists.list_match`)."""

    event_players: int  # distinct players in the events
    on_list: int  # of them, on the list in force
    list_players: int  # players on the list in force
    ratings_differ: int  # players whose rating printed on an event file is not the list's


@dataclass(frozen=True)
class RunPlan:
    """What every engine needs of the options, checked once before any file is read."""

    rules: RuleSet
    period: str
    scale: int  # pd_units / scale is the expected score
    period_reason: str = "given with --period"
    rules_reason: str = ""
    warnings: tuple[str, ...] = ()  # inputs dated outside the period; the era's (select)

    @property
    def year(self) -> int:
        return int(self.period[:4])


# The plain facts of a period run that the history stores: the event files read (with their
# hashes), each event unit, what is kept of a unit once rated, and the earlier lists given.
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
