"""The same rating engine on Dask: games split over many files, rated on a cluster.

:class:`DaskExecutor` is the executor :func:`jobs.rate_stages.rate_files` (the one run function
of both engines) hands the files to; the options, the players list and the finish (K, the 700
rule, the rounding) are that function's, shared with the pandas engine. Options the executor
cannot honour are refused there (exit 2): see :meth:`DaskExecutor.refusals`.

One partition per input file (a part). Every partition runs the functions the pandas path
runs (read and check the file, ``sides_from_games``, ``rate_sides``, the engine-output schema,
``partial_totals``); the players list, read and checked once here, is broadcast to all
partitions as a small pandas argument. Dask then combines the per-player integer partials with
``combine_partials`` in a tree reduction (exact: integer sums), and ``finish_totals`` applies K,
the 700 rule and the rounding to the combined totals, exactly as for one machine. Memory is
bounded by the size of a part, not of the period.

Without a scheduler address a ``distributed.LocalCluster`` of worker processes is started for
the run; with one, ``distributed.Client(address)`` uses an existing cluster (the input paths
must then be readable by every worker, e.g. on shared storage).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from pipeline.engine import SCALES, rate_sides
from pipeline.engine.rate_events import check_rated
from pipeline.engine.sides import game_positions, sides_from_games, unknown_players
from pipeline.errors import InputError, RunError
from pipeline.grouper.totals import PARTIAL_COLUMNS, combine_partials, partial_totals
from pipeline.keys.frame_lookup import positions
from pipeline.model import (
    READ_DEFAULTS,
    GamesInput,
    PlayerList,
    RatedPeriod,
    RateOptions,
    ReadOptions,
    RunPlan,
)
from pipeline.problem_list import ProblemList
from pipeline.readers import read_event_file
from pipeline.rules.periods import resolve_period
from pipeline.rules.sets import get_rules
from schemas import validate

# Rows of partition p start at position p << 32 among all sides: "last row" and "first K"
# then mean the same as on one machine, where the sides are read in the same file order.
PARTITION_SHIFT = 32


@dataclass
class DaskRun:
    """What a Dask run leaves: the rated period (totals only; the sides stay on the workers)
    and, when asked, a folder of per-part games files written by the workers."""

    result: RatedPeriod
    sides: int
    rated_sides: int
    parts: int


def _read_games(
    path: str, input_format: str | None = None, sheet: str | None = None
) -> pd.DataFrame:
    item = read_event_file(path, sheet, input_format=input_format)
    if not isinstance(item, GamesInput) or item.players is not None or item.byes is not None:
        kind = "an individual file" if not isinstance(item, GamesInput) else "an event file"
        raise RunError(
            f"{path}: the Dask engine rates games files only (this is {kind}, with its own "
            "players or byes); rate it with --engine pandas"
        )
    validate_games(item)
    return item.games


def validate_games(item: GamesInput) -> None:
    from schemas import Games

    validate(item.games, Games, item.source)


def _empty_partials() -> pd.DataFrame:
    return partial_totals(
        pd.DataFrame(
            {
                "player": pd.Series([], dtype=str),
                "rated": pd.Series([], dtype=bool),
                "score_h": pd.Series([], dtype="int64"),
                "pd_units": pd.Series([], dtype="Int64"),
                "dev_units": pd.Series([], dtype="Int64"),
                "k": pd.Series([], dtype="Int64"),
                "player_rating": pd.Series([], dtype="Int64"),
                "name": pd.Series([], dtype=str),
            }
        )
    )


def rate_partition(
    games: pd.DataFrame,
    players: pd.DataFrame | None,
    options: RateOptions,
    games_dir: str | None = None,
    games_format: str = "csv",
    partition_info: dict | None = None,
) -> pd.DataFrame:
    """One part: games -> sides -> engine -> schema check -> per-player partial sums (and, with
    ``games_dir``, the part's rated sides written as ``part-NNNNN`` there)."""
    number = (partition_info or {}).get("number", 0)
    if len(games) == 0:
        return _empty_partials()
    source = str(games["source"].iat[0])
    player_list = PlayerList("players", players) if players is not None else None
    item = GamesInput(source, games.reset_index(drop=True))
    found = game_positions(item, player_list)
    problems = unknown_players(item, player_list, found)
    if problems:
        raise InputError(problems)
    sides = sides_from_games(item, player_list, found)
    rated = check_rated(
        rate_sides(sides, get_rules(options.rules), options.method, options.cap), whole=False
    )
    if games_dir is not None:
        _write_games_part(rated, options, Path(games_dir), number, games_format)
    partials = partial_totals(rated, first_position=number << PARTITION_SHIFT)
    if players is not None and len(partials):
        # A listed player's name comes from the list (finish_totals reads last_name only for
        # players the list lacks): blank it, so the partials held until the reduction are small.
        listed = positions(partials["player"], players["id"]) >= 0
        partials["last_name"] = partials["last_name"].where(~listed, "")
    partials["sides"] = len(rated)
    partials["rated_sides"] = int(rated["rated"].sum())
    # The side counts ride on the first row only, so the sums over all rows are the totals.
    partials.loc[partials.index[1:], ["sides", "rated_sides"]] = 0
    return partials


def _write_games_part(
    rated: pd.DataFrame, options: RateOptions, folder: Path, number: int, fmt: str
) -> None:
    from pipeline.writers import games_arrow, write_games_csv, write_parquet

    part = RatedPeriod(
        sides=rated,
        totals=pd.DataFrame(),
        options=options,
        scale=SCALES[options.method],
        period=resolve_period(options.period),
    )
    path = folder / f"part-{number:05d}.{fmt}"
    if fmt == "parquet":
        write_parquet(games_arrow(part), path)
    else:
        write_games_csv(part, path)


def _combine(parts: pd.DataFrame) -> pd.DataFrame:
    counts = parts[["sides", "rated_sides"]].sum()
    combined = combine_partials(parts[PARTIAL_COLUMNS])
    combined["sides"] = 0
    combined["rated_sides"] = 0
    if len(combined):
        combined.loc[combined.index[0], ["sides", "rated_sides"]] = counts.to_numpy()
    return combined


def _client(scheduler: str | None):  # type: ignore[no-untyped-def]
    from distributed import Client, LocalCluster

    if scheduler:
        from pipeline.jobs.rate.dask_scheduler import connect

        return connect(scheduler), None
    cluster = LocalCluster(
        n_workers=os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
    )
    return Client(cluster), cluster


# Input formats whose files carry their own players or byes: one partition cannot add those to
# the list in force, so the Dask engine refuses them rather than drop them.
DASK_INPUT_FORMATS = ("games",)


@dataclass
class DaskExecutor:
    """Rates games files on a Dask cluster for :func:`jobs.rate_stages.rate_files`.

    ``client``: an existing ``distributed.Client`` (tests); otherwise ``scheduler`` or a local
    cluster. ``games_dir``: a folder (on storage every worker can write) for the games parts.
    After a run, ``sides``, ``rated_sides`` and ``parts`` count what was rated.
    """

    name: ClassVar[str] = "dask"
    scheduler: str | None = None
    client: Any = None
    games_dir: Path | None = None
    games_format: str = "csv"
    sides: int = field(default=0, init=False)
    rated_sides: int = field(default=0, init=False)
    parts: int = field(default=0, init=False)

    def refusals(self, options: RateOptions, reading: ReadOptions) -> list[str]:
        """What a partition cannot honour: sequential mode re-rates each player's games in order
        across the whole period (one partition sees only its part); TRF, crosstable, grid and
        individual files bring players or byes of their own; --column is for crosstables."""
        refused = []
        if options.mode != "fide":
            refused.append(
                f"--mode {options.mode}: a partition sees only its part of a player's games"
            )
        if reading.input_format not in (None, *DASK_INPUT_FORMATS):
            refused.append(
                f"--input-format {reading.input_format}: the Dask engine rates games files only"
            )
        if reading.columns:
            refused.append("--column: crosstables only, which the Dask engine does not read")
        return refused

    def partials(
        self,
        files: list[str],
        players: PlayerList | None,
        options: RateOptions,
        plan: RunPlan,
        reading: ReadOptions = READ_DEFAULTS,
    ) -> pd.DataFrame:
        """Per-player partial sums of every part, combined in a tree reduction on the cluster."""
        import dask.dataframe as dd

        own_client, cluster = (
            (self.client, None) if self.client is not None else _client(self.scheduler)
        )
        try:
            games = dd.from_map(
                _read_games,
                files,
                input_format=reading.input_format,
                sheet=reading.sheet,
                meta=_games_meta(),
                enforce_metadata=False,
            )
            # The list goes to every worker once (scatter with broadcast) and each partition gets
            # a reference to it: passed by value it would travel inside every task and be
            # unpacked again for each partition.
            players_ref = (
                own_client.scatter(players.players, broadcast=True) if players is not None else None
            )
            partials = games.map_partitions(
                rate_partition,
                players_ref,
                options,
                str(self.games_dir) if self.games_dir is not None else None,
                self.games_format,
                meta=_meta(),
                align_dataframes=False,
                enforce_metadata=False,
            )
            combined = partials.reduction(
                chunk=lambda frame: frame,
                combine=_combine,
                aggregate=_combine,
                meta=_meta(),
                split_every=8,
            )
            totals_in = own_client.compute(combined).result()
        finally:
            if self.client is None:
                own_client.close()
                if cluster is not None:
                    cluster.close()
        self.sides = int(totals_in["sides"].sum())
        self.rated_sides = int(totals_in["rated_sides"].sum())
        self.parts = len(files)
        return totals_in[PARTIAL_COLUMNS]


def _games_meta() -> pd.DataFrame:
    """An empty games frame with the columns and dtypes the reader gives (no file is read)."""
    import numpy as np

    from pipeline.readers.events.game_lists import parse_games
    from pipeline.readers.tables.tabular import RawTable

    empty = pd.DataFrame({c: pd.Series([], dtype=str) for c in ("white", "black", "result")})
    return parse_games(RawTable(empty, np.zeros(0, dtype=np.int64), "meta"), ProblemList()).games


def _meta() -> pd.DataFrame:
    meta = _empty_partials()
    meta["sides"] = pd.Series([], dtype="int64")
    meta["rated_sides"] = pd.Series([], dtype="int64")
    return meta


def output_refusals(
    *,
    player_ids: Sequence[str] = (),
    html: bool | None = None,
    xlsx: bool | None = None,
    as_json: bool = False,
) -> list[str]:
    """Outputs a Dask run cannot give: it keeps the rated sides on the workers (written as games
    parts) and has only the rating list here, so no reports and no summary of the sides."""
    refused = []
    if player_ids:
        refused.append("--player: the player reports need every side in one process")
    if html:
        refused.append("--html: report.html needs every side in one process")
    if xlsx:
        refused.append("--xlsx: the spreadsheets need every side in one process")
    if as_json:
        refused.append("--json: the summary needs every side in one process")
    return refused


def write_dask_outputs(
    run_games: DaskRun,
    out_dir: Path,
    games_tmp: Path | None,
    output_format: str = "csv",
    inputs: Sequence[Path | str] = (),
) -> list[Path]:
    """The rating list (atomically, like the pandas path) and the games parts folder."""
    from pipeline.writers import (
        OutputBatch,
        rating_list_arrow,
        rating_list_table,
        write_csv,
        write_parquet,
    )

    with OutputBatch(out_dir, protect=inputs) as batch:
        if output_format == "parquet":
            write_parquet(rating_list_arrow(run_games.result), batch.path("rating_list.parquet"))
        else:
            write_csv(rating_list_table(run_games.result), batch.path("rating_list.csv"))
        written = batch.commit()
    if games_tmp is not None:
        final = out_dir / "games"
        if final.exists():
            shutil.rmtree(final)
        os.replace(games_tmp, final)
        written.append(final)
    return written


def games_tmp_dir(out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=".games.", suffix=".tmp", dir=out_dir))


__all__ = [
    "DaskExecutor",
    "DaskRun",
    "InputError",
    "rate_partition",
    "write_dask_outputs",
]
