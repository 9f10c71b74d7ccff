"""``fiderate validate``: check input files without rating; every problem at once."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from pipeline.cli.group import json_flag
from pipeline.cli.options import (
    event_files_argument,
    path_option,
    read_options,
    rules_option,
)

if TYPE_CHECKING:
    from pipeline.model import ReadOptions


@click.command()
@event_files_argument("files")
@path_option(
    "--players",
    default=None,
    help="The rating list in force (CSV/XLSX or a FIDE TXT/XML list): checks unknown players.",
)
@rules_option
@read_options
@json_flag(
    'Print the report as JSON: {"ok", "files", "problem_count", "problems": [...], '
    '"warnings": [...]}.'
)
def validate(
    files: tuple[Path, ...],
    players: Path | None,
    rules: str,
    reading: ReadOptions,
    as_json: bool,
) -> None:
    """Check FILES (games, individual, TRF, crosstable, grid) and the players list without rating.

    Runs the same checks as `fiderate rate` and prints every problem at once: file, row, column,
    value, a stable code and how to fix it, then the warnings (what a file says that contradicts
    itself; they stop nothing). Exit code 0 when everything is valid, 1 otherwise.
    """
    from pipeline.errors import count_problems, printable
    from pipeline.jobs import validate as validate_job

    report = validate_job.validate(
        validate_job.ValidateRequest(files, players, rules=rules, reading=reading)
    )
    if as_json:
        click.echo(validate_job.report_json(report))
    elif report.ok:
        click.echo(f"{len(report.files)} file(s) OK")
    else:
        click.echo(validate_job.problems_table(report.problems))
        found = count_problems(report.problems)
        click.echo(f"\n{found} problem(s) in {len(report.files)} file(s)", err=True)
    if not as_json:
        for message in report.warnings:
            click.echo(f"warning: {printable(message)}", err=True)
    if not report.ok:
        raise click.exceptions.Exit(1)
