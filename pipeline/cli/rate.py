"""``fiderate rate``: rate one period from event files and the rating list in force."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pipeline.cli.group import json_flag
from pipeline.cli.options import (
    choice_option,
    event_files_argument,
    k_cap_option,
    k_option,
    method_option,
    mode_option,
    path_option,
    period_option,
    player_ids_option,
    players_option,
    read_options,
    rules_option,
    xlsx_option,
)
from pipeline.errors import printable

if TYPE_CHECKING:
    from rich.console import Console

    from pipeline.jobs.rate import DaskCounts, RateResult
    from pipeline.model import ReadOptions


@click.command()
@event_files_argument("inputs")
@players_option
@path_option("--out", "out_dir", required=True, help="Output folder.")
@rules_option
@method_option
@k_option
@k_cap_option
@period_option
@click.option(
    "--cap/--no-cap",
    default=None,
    help="400-point rule on/off (default: on for --method fide, off for formula).",
)
@xlsx_option
@choice_option(
    "--output-format",
    ["csv", "parquet"],
    help="rating_list and games as CSV text or typed Parquet.",
)
@choice_option(
    "--engine",
    ["pandas", "dask"],
    help="pandas: one process. dask: partitions (one per input file) on a Dask cluster.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Dask scheduler (e.g. tcp://10.0.0.5:8786); default: a local cluster for the run.",
)
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
@read_options
@mode_option
@player_ids_option("Also write this player's report on its own: player-ID.xlsx and player-ID.html.")
@click.option(
    "--all-players",
    is_flag=True,
    help="Write every player of --players to rating_list.csv, not only the events' players.",
)
@json_flag("Print a machine-readable summary (JSON).")
@click.option(
    "--html/--no-html",
    "want_html",
    default=None,
    help="Write report.html, the event report with charts (default: up to 10,000 players).",
)
def rate(
    inputs: tuple[Path, ...],
    players: Path | None,
    out_dir: Path,
    rules: str,
    method: str,
    k: int | None,
    k_cap: bool,
    period: str | None,
    cap: bool | None,
    xlsx: bool | None,
    output_format: str,
    engine: str,
    scheduler: str | None,
    quiet: bool,
    reading: ReadOptions,
    mode: str,
    player_ids: tuple[str, ...],
    as_json: bool,
    want_html: bool | None,
    all_players: bool,
) -> None:
    """Rate INPUT files (games, individual, TRF, crosstable, grid) as one rating period and
    write the new list. A TRF or crosstable brings its own players: --players is optional."""
    # The library is imported here, not at the top: `fiderate calc` and `--help` stay instant.
    from pipeline.cli.console import DelayedProgress
    from pipeline.jobs import rate as rate_job
    from pipeline.model import RateOptions

    # A spinner with the stage on stderr, only on a terminal and once the run takes a second
    # (not on Dask: its workers report nothing back to it).
    progress = DelayedProgress(enabled=not quiet and engine != "dask" and scheduler is None)
    with progress:
        request = rate_job.RateRequest(
            inputs=inputs,
            out_dir=out_dir,
            players=players,
            options=RateOptions(
                rules=rules,
                method=method,
                k=k,
                k_cap=k_cap,
                cap=cap,
                period=period,
                mode=mode,
                all_players=all_players,
            ),
            reading=reading,
            outputs=rate_job.RateOutputs(
                xlsx=xlsx,
                html=want_html,
                player_ids=player_ids,
                output_format=output_format,
                summary=as_json,
            ),
            engine=engine,
            scheduler=scheduler,
        )
        result = rate_job.rate(request, progress=progress.board)
    if result.dask is not None:
        if not quiet:
            _tell_dask(result, result.dask, method)
        return
    _tell(result, as_json, quiet)


def _tell(result: RateResult, as_json: bool, quiet: bool) -> None:
    """The run's summary (JSON, rich or plain), then its notes and warnings on stderr."""
    from pipeline.cli.console import render_summary
    from pipeline.writers.summary import summary_data

    if as_json:
        click.echo(
            json.dumps(summary_data(result.rated, result.files), indent=2, ensure_ascii=False)
        )
    elif not quiet:
        render_summary(result.rated, result.files, _stdout_console())
    for message in result.files.skipped:
        click.echo(f"note: {printable(message)}", err=True)
    for message in result.warnings:
        click.echo(f"warning: {printable(message)}", err=True)


def _tell_dask(result: RateResult, counts: DaskCounts, method: str) -> None:
    """A Dask run's counts (its sides stay on the workers: no table of changes)."""
    rated = result.rated
    click.echo(
        f"rated period {rated.period} on Dask ({counts.parts} parts): rules "
        f"{rated.rule_set!r}, method {method!r}"
    )
    click.echo(f"  rules {rated.rule_set}: {rated.rules_reason}")
    click.echo(
        f"players: {len(rated.totals):,} ({counts.rated_players:,} with rated games)   "
        f"game sides: {counts.sides:,} ({counts.rated_sides:,} rated)"
    )
    click.echo("written:")
    for path in result.written:
        click.echo(f"  {path}")


def _stdout_console() -> Console:
    """A rich console on click's stdout (so CliRunner captures it); plain when not a terminal."""
    from rich.console import Console

    stream = sys.stdout
    return Console(file=stream, highlight=False, width=None if stream.isatty() else 200)
