"""``fiderate convert``: write an event in another format (today: FIDE TRF16)."""

from __future__ import annotations

from pathlib import Path

import click

from pipeline.cli.group import cli
from pipeline.cli.options import column_option, input_format_option, sheet_option
from pipeline.run.convert import convert_to_trf


@cli.command()
@click.argument("input_path", metavar="INPUT", type=click.Path(path_type=Path))
@click.option(
    "--to",
    "to",
    type=click.Choice(["trf"]),
    default="trf",
    show_default=True,
    help="Output format.",
)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(path_type=Path),
    help="The file to write (written atomically).",
)
@click.option(
    "--players",
    type=click.Path(path_type=Path),
    default=None,
    help="The rating list in force (ratings, names, birth years of the players).",
)
@input_format_option
@column_option
@sheet_option
def convert(
    input_path: Path,
    to: str,
    output: Path,
    players: Path | None,
    input_format: str | None,
    columns: tuple[str, ...],
    sheet: str | None,
) -> None:
    """Write the event in INPUT (games file, TRF, crosstable, grid) as a TRF16 file."""
    result = convert_to_trf(
        input_path, output, players, input_format=input_format, sheet=sheet, columns=columns
    )
    click.echo(
        f"wrote {output}: {result.players} players, {result.games} games, {result.rounds} rounds"
    )
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
