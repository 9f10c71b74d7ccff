"""``fiderate calc``: what one player's games are worth (a rating calculator)."""

from __future__ import annotations

import json

import click

from pipeline.calculator.calc_input import BIRTH_YEAR, CAREER_GAMES, RATING, K
from pipeline.cli.group import json_flag
from pipeline.cli.options import (
    WholeRange,
    method_option,
    mode_option,
    period_option,
    rules_option,
    vs_option,
)
from pipeline.rules.sets import KPrecedence

# The K precedence the help text describes (the standard rule sets share it).
_K = KPrecedence()


@click.command()
@click.argument("rating", type=WholeRange(*RATING))
@vs_option
@click.option(
    "--k",
    "k",
    type=WholeRange(*K),
    default=None,
    help="K on the player's card (the 700 rule still applies). Default: FIDE's precedence "
    f"from the options below ({_K.k_ever_2400} once {_K.ever_threshold} is reached, "
    f"{_K.k_junior} for a junior below {_K.junior_rating_below} or with fewer than "
    f"{_K.new_player_games_below} games, else {_K.k_default}).",
)
@click.option(
    "--opp-k",
    type=WholeRange(*K),
    default=None,
    help="Opponents' K (default: --k if given, else by precedence from their rating).",
)
@click.option(
    "--junior",
    is_flag=True,
    help=f"The player is {_K.junior_max_age} or younger this year "
    f"(K {_K.k_junior} below {_K.junior_rating_below}).",
)
@click.option("--birth-year", type=WholeRange(*BIRTH_YEAR), default=None, help="Decides junior K.")
@click.option(
    "--games",
    "career_games",
    type=WholeRange(*CAREER_GAMES),
    default=None,
    help="Rated games completed before (fewer than 30: K 40).",
)
@click.option("--ever-2400", is_flag=True, help="The published rating has reached 2400 (K 10).")
@method_option
@rules_option
@mode_option
@period_option
@json_flag("Machine-readable output.")
def calc(
    rating: int,
    vs: tuple[tuple[int, int | None], ...],
    k: int | None,
    opp_k: int | None,
    junior: bool,
    birth_year: int | None,
    career_games: int | None,
    ever_2400: bool,
    method: str,
    rules: str,
    mode: str,
    period: str | None,
    as_json: bool,
) -> None:
    """Rate RATING's games: --vs OPPONENT:RESULT for each (RESULT 1, 0.5 or 0; also 1-0, =, ...).

    One --vs without a result shows every possible result (win, draw, loss).
    """
    from pipeline.calculator.calc_text import (
        calc_json,
        calc_lines,
        every_result_json,
        every_result_lines,
    )
    from pipeline.jobs import calculators
    from pipeline.jobs.calculators import CalcRequest, KInput

    if not vs:
        raise click.UsageError("give at least one game with --vs RATING:RESULT, e.g. --vs 1800:1")
    kin = KInput(k, opp_k, junior, birth_year, career_games, ever_2400)
    opponents = tuple(o for o, _ in vs)
    results = [s for _, s in vs]
    if any(s is None for s in results):
        if len(vs) != 1:
            raise click.UsageError(
                "only a single --vs may leave out the result (every possible result)"
            )
        outcomes = calculators.every_outcome(
            CalcRequest(rating, opponents, (), kin, rules, method, mode, period)
        )
        out = every_result_json(outcomes) if as_json else every_result_lines(outcomes)
    else:
        c = calculators.calc(
            CalcRequest(
                rating,
                opponents,
                tuple(results),  # type: ignore[arg-type]  # every result given in this branch
                kin,
                rules,
                method,
                mode,
                period,
            )
        )
        out = calc_json(c) if as_json else calc_lines(c)
    if as_json:
        click.echo(json.dumps(out, indent=2))
    else:
        click.echo("\n".join(out))
