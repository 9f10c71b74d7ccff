"""``fiderate rate``: rate one period from event files and the rating list in force."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pipeline.cli.group import cli, json_flag
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

    from pipeline.model import ReadOptions


@cli.command()
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
    from pipeline.columnar.memory import prefer_jemalloc
    from pipeline.model import RateOptions
    from pipeline.run.rate import rate_files
    from pipeline.writers import write_outputs

    prefer_jemalloc()  # before the first big Arrow buffer (see its docstring)
    options = RateOptions(
        rules=rules,
        method=method,
        k=k,
        k_cap=k_cap,
        cap=cap,
        period=period,
        mode=mode,
        all_players=all_players,
    )
    if engine == "dask" or scheduler:
        from pipeline.cli.rate_dask import Outputs, rate_with_dask

        rate_with_dask(
            inputs,
            players,
            out_dir,
            options,
            scheduler,
            output_format,
            quiet,
            reading,
            Outputs(player_ids, want_html, xlsx, as_json),
        )
        return
    with DelayedProgress(enabled=not quiet) as progress:
        progress.stage("reading and rating")
        result = rate_files(inputs, players, options, reading=reading)
        progress.stage("writing reports")
        report = write_outputs(
            result,
            out_dir,
            xlsx=xlsx,
            html=want_html,
            players=player_ids,
            output_format=output_format,
            inputs=[*inputs, *([players] if players is not None else [])],
        )
    _tell(result, report, as_json, quiet)


def _tell(result, report, as_json: bool, quiet: bool) -> None:
    """The run's summary (JSON, rich or plain), then its notes and warnings on stderr."""
    from pipeline.cli.console import render_summary
    from pipeline.writers.summary import summary_data

    if as_json:
        click.echo(json.dumps(summary_data(result, report), indent=2, ensure_ascii=False))
    elif not quiet:
        render_summary(result, report, _stdout_console())
    for message in report.skipped:
        click.echo(f"note: {printable(message)}", err=True)
    for message in result.warnings:
        click.echo(f"warning: {printable(message)}", err=True)


def _stdout_console() -> Console:
    """A rich console on click's stdout (so CliRunner captures it); plain when not a terminal."""
    from rich.console import Console

    stream = sys.stdout
    return Console(file=stream, highlight=False, width=None if stream.isatty() else 200)
