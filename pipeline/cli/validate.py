"""``fiderate validate``: check input files without rating; every problem at once."""

from __future__ import annotations

from pathlib import Path

import click

from pipeline.cli.group import cli
from pipeline.cli.options import (
    column_option,
    input_format_option,
    path_option,
    rules_option,
    sheet_option,
)


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@path_option(
    "--players",
    default=None,
    help="The rating list in force (CSV/XLSX or a FIDE TXT/XML list): checks unknown players.",
)
@rules_option
@input_format_option
@column_option
@sheet_option
@click.option(
    "--json", "as_json", is_flag=True, help="Print the problems as JSON (a list of objects)."
)
def validate(
    files: tuple[Path, ...],
    players: Path | None,
    rules: str,
    input_format: str | None,
    columns: tuple[str, ...],
    sheet: str | None,
    as_json: bool,
) -> None:
    """Check FILES (games, individual, TRF, crosstable, grid) and the players list without rating.

    Runs the same checks as `fiderate rate` and prints every problem at once: file, row, column,
    value, a stable code and how to fix it. Exit code 0 when everything is valid, 1 otherwise.
    """
    from pipeline.run.check import problems_json, problems_table, validate_files

    report = validate_files(
        files, players, rules=rules, input_format=input_format, sheet=sheet, columns=columns
    )
    if as_json:
        click.echo(problems_json(report.problems))
    elif report.ok:
        click.echo(f"{len(report.files)} file(s) OK")
    else:
        click.echo(problems_table(report.problems))
        click.echo(f"\n{len(report.problems)} problem(s) in {len(report.files)} file(s)", err=True)
    if not report.ok:
        raise click.exceptions.Exit(1)
