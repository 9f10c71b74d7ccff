"""``fiderate site``: the rating site of a history database, as static files."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pipeline.cli.group import json_flag
from pipeline.cli.options import WholeRange


@click.command()
@click.option(
    "--db",
    "db_path",
    type=click.Path(path_type=Path, dir_okay=False),
    default=Path("ratings.db"),
    show_default=True,
    help="History database written by `fiderate period`.",
)
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="The site's folder: put it on any web server, or open index.html from disk.",
)
@click.option(
    "--jobs",
    type=WholeRange(1, 64),
    default=None,
    help="Processes the write may use: the list months are made by workers beside the "
    "profiles when there are enough to make. [default: the machine's cores, at most 4; "
    "1: one process]",
)
@json_flag("Print what was written as JSON.")
def site(db_path: Path, out: Path, jobs: int | None, as_json: bool) -> None:
    """Write the rating site of the history (home, a page per list month, top lists, a
    profile per player, each period's calculation, search, the lists to download) into OUT
    as static files. Files whose bytes did not change are not rewritten: run it after every
    `fiderate period` to refresh the site."""
    from pipeline.site.job import SiteRequest, run_site

    done = run_site(SiteRequest(db_path, out, jobs))
    if as_json:
        summary = {
            "out": str(done.out),
            "kinds": list(done.kinds),
            "months": done.months,
            "written": done.written,
            "unchanged": done.unchanged,
            "removed": done.removed,
            "workers": done.workers,
        }
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(
        f"{out}: {len(done.written)} files written ({done.bytes_written:,} bytes), "
        f"{done.unchanged} unchanged, {len(done.removed)} removed; {done.months} lists "
        f"({', '.join(done.kinds) or 'none'})"
    )
