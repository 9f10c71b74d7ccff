"""``fiderate rate``: rate one period from event files and the rating list in force."""

from __future__ import annotations

from pathlib import Path

import click

from pipeline.cli import cli
from pipeline.cli.options import (
    k_cap_option,
    k_option,
    method_option,
    period_option,
    rules_option,
    sheet_option,
)
from pipeline.model import RateOptions
from pipeline.period import rate_files
from pipeline.summary import summary_lines
from pipeline.writers import write_outputs


@cli.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--players",
    type=click.Path(path_type=Path),
    default=None,
    help="The rating list in force: CSV/XLSX (id, name, rating, ...) or a FIDE TXT/XML list.",
)
@click.option("--out", "out_dir", required=True, type=click.Path(path_type=Path), help="Output folder.")
@rules_option
@method_option
@k_option
@k_cap_option
@period_option
@sheet_option
@click.option(
    "--cap/--no-cap",
    default=None,
    help="400-point rule on/off (default: on for --method fide, off for formula).",
)
@click.option(
    "--xlsx/--no-xlsx",
    default=None,
    help="Write the spreadsheets regardless of size (default: up to 10,000 players).",
)
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
def rate(
    inputs: tuple[Path, ...],
    players: Path | None,
    out_dir: Path,
    rules: str,
    method: str,
    k: int | None,
    k_cap: bool,
    period: str | None,
    sheet: str | None,
    cap: bool | None,
    xlsx: bool | None,
    quiet: bool,
) -> None:
    """Rate INPUT files (games, individual) as one rating period and write the new list."""
    options = RateOptions(rules=rules, method=method, k=k, k_cap=k_cap, cap=cap, period=period)
    result = rate_files(inputs, players, options, sheet=sheet)
    report = write_outputs(result, out_dir, xlsx=xlsx)
    if not quiet:
        for line in summary_lines(result, report):
            click.echo(line)
    for message in report.skipped:
        click.echo(f"note: {message}", err=True)
