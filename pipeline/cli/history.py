"""``fiderate history PLAYER_ID``: a player's ratings over the recorded periods."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pipeline.cli.group import json_flag
from pipeline.rules.k_facts import k_words
from pipeline.rules.rating_kinds import DEFAULT_KIND, KINDS

if TYPE_CHECKING:
    from pipeline.jobs.player_history import PlayerCalculation


@click.command()
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
@click.option(
    "--period",
    default=None,
    metavar="YYYY-MM",
    help="Show that period's calculation game by game: opponent, rating, difference, PD, "
    "score, S - PD and K x (S - PD), summing to the change.",
)
@click.option(
    "--kind",
    "rating_kind",
    type=click.Choice(list(KINDS)),
    default=None,
    help="Only that kind of list (standard, rapid or blitz). Default: every kind the player is "
    "on, a table each; with --period, the kind that rated the player's games in that period "
    "(standard first).",
)
@json_flag("Print JSON instead of a table.")
def history(
    player_id: str,
    out_dir: Path | None,
    db_path: Path | None,
    period: str | None,
    rating_kind: str | None,
    as_json: bool,
) -> None:
    """Print PLAYER_ID's rating on every list in the history database (standard, rapid and
    blitz, a table each), with each period's games, score, change and the K that rated them
    (the next list's K apart), and the results still waiting for a first rating; with
    --period, that period's calculation. Only reads the database (never changes or creates
    it)."""
    from pipeline.jobs.player_history import (
        CalculationRequest,
        HistoryRequest,
        run_calculation,
        run_history,
    )

    if out_dir is not None and db_path is not None:
        raise click.UsageError("give --out or --db, not both (--db names the database itself)")
    # The same default as `fiderate period`: the database is OUT/ratings.db.
    db_path = db_path or (out_dir or Path(".")) / "ratings.db"
    if period is not None:
        calc = run_calculation(CalculationRequest(player_id, period, db_path, rating_kind))
        if as_json:
            click.echo(json.dumps(dataclasses.asdict(calc), indent=2))
        else:
            _print_calculation(calc)
        return
    found = run_history(HistoryRequest(player_id, db_path, rating_kind))
    rows, pending = found.lists, found.pending
    if as_json:
        data = {"player": player_id, "kinds": found.kinds, "lists": rows, "pending": pending}
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{player_id}  {rows[-1]['name']}")
    for kind in found.kinds:
        if len(found.kinds) > 1 or kind != DEFAULT_KIND:
            click.echo(f"{kind}:")
        _print_lists([r for r in rows if r["rating_kind"] == kind])
    if any(r["k_used"] is not None for r in rows):
        more = " --kind KIND" if found.kinds != (DEFAULT_KIND,) else ""
        click.echo(f"a period's calculation: fiderate history {player_id} --period YYYY-MM{more}")
    if pending:
        games = sum(int(p["games"]) for p in pending if not p["disregarded"])  # type: ignore[call-overload]
        click.echo(f"pending results for a first rating ({games} games counted):")
        click.echo(f"{'list':<8} {'period':<8} {'games':>5} {'points':>6} {'opp. sum':>8} event")
        for p in pending:
            note = "  (disregarded: zero score in the first event)" if p["disregarded"] else ""
            click.echo(
                f"{p['rating_kind']!s:<8} {p['period']!s:<8} {p['games']!s:>5} "
                f"{p['points']!s:>6} {p['opponents_sum']!s:>8} {p['event']}{note}"
            )


def _print_lists(rows: list[dict[str, object]]) -> None:
    """One kind's table: a row per list the player is on, oldest first."""
    # K: the K that rated the period's games; next-K: the K this list gives, for the next one.
    click.echo(
        f"{'list':<8} {'period':<8} {'rating':>6} {'games':>5} {'score':>5} {'change':>6} "
        f"{'K':>3} {'next-K':>6} {'flags':<5} note"
    )
    was_rated = False
    for r in rows:
        notes = (
            ["superseded"] if r["superseded"] else (["list given"] if r["kind"] == "input" else [])
        )
        if r["rating"] is None and r["kind"] != "input" and was_rated:
            notes.append("unrated on this list")
        if r["kind"] == "published" and not r["superseded"] and not r["calculation"]:
            notes.append("calculation not stored")
        was_rated = was_rated or r["rating"] is not None
        change = _signed(r["change"])
        click.echo(
            f"{r['list']:<8} {r['period'] or '':<8} {_blank(r['rating']):>6} "
            f"{_blank(r['period_games']):>5} {_blank(r['score']):>5} {change:>6} "
            f"{_blank(r['k_used']):>3} {_blank(r['next_k']):>6} {r['flags']:<5} "
            f"{', '.join(notes)}".rstrip()
        )


def _blank(value: object) -> str:
    return "" if value is None else str(value)


def _why(game: dict[str, object]) -> str:
    """A game's note: why its difference counted so (rate's words), then the game's own note."""
    return "; ".join(str(t) for t in (game["counted"], game["note"]) if t)


def _signed(value: object) -> str:
    """A difference (a whole number or exact decimal text) with its sign, as every face shows
    it (``rules.signs.signed``); blank when not stored."""
    from pipeline.rules.signs import signed

    return "" if value is None else signed(value if isinstance(value, int) else str(value))


def _print_calculation(c: PlayerCalculation) -> None:
    """One period's calculation as a table: each rated game, then the sums and the change."""
    click.echo(f"{c.player_id}  {c.name}: the {c.period} period, {c.rating_kind} list")
    click.echo(f"rating {c.rating}, {k_words(c.k, c.k_rule)}; {len(c.games)} rated games")
    assumed = " (assumed: the period was rated before the history stored its rules)"
    click.echo(f"rules {c.rules}{assumed if c.rules_assumed else ''}. {c.method_words}")
    head = (
        f"{'event':<24} {'rd':>3} {'opponent':<10} {'name':<20} {'opp.':>5} {'diff':>5} "
        f"{'counted':>7} {'PD':>6} {'score':>5} {'S - PD':>7} {'K x (S - PD)':>12} note"
    )
    click.echo(head)
    for g in c.games:
        click.echo(
            f"{str(g['event'])[:24]:<24} {g['round']!s:>3} {g['opponent']!s:<10} "
            f"{str(g['opponent_name'])[:20]:<20} "
            f"{_blank(g['opponent_rating']):>5} {_signed(g['gap']):>5} {_signed(g['diff']):>7} "
            f"{g['pd']!s:>6} {g['score']!s:>5} {_signed(g['s_minus_pd']):>7} "
            f"{_signed(g['k_x_s_minus_pd']):>12} {_why(g)}".rstrip()
        )
    click.echo(
        f"{'sum':<24} {'':>3} {'':<10} {'':<20} {'':>5} {'':>5} {'':>7} {c.expected:>6} "
        f"{c.score:>5} {_signed(c.sum_dev):>7} {_signed(c.change_exact):>12}"
    )
    # The words of an event's player page and of /history/calculation.
    change = _signed(c.change)
    new = "" if c.new_rating is None else f"; new rating {c.rating} {change} = {c.new_rating}"
    click.echo(
        f"change = K x sum(S - PD) = {c.k} x {_signed(c.sum_dev)} = {_signed(c.change_exact)}; "
        f"rounded once, .5 away from zero: {change}{new}"
    )
    if c.next_k is not None:
        click.echo(f"next list's K {c.next_k} (it rates the next period, not this one)")
