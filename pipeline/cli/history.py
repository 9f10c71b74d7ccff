"""``fiderate history PLAYER_ID``: a player's ratings over the recorded periods."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pipeline.cli.group import cli, json_flag


@cli.command()
@click.argument("player_id")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="The --out folder of `fiderate period`: reads OUT/ratings.db, as the period wrote it.",
)
@click.option(
    "--db",
    "db_path",
    type=click.Path(path_type=Path),
    default=None,
    help="History database written by `fiderate period` (its --db). Default: OUT/ratings.db "
    "with --out, else ratings.db in the current folder.",
)
@json_flag("Print JSON instead of a table.")
def history(player_id: str, out_dir: Path | None, db_path: Path | None, as_json: bool) -> None:
    """Print PLAYER_ID's rating on every list in the history database, and the results still
    waiting for a first rating. Only reads the database (never changes or creates it)."""
    from pipeline.jobs.player_history import HistoryRequest, run_history

    if out_dir is not None and db_path is not None:
        raise click.UsageError("give --out or --db, not both (--db names the database itself)")
    # The same default as `fiderate period`: the database is OUT/ratings.db.
    db_path = db_path or (out_dir or Path(".")) / "ratings.db"
    found = run_history(HistoryRequest(player_id, db_path))
    rows, pending = found.lists, found.pending
    if as_json:
        click.echo(json.dumps({"player": player_id, "lists": rows, "pending": pending}, indent=2))
        return
    click.echo(f"{player_id}  {rows[-1]['name']}")
    click.echo(f"{'list':<8} {'period':<8} {'rating':>6} {'games':>5} {'K':>3} {'flags':<5} note")
    was_rated = False
    for r in rows:
        note = "superseded" if r["superseded"] else ("list given" if r["kind"] == "input" else "")
        if r["rating"] is None and r["kind"] != "input" and was_rated:
            note = f"{note}, unrated on this list" if note else "unrated on this list"
        was_rated = was_rated or r["rating"] is not None
        rating = "" if r["rating"] is None else r["rating"]
        k = "" if r["k"] is None else r["k"]
        games = "" if r["period_games"] is None else r["period_games"]
        click.echo(
            f"{r['list']:<8} {r['period'] or '':<8} {rating!s:>6} {games!s:>5} {k!s:>3} "
            f"{r['flags']:<5} {note}".rstrip()
        )
    if pending:
        games = sum(int(p["games"]) for p in pending if not p["disregarded"])  # type: ignore[call-overload]
        click.echo(f"pending results for a first rating ({games} games counted):")
        click.echo(f"{'period':<8} {'games':>5} {'points':>6} {'opp. sum':>8} event")
        for p in pending:
            note = "  (disregarded: zero score in the first event)" if p["disregarded"] else ""
            click.echo(
                f"{p['period']!s:<8} {p['games']!s:>5} {p['points']!s:>6} "
                f"{p['opponents_sum']!s:>8} {p['event']}{note}"
            )
