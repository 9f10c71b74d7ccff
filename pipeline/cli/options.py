"""Options shared by several commands."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import click

from pipeline.calculator.calc_input import (
    MAX_GAMES,
    Game,
    GamesError,
    Whole,
    read_games,
    read_whole,
)
from pipeline.errors import UsageError, clip
from pipeline.rules.sets import DEFAULT_RULES, FAMILIES, RULE_SETS

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]

# Numbers on the command line are ASCII digits (pipeline.calculator.calc_input says why); whole
# numbers are read by the calculator's reader, for every command.
_DECIMAL = re.compile(r"[0-9]*\.?[0-9]+|[0-9]+\.")


def ascii_decimal(text: str) -> Decimal | None:
    """``text`` as a non-negative decimal in ASCII digits (3.5, .5, 3), else None (no exponent,
    no nan or inf)."""
    text = text.strip()
    return Decimal(text) if _DECIMAL.fullmatch(text) else None


class WholeRange(click.IntRange):
    """click's IntRange, for ASCII digits only, read (and refused, in the same words) as the web
    calculator reads its fields."""

    def __init__(self, low: int, high: int) -> None:
        super().__init__(low, high)
        self.bounds = Whole(low, high)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return super().convert(value, param, ctx)
        try:
            return read_whole(value, self.bounds)
        except UsageError as exc:
            self.fail(str(exc), param, ctx)


class Fraction01(click.ParamType):
    """A decimal strictly between 0 and 1, in ASCII digits (0.75, .75), as a float."""

    name = "decimal"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, float):
            return value
        number = ascii_decimal(str(value))
        if number is None or not 0 < number < 1:
            self.fail(
                f"{value!r}: write a decimal between 0 and 1 (not 0 or 1), e.g. 0.75", param, ctx
            )
        return float(str(number))


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
    help="standard, rapid or blitz: the rules in force in the rating period (those of the FIDE "
    "list its games were rated for: until 2009-06 a quarter's games went to one list). "
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
    type=WholeRange(1, 100),
    default=None,
    help="Force one K for everybody (club use).",
)
k_cap_option = click.option(
    "--k-cap", is_flag=True, help="Apply the 700 rule to a forced --k as well."
)


def _check_period(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A bad ``--period`` is a usage error when the command line is read (exit 2)."""
    if value is None:
        return None
    from pipeline.rules.periods import resolve_period

    try:
        return resolve_period(value)
    except UsageError as exc:
        raise click.BadParameter(str(exc).removeprefix("--period "), param=param) from None


period_option = click.option(
    "--period",
    metavar="YYYY-MM",
    default=None,
    callback=_check_period,
    help="Rating period, 1971-01 to next year (decides the rules and junior age); default: the "
    "month the events end in (TRF 052, else the last game date). Games dated outside it are "
    "warned about.",
)
mode_option = choice_option(
    "--mode",
    ["fide", "sequential"],
    help="fide: every game against the start rating. sequential: the rating is updated after "
    "every game, as some club calculators do (NOT the FIDE method).",
)


def parse_score_h(text: str, hint: str) -> int:
    """A points total such as 3.5 in hundredths (must be a multiple of 0.5)."""
    points = ascii_decimal(text)
    if points is None or (points * 2) % 1:
        raise click.BadParameter(f"{text!r}: write a score in halves, e.g. 3.5", param_hint=hint)
    return int(points * 100)


def _parse_vs(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> list[Game]:
    """Every ``--vs RATING[:RESULT]`` read as the web calculator reads its rows (all the bad ones
    named at once), at most ``MAX_GAMES`` of them."""
    try:
        typed = (value.partition(":") for value in values)
        return read_games([(rating, result) for rating, _, result in typed])
    except GamesError as exc:
        bad = "; ".join(f"{clip(values[p.number - 1])!r}: {p.message}" for p in exc.problems)
        hint = " (each --vs is RATING:RESULT, e.g. 1800:1, 1800:0.5 or 1800:0)"
        raise click.BadParameter(bad + hint, param_hint="--vs") from None
    except UsageError as exc:
        raise click.BadParameter(str(exc), param_hint="--vs") from None


vs_option = click.option(
    "--vs",
    multiple=True,
    callback=_parse_vs,
    metavar="RATING[:RESULT]",
    help="A game: opponent's rating and your result (1, 0.5, 0). Repeat for each game "
    f"(at most {MAX_GAMES:,}).",
)

input_format_option = click.option(
    "--input-format",
    type=click.Choice(["games", "individual", "trf", "crosstable", "grid"]),
    default=None,
    help="Read the inputs as this format (default: detected from content and extension).",
)


def _check_columns(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> tuple[str, ...]:
    """A bad ``--column`` is a usage error when the command line is read (exit 2), whatever
    the files turn out to be."""
    if values:
        from pipeline.jobs.column_roles import check_column_roles

        try:
            check_column_roles(values)
        except UsageError as exc:
            raise click.BadParameter(str(exc).removeprefix("--column "), param=param) from None
    return values


column_option = click.option(
    "--column",
    "columns",
    multiple=True,
    callback=_check_columns,
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
