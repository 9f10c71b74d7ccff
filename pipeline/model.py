"""Plain containers passed between the pipeline stages (never attributes hung on DataFrames)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from pipeline.keys.game_codes import GameCodes
    from pipeline.keys.id_lookup import IdLookup


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


READ_DEFAULTS = ReadOptions()  # every file read as its content and extension say


@dataclass
class NormReport:
    """Title norms of the events of a run (``pipeline.norms``): one ``table`` row per event,
    player and title (columns ``pipeline.norms.report.COLUMNS``), the events' facts, and what an
    event file cannot say (``to_confirm``)."""

    table: pd.DataFrame
    events: list[dict[str, object]] = field(default_factory=list)
    to_confirm: tuple[str, ...] = ()


@dataclass
class RatedPeriod:
    """The result of rating one period: every side of every game, and per-player totals."""

    # The sides as the run built them: schema schemas.sides.RatedSides, but for the text columns
    # a run may leave as codes (``complete_sides``). Read ``sides``, not this.
    side_frame: pd.DataFrame
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
    # Title norms of the events (event formats with titles and federations only): checked by
    # ``title_norms`` the first time an output that shows them asks (report.xlsx, report.html),
    # with ``norm_check`` (set by ``rate_files``); a run that writes no report never checks them.
    norms: NormReport | None = None
    norm_check: Callable[[], NormReport | None] | None = field(default=None, repr=False)
    # (each side's player code, the distinct ids) from the games' own encoding, when the sides
    # are exactly the games' sides in order (``run.side_codes.side_codes``): games.csv's order.
    side_players: tuple[np.ndarray, pd.Series] | None = field(default=None, repr=False)
    # Likewise event, round, date, source, opponent, result and note: name -> (each side's
    # code, the distinct texts; a blank is ""), so games.csv takes their text by code instead
    # of hashing 2 M cells (opponent, result and note come from the engine: rate_inputs).
    side_texts: dict[str, tuple[np.ndarray, pd.Series]] | None = field(default=None, repr=False)
    # Adds to ``side_frame`` the text columns the run left as codes in ``side_players`` and
    # ``side_texts`` (``engine.sides.with_coded_texts``), the first time ``sides`` is read. A run
    # whose outputs take those texts by code (the rating list and games.csv) never builds them:
    # for 1 M games, 200+ MB of text and a third of a second.
    complete_sides: Callable[[pd.DataFrame], pd.DataFrame] | None = field(default=None, repr=False)
    # The id look-up of ``totals`` (built on first use, for that very frame; ``finish_period``
    # gives it the list's own when both list the same ids): games.csv and a period's report ask
    # it, and a FIDE list's 1.9 M ids are costly to hash.
    _totals_lookup: tuple[pd.DataFrame, IdLookup] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def sides(self) -> pd.DataFrame:
        """Every side of every game (schema ``schemas.sides.RatedSides``), every column built."""
        if self.complete_sides is not None:
            self.side_frame, self.complete_sides = self.complete_sides(self.side_frame), None
        return self.side_frame

    def side_columns(self, names: Sequence[str]) -> pd.DataFrame:
        """The sides' columns ``names``, without building the text columns left as codes when
        none of ``names`` is one of them."""
        frame = self.side_frame
        return frame[list(names)] if set(names) <= set(frame.columns) else self.sides[list(names)]

    def side_counts(self) -> tuple[int, int]:
        """(rated game sides, all game sides), without building the text columns."""
        rated = self.side_columns(["rated"])["rated"]
        return int(rated.sum()), len(rated)

    def totals_lookup(self) -> IdLookup:
        """The id look-up of ``totals``, built on first use for this very frame."""
        self._totals_lookup = _lookup_of(self.totals, self._totals_lookup)
        return self._totals_lookup[1]

    def share_totals_lookup(self, players: PlayerList) -> None:
        """Take the list's id look-up as the totals' when the two list the same ids in the same
        order (a period's totals are its list in force, row for row): one look-up, not two."""
        from pipeline.keys.id_lookup import same_ids

        if same_ids(players.players["id"], self.totals["id"]):
            self._totals_lookup = (self.totals, players.lookup())

    def with_totals_ids_only(self) -> RatedPeriod:
        """The same period with only the totals' ids (games.csv's order), keeping their look-up:
        a period frees the rest of its totals before it writes games.csv."""
        slim = replace(self, totals=self.totals[["id"]])
        if self._totals_lookup is not None and self._totals_lookup[0] is self.totals:
            slim._totals_lookup = (slim.totals, self._totals_lookup[1])
        return slim

    def title_norms(self) -> NormReport | None:
        """The events' title norms, checked once, on first use."""
        if self.norms is None and self.norm_check is not None:
            self.norms, self.norm_check = self.norm_check(), None
        return self.norms


@dataclass(frozen=True)
class ListMatch:
    """How the events of a run meet the list in force (see :mod:`pipeline.jobs.list_match`)."""

    event_players: int  # distinct players in the events
    on_list: int  # of them, on the list in force
    list_players: int  # players on the list in force
    ratings_differ: int  # players whose rating printed on an event file is not the list's
