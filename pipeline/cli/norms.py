"""``fiderate norms``: title norms (GM, IM, WGM, WIM) per player of an event."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pipeline.cli.group import json_flag
from pipeline.cli.options import (
    event_files_argument,
    player_ids_option,
    players_option,
    read_options,
    rules_option,
)
from pipeline.norms.rules import NORM_RULES

if TYPE_CHECKING:
    from pipeline.model import ReadOptions


@click.command()
@event_files_argument("inputs")
@players_option
@click.option(
    "--title",
    "titles",
    multiple=True,
    type=click.Choice(list(NORM_RULES), case_sensitive=False),
    help="Check only this title's norm (repeatable; default: GM, IM, WGM, WIM).",
)
@player_ids_option("Only this player (repeatable): FIDE ID, or file#rank for a player without one.")
@json_flag("Machine-readable output.")
@rules_option
@read_options
def norms(
    inputs: tuple[Path, ...],
    players: Path | None,
    titles: tuple[str, ...],
    player_ids: tuple[str, ...],
    as_json: bool,
    rules: str,
    reading: ReadOptions,
) -> None:
    """Title norms for every player of the INPUT events: games counted, the opponents' average
    with the floor adjustment, the performance, and each requirement met or missed with its
    margin (FIDE Handbook B.01; see docs/norms.md)."""
    from pipeline.jobs import norms as norms_job
    from pipeline.norms.norm_text import report_json, text_lines

    report = norms_job.norms(
        norms_job.NormsRequest(
            inputs, players, titles=titles, player_ids=player_ids, rules=rules, reading=reading
        )
    )
    if as_json:
        click.echo(json.dumps(report_json(report), indent=2, ensure_ascii=False))
    else:
        click.echo("\n".join(text_lines(report)))
