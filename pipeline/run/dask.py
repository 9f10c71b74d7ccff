"""The same rating engine on Dask: games split over many files, rated on a cluster.

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
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from pipeline.engine import SCALES, rate_sides
from pipeline.engine.sides import game_positions, sides_from_games, unknown_players
from pipeline.errors import InputError, ProblemList, RunError
from pipeline.grouper.totals import (
    PARTIAL_COLUMNS,
    combine_partials,
    finish_totals,
    partial_totals,
    positions,
)
from pipeline.model import GamesInput, PlayerList, RatedPeriod, RateOptions
from pipeline.readers import read_event_file, read_players
from pipeline.readers.paths import expand_inputs
from pipeline.rules.select import select_rules
from pipeline.rules.sets import get_rules
from pipeline.run.rate import check_rated, resolve_period
from schemas import Players, RatingList, validate

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


def _read_games(path: str) -> pd.DataFrame:
    item = read_event_file(path)
    if not isinstance(item, GamesInput):
        raise RunError(
            f"{path}: the Dask engine rates games files only (this is an individual file)"
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
    from pipeline.writers import write_games_csv
    from pipeline.writers.parquet import games_arrow, write_parquet

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
        return Client(scheduler), None
    cluster = LocalCluster(
        n_workers=os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
    )
    return Client(cluster), cluster


def rate_files_dask(
    paths: Sequence[Path | str],
    players_path: Path | str | None = None,
    options: RateOptions | None = None,
    scheduler: str | None = None,
    client=None,  # type: ignore[no-untyped-def]
    games_dir: Path | None = None,
    games_format: str = "csv",
) -> DaskRun:
    """Rate the games files ``paths`` (files, folders, globs of parts) on a Dask cluster.

    ``client``: an existing ``distributed.Client`` (tests); otherwise ``scheduler`` or a local
    cluster. ``games_dir``: a folder (on storage every worker can write) for the games parts.
    """
    import dask.dataframe as dd

    options = options or RateOptions()
    if options.method not in SCALES:
        raise RunError(f"--method must be one of {', '.join(SCALES)} (got {options.method!r})")
    if options.period is None:
        # Partitions are read on the workers, after the period must be known: refused, not
        # guessed (the pandas engine reads the events' dates first).
        raise RunError(
            "--engine dask needs --period YYYY-MM (the month the events end in): the events' "
            "dates are read on the workers, after the rules must be chosen"
        )
    period = resolve_period(options.period)
    chosen = select_rules(options.rules, period)
    rules = chosen.rules
    options = replace(options, rules=rules.name)  # the partitions rate with this era
    files = [str(p) for p in expand_inputs(paths)]
    players = None
    if players_path is not None:
        players = read_players(players_path)
        validate(players.players, Players, players.source)

    own_client, cluster = (client, None) if client is not None else _client(scheduler)
    try:
        games = dd.from_map(_read_games, files, meta=_games_meta(), enforce_metadata=False)
        # The list goes to every worker once (scatter with broadcast) and each partition gets a
        # reference to it: passed by value it would travel inside every task and be unpacked
        # again for each partition.
        players_ref = (
            own_client.scatter(players.players, broadcast=True) if players is not None else None
        )
        partials = games.map_partitions(
            rate_partition,
            players_ref,
            options,
            str(games_dir) if games_dir is not None else None,
            games_format,
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
        if client is None:
            own_client.close()
            if cluster is not None:
                cluster.close()
    sides = int(totals_in["sides"].sum())
    rated_sides = int(totals_in["rated_sides"].sum())
    totals = finish_totals(
        totals_in[PARTIAL_COLUMNS],
        players,
        rules,
        SCALES[options.method],
        int(period[:4]),
        forced_k=options.k,
        k_cap=options.k_cap,
    )
    totals = validate(totals, RatingList, internal=True)
    result = RatedPeriod(
        sides=pd.DataFrame(),
        totals=totals,
        options=options,
        scale=SCALES[options.method],
        period=period,
        sources=files,
        rule_set=rules.name,
        rules_reason=chosen.reason,
    )
    return DaskRun(result, sides, rated_sides, len(files))


def _games_meta() -> pd.DataFrame:
    """An empty games frame with the columns and dtypes the reader gives (no file is read)."""
    import numpy as np

    from pipeline.readers.games import parse_games
    from pipeline.readers.tabular import RawTable

    empty = pd.DataFrame({c: pd.Series([], dtype=str) for c in ("white", "black", "result")})
    return parse_games(RawTable(empty, np.zeros(0, dtype=np.int64), "meta"), ProblemList()).games


def _meta() -> pd.DataFrame:
    meta = _empty_partials()
    meta["sides"] = pd.Series([], dtype="int64")
    meta["rated_sides"] = pd.Series([], dtype="int64")
    return meta


def write_dask_outputs(
    run_games: DaskRun, out_dir: Path, games_tmp: Path | None, output_format: str = "csv"
) -> list[Path]:
    """The rating list (atomically, like the pandas path) and the games parts folder."""
    from pipeline.writers import write_csv
    from pipeline.writers.atomic import OutputBatch
    from pipeline.writers.output_text import rating_list_table
    from pipeline.writers.parquet import rating_list_arrow, write_parquet

    with OutputBatch(out_dir) as batch:
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


__all__ = ["DaskRun", "InputError", "rate_files_dask", "rate_partition", "write_dask_outputs"]
