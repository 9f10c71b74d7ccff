"""Options shared by several commands."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from pipeline.rules.sets import DEFAULT_RULES, FAMILIES, RULE_SETS

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def choice_option(flag: str, choices: Sequence[str], help: str, **more: Any) -> Decorator:
    """``flag`` taking one of ``choices``; the default (shown in --help) is the first choice."""
    return click.option(
        flag,
        type=click.Choice(list(choices)),
        default=more.pop("default", choices[0]),
        show_default=True,
        help=help,
        **more,
    )


def path_option(*names: str, help: str, **more: Any) -> Decorator:
    """An option naming a file or folder (a ``Path``; none when not given)."""
    return click.option(*names, type=click.Path(path_type=Path), help=help, **more)


def player_ids_option(help: str) -> Decorator:
    """``--player ID`` (repeatable) into ``player_ids``."""
    return click.option("--player", "player_ids", multiple=True, metavar="ID", help=help)


def event_files_argument(name: str) -> Decorator:
    """The event files (or folders of them) a command reads, one or more, into ``name``."""
    return click.argument(name, nargs=-1, required=True, type=click.Path(path_type=Path))


players_option = path_option(
    "--players",
    help="The rating list in force: CSV/XLSX (id, name, rating, ...) or a FIDE TXT/XML list "
    "(the --rules column); it decides over the ratings an event file carries.",
)
rules_option = choice_option(
    "--rules",
    [*FAMILIES, *(n for n in RULE_SETS if n not in FAMILIES)],
    default=DEFAULT_RULES,
    help="standard, rapid or blitz: the rules in force in the rating period (by its date). "
    "An era's name (e.g. standard-2024, standard-2022, rapid-2022) forces that era. "
    "See docs/rules-by-era.md.",
)
method_option = choice_option(
    "--method",
    ["fide", "formula"],
    help="fide: table 8.1.2 (the FIDE method). formula: logistic expectation (clubs, not FIDE).",
)
xlsx_option = click.option(
    "--xlsx/--no-xlsx",
    default=None,
    help="Write the spreadsheets regardless of size (default: up to 10,000 players).",
)
k_option = click.option(
    "--k",
    "k",
    type=click.IntRange(1, 100),
    default=None,
    help="Force one K for everybody (club use).",
)
k_cap_option = click.option(
    "--k-cap", is_flag=True, help="Apply the 700 rule to a forced --k as well."
)
period_option = click.option(
    "--period",
    metavar="YYYY-MM",
    default=None,
    help="Rating period (decides the rules and junior age); default: the month the events "
    "end in (TRF 052, else the last game date). Games dated outside it are warned about.",
)
mode_option = choice_option(
    "--mode",
    ["fide", "sequential"],
    help="fide: every game against the start rating. sequential: the rating is updated after "
    "every game, as some club calculators do (NOT the FIDE method).",
)

_SCORES = {
    "1": 100,
    "1.0": 100,
    "win": 100,
    "w": 100,
    "1-0": 100,
    "0.5": 50,
    ".5": 50,
    "1/2": 50,
    "½": 50,
    "=": 50,
    "draw": 50,
    "d": 50,
    "1/2-1/2": 50,
    "0": 0,
    "0.0": 0,
    "loss": 0,
    "l": 0,
    "0-1": 0,
}


def parse_score_h(text: str, hint: str) -> int:
    """A points total such as 3.5 in hundredths (must be a multiple of 0.5)."""
    try:
        halves = float(text) * 2
    except ValueError:
        halves = -1.0
    if halves < 0 or halves != int(halves):
        raise click.BadParameter(f"{text!r}: write a score in halves, e.g. 3.5", param_hint=hint)
    return int(halves) * 50


def _parse_vs(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> list[tuple[int, int | None]]:
    games: list[tuple[int, int | None]] = []
    for value in values:
        rating_text, _, result_text = value.partition(":")
        try:
            rating = int(rating_text)
        except ValueError:
            raise click.BadParameter(
                f"{value!r}: write RATING:RESULT, e.g. 1800:1, 1800:0.5 or 1800:0",
                param_hint="--vs",
            ) from None
        if not result_text:
            games.append((rating, None))
            continue
        score = _SCORES.get(result_text.strip().lower())
        if score is None:
            raise click.BadParameter(
                f"{value!r}: the result must be 1, 0.5 or 0 (also win/draw/loss, 1-0, =, 0-1)",
                param_hint="--vs",
            )
        games.append((rating, score))
    return games


vs_option = click.option(
    "--vs",
    multiple=True,
    callback=_parse_vs,
    metavar="RATING[:RESULT]",
    help="A game: opponent's rating and your result (1, 0.5, 0). Repeat for each game.",
)

input_format_option = click.option(
    "--input-format",
    type=click.Choice(["games", "individual", "trf", "crosstable", "grid"]),
    default=None,
    help="Read the inputs as this format (default: detected from content and extension).",
)
column_option = click.option(
    "--column",
    "columns",
    multiple=True,
    metavar="NAME=ROLE",
    help="Crosstables: the role of a column whose header is not recognized, e.g. 'Rtg Int=rating' "
    "(roles: number, name, rating, id, federation, birth_year, title, sex, points, round, ignore). "
    "Repeatable.",
)
sheet_option = click.option(
    "--sheet",
    default=None,
    metavar="NAME",
    help="XLSX: the sheet to read, by name or number (1 = first); default: the first that fits.",
)


def read_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--input-format, --column and --sheet, handed to ``command`` as one ``reading``
    (:class:`pipeline.model.ReadOptions`, imported on call: ``--help`` stays instant)."""

    @functools.wraps(command)
    def with_reading(
        *args: Any,
        input_format: str | None,
        columns: tuple[str, ...],
        sheet: str | None,
        **more: Any,
    ) -> Any:
        from pipeline.model import ReadOptions

        return command(*args, reading=ReadOptions(input_format, sheet, columns), **more)

    return input_format_option(column_option(sheet_option(with_reading)))
