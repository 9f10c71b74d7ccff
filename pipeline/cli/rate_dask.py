"""``fiderate rate --engine dask``: the command's Dask branch (kept apart so that the pandas
path never imports Dask)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import click

from pipeline.model import READ_DEFAULTS, RateOptions, ReadOptions


@dataclass(frozen=True)
class Outputs:
    """The outputs asked for beyond the rating list (``--player``, ``--html``, ...)."""

    player_ids: tuple[str, ...] = ()
    html: bool | None = None
    xlsx: bool | None = None
    as_json: bool = False


def _first_missing(folder: Path) -> Path | None:
    """The highest folder of ``folder``'s path that does not exist yet, if any."""
    missing = [p for p in (folder, *folder.parents) if not p.exists()]
    return missing[-1] if missing else None


def rate_with_dask(
    inputs: tuple[Path, ...],
    players: Path | None,
    out_dir: Path,
    options: RateOptions,
    scheduler: str | None,
    output_format: str,
    quiet: bool,
    reading: ReadOptions = READ_DEFAULTS,
    outputs: Outputs = Outputs(),
) -> None:
    """The same run function as the pandas path with the Dask executor; every option it cannot
    honour is refused (exit 2) before anything is read or written."""
    from pipeline.jobs.dask_executor import (
        DaskExecutor,
        DaskRun,
        games_tmp_dir,
        output_refusals,
        write_dask_outputs,
    )
    from pipeline.jobs.dask_scheduler import check_scheduler_address
    from pipeline.jobs.plan import refuse
    from pipeline.jobs.rate import rate_files

    if scheduler is not None:
        check_scheduler_address(scheduler)
    executor = DaskExecutor(scheduler, games_format=output_format)
    refuse(
        executor.name,
        executor.refusals(options, reading)
        + output_refusals(
            player_ids=outputs.player_ids,
            html=outputs.html,
            xlsx=outputs.xlsx,
            as_json=outputs.as_json,
        ),
    )
    made = _first_missing(out_dir)  # the run makes this folder (and those below it)
    games_tmp = games_tmp_dir(out_dir)
    executor.games_dir = games_tmp
    done = False
    try:
        result = rate_files(
            inputs,
            players,
            options,
            reading=reading,
            executor=executor,
        )
        run = DaskRun(result, executor.sides, executor.rated_sides, executor.parts)
        protect = [*inputs, *([players] if players is not None else [])]
        written = write_dask_outputs(run, out_dir, games_tmp, output_format, protect)
        done = True
    finally:
        if games_tmp.exists():
            shutil.rmtree(games_tmp, ignore_errors=True)
        # A failed run leaves nothing behind, not even the empty --out folder it made.
        if not done and made is not None and not any(p.is_file() for p in made.rglob("*")):
            shutil.rmtree(made, ignore_errors=True)
    if quiet:
        return
    rated_players = int((run.result.totals["games"] > 0).sum())
    click.echo(
        f"rated period {run.result.period} on Dask ({run.parts} parts): rules "
        f"{run.result.rule_set!r}, method {options.method!r}"
    )
    click.echo(f"  rules {run.result.rule_set}: {run.result.rules_reason}")
    click.echo(
        f"players: {len(run.result.totals):,} ({rated_players:,} with rated games)   "
        f"game sides: {run.sides:,} ({run.rated_sides:,} rated)"
    )
    click.echo("written:")
    for path in written:
        click.echo(f"  {path}")
