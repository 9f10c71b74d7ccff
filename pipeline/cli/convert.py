"""``fiderate convert``: write an event in another format: FIDE TRF16, or a games file (CSV or
XLSX) that ``fiderate rate`` reads back."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from pipeline.cli.options import (
    choice_option,
    path_option,
    read_options,
)
from pipeline.errors import printable

if TYPE_CHECKING:
    from pipeline.model import ReadOptions


@click.command()
@click.argument("input_path", metavar="INPUT", type=click.Path(path_type=Path))
@choice_option(
    "--to",
    ["trf", "csv", "xlsx"],
    help="Output format: a TRF16 file, or a games file (one row per game, with the players' "
    "names and ratings) as CSV or XLSX.",
)
@path_option(
    "-o",
    "--output",
    required=True,
    help="The file to write (written atomically).",
)
@path_option(
    "--players",
    default=None,
    help="The rating list in force (ratings, names, birth years of the players).",
)
@click.option("--name", "event_name", default=None, help="Tournament name (record 012).")
@click.option("--city", default=None, help="City (record 022).")
@click.option("--federation", default=None, help="Federation (record 032).")
@click.option("--start", default=None, metavar="DATE", help="Start date (record 042).")
@click.option("--end", default=None, metavar="DATE", help="End date (record 052).")
@click.option("--arbiter", default=None, help="Chief arbiter (record 102).")
@click.option("--time-control", default=None, help="Time control (record 122).")
@read_options
def convert(
    input_path: Path,
    to: str,
    output: Path,
    players: Path | None,
    reading: ReadOptions,
    event_name: str | None,
    city: str | None,
    federation: str | None,
    start: str | None,
    end: str | None,
    arbiter: str | None,
    time_control: str | None,
) -> None:
    """Write the event in INPUT (games file, TRF, crosstable, grid) as a TRF16 file, or as a
    games file (--to csv|xlsx). A TRF is written back record for record, with its own line
    endings: only the header records given as options and ratings the --players list changes
    differ."""
    from pipeline.jobs import convert as convert_job

    header = convert_job.EventHeader(
        name=event_name,
        city=city,
        federation=federation,
        start=start,
        end=end,
        arbiter=arbiter,
        time_control=time_control,
    )
    request = convert_job.ConvertRequest(input_path, output, to, players, reading, header)
    result = convert_job.convert(request)
    click.echo(
        f"wrote {output}: {result.players} players, {result.games} games, {result.rounds} rounds"
    )
    for note in result.notes:
        click.echo(f"note: {printable(note)}", err=True)
