"""``fiderate rate --engine dask``: the command's Dask branch (kept apart so that the pandas
path never imports Dask)."""

from __future__ import annotations

from pathlib import Path

import click

from pipeline.model import RateOptions


def rate_with_dask(
    inputs: tuple[Path, ...],
    players: Path | None,
    out_dir: Path,
    options: RateOptions,
    scheduler: str | None,
    output_format: str,
    quiet: bool,
) -> None:
    from pipeline.run.dask import games_tmp_dir, rate_files_dask, write_dask_outputs

    games_tmp = games_tmp_dir(out_dir)
    try:
        run = rate_files_dask(
            inputs,
            players,
            options,
            scheduler=scheduler,
            games_dir=games_tmp,
            games_format=output_format,
        )
        written = write_dask_outputs(run, out_dir, games_tmp, output_format)
    finally:
        if games_tmp.exists():
            import shutil

            shutil.rmtree(games_tmp, ignore_errors=True)
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
