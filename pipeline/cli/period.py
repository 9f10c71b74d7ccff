"""``fiderate period``: the next rating list from the list in force and a period's events."""

from __future__ import annotations

import dataclasses
import datetime
import json
import sys
from pathlib import Path

import click

from pipeline.cli.group import json_flag
from pipeline.cli.options import path_option, rules_option, xlsx_option
from pipeline.errors import RunError, printable


def _earlier_lists(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> tuple[tuple[str, Path], ...]:
    from pipeline.jobs.period.earlier_lists import parse_spec

    try:
        return tuple(parse_spec(v) for v in values)
    except RunError as exc:
        raise click.BadParameter(str(exc)) from None


@click.command()
@path_option(
    "--list",
    "list_path",
    default=None,
    help="The rating list in force at the start of the period (CSV/XLSX; a list this "
    "command wrote reads back). Default, once the history has one: the last list it published.",
)
@path_option(
    "--events",
    required=True,
    multiple=True,
    help="Event files, or folders of them (repeat the option or list several paths).",
)
@click.option(
    "--period",
    default=None,
    metavar="YYYY-MM",
    help="The rating period to rate. Default, once the history has a list: the month after the "
    "last one published and every month after it, each once its last day has passed.",
)
@click.option(
    "--until",
    default=None,
    metavar="YYYY-MM",
    help="Publish every month due up to this one (no later), in order, each with the events "
    "dated in it (with --period: from that month on).",
)
@click.option(
    "--today",
    default=None,
    envvar="FIDERATE_TODAY",
    hidden=True,
    type=click.DateTime(["%Y-%m-%d"]),
    help="The date a scheduled run takes as today (tests; env FIDERATE_TODAY).",
)
@path_option(
    "--out",
    "out_dir",
    required=True,
    help="Output folder (the new list, the report, and ratings.db by default).",
)
@path_option(
    "--db",
    "db_path",
    default=None,
    help="History database (default: OUT/ratings.db; `fiderate history --out OUT` reads it).",
)
@click.option(
    "--replace",
    is_flag=True,
    help="Rate a period that was already published again; the old list stays in the "
    "history, marked superseded.",
)
@click.option(
    "--trust-event-ratings",
    is_flag=True,
    help="Use ratings printed on the event files instead of the list in force.",
)
@xlsx_option
@click.option(
    "--earlier-list",
    "earlier_lists",
    multiple=True,
    metavar="YYYY-MM=PATH",
    callback=_earlier_lists,
    help="The list in force in an earlier month, for an event that started then and whose "
    "list the history lacks (repeatable; recorded in the history for later runs).",
)
@rules_option
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
@json_flag("Print a machine-readable summary (JSON).")
@click.argument("more_events", nargs=-1, type=click.Path(path_type=Path))
def period(
    list_path: Path | None,
    events: tuple[Path, ...],
    period: str | None,
    until: str | None,
    today: datetime.datetime | None,
    out_dir: Path,
    db_path: Path | None,
    replace: bool,
    trust_event_ratings: bool,
    xlsx: bool | None,
    earlier_lists: tuple[tuple[str, Path], ...],
    rules: str,
    quiet: bool,
    as_json: bool,
    more_events: tuple[Path, ...],
) -> None:
    """Rate one rating period and publish the next list (MORE_EVENTS: further event paths)."""
    from pipeline.cli.console import DelayedProgress
    from pipeline.cli.period_json import outcome_data
    from pipeline.jobs.period import PeriodRequest, run_period

    request = PeriodRequest(
        list_path=list_path,
        events=tuple(events) + tuple(more_events),
        period=period,
        out_dir=out_dir,
        db_path=db_path,
        replace=replace,
        trust_event_ratings=trust_event_ratings,
        rules=rules,
        xlsx=xlsx,
        earlier_lists=earlier_lists,
        command=" ".join(["fiderate", *sys.argv[1:]]),
        until=until,
        today=today.date() if today is not None else None,
    )
    # A spinner with the stage on stderr, only on a terminal and once the run takes a second.
    with DelayedProgress(enabled=not quiet) as progress:
        outcome = run_period(dataclasses.replace(request, progress=progress.board))
    if as_json:
        click.echo(json.dumps(outcome_data(outcome), indent=2))
        return
    told = outcome.recovered or outcome.nothing_to_do  # the notes are the answer
    if not quiet:
        for line in outcome.notes if told else []:
            click.echo(printable(line))
        for month in outcome.months or (outcome,):
            if not told and month.report is not None:
                for _, row in month.report.summary.iterrows():
                    click.echo(f"{row['item']}: {row['value']}")
                click.echo(f"run #{month.run_id} recorded in {outcome.database}")
                click.echo("written:")
                for path in month.written:
                    click.echo(f"  {path}")
    if not told:
        for note in outcome.notes:
            click.echo(f"note: {printable(note)}", err=True)
