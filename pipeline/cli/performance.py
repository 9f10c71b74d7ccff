"""``fiderate performance``: performance rating (FIDE, and the linear approximation)."""

from __future__ import annotations

import json

import click

from pipeline.calculator.calc_input import read_rating
from pipeline.cli.group import json_flag
from pipeline.cli.options import parse_score_h, vs_option
from pipeline.errors import UsageError


@click.command()
@click.option("--score", default=None, help="Points scored, e.g. 3.5 (with --opponents).")
@click.option(
    "--opponents", default=None, help="Opponents' ratings, comma-separated: 1620,1480,..."
)
@vs_option
@json_flag("Machine-readable output.")
def performance(
    score: str | None, opponents: str | None, vs: tuple[tuple[int, int | None], ...], as_json: bool
) -> None:
    """Performance rating from --score and --opponents, or from --vs RATING:RESULT games."""
    from pipeline.calculator.calc_text import performance_json, performance_lines
    from pipeline.jobs import calculators

    if vs and (score is not None or opponents is not None):
        raise click.UsageError("use either --vs or --score with --opponents, not both")
    if vs:
        if any(s is None for _, s in vs):
            raise click.UsageError("every --vs needs a result here, e.g. --vs 1620:1")
        ratings = [r for r, _ in vs]
        score_h = sum(s for _, s in vs if s is not None)
    elif score is not None and opponents is not None:
        ratings = _ratings(opponents)
        score_h = parse_score_h(score, "--score")
    else:
        raise click.UsageError("give --score and --opponents, or --vs RATING:RESULT for each game")
    perf = calculators.performance(calculators.PerformanceRequest(tuple(ratings), score_h))
    click.echo(
        json.dumps(performance_json(perf), indent=2)
        if as_json
        else "\n".join(performance_lines(perf))
    )


def _ratings(opponents: str) -> list[int]:
    """``--opponents 1620,1480,...``: each read as ``--vs`` reads a rating, all bad ones named."""
    ratings, bad = [], []
    for text in (x for x in opponents.split(",") if x.strip()):
        try:
            ratings.append(read_rating(text))
        except UsageError as exc:
            bad.append(str(exc))
    if bad:
        raise click.BadParameter("; ".join(bad), param_hint="--opponents")
    return ratings
