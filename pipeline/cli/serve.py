"""``fiderate serve``: the web pages (calculator, rate an event, history) on a local server."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on "
              "(the default serves this computer only).")  # fmt: skip
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--history",
    "history",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="History database of `fiderate period` (its ratings.db), shown read-only.",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Also answer requests for this host name (repeatable): the name a reverse proxy "
    "passes on. By default only this computer's names and --host are answered.",
)
def serve(host: str, port: int, history: Path | None, allow_hosts: tuple[str, ...]) -> None:
    """Serve the calculator, "rate an event" and the history pages in a browser."""
    from pipeline.web import serve as run_server

    if history is not None and not history.is_file():
        raise click.BadParameter(f"{str(history)!r} is not a file", param_hint="--history")
    click.echo(f"fiderate serve: http://{host}:{port}/ (Ctrl+C stops it)", err=True)
    run_server(host, port, history, allow_hosts)
