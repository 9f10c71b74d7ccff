"""``fiderate table``: the win-expectancy table (formula and FIDE table 8.1.2)."""

from __future__ import annotations

import json

import click

from pipeline.cli.group import json_flag
from pipeline.cli.options import Fraction01, WholeRange, rules_option
from pipeline.jobs.calculators import MAX_GAP


@click.command()
@click.option(
    "--k",
    "k",
    type=WholeRange(1, 100),
    default=20,
    show_default=True,
    help="K for the worth columns.",
)
@click.option(
    "--step", type=WholeRange(1, MAX_GAP), default=50, show_default=True, help="Gap step."
)
@click.option(
    "--max",
    "max_gap",
    type=WholeRange(0, MAX_GAP),
    default=800,
    show_default=True,
    help="Largest gap.",
)
@click.option("--cap", is_flag=True, help="Apply the rule set's 400-point rule to both sides.")
@click.option(
    "--expect",
    type=Fraction01(),
    default=None,
    help="Instead: the gap at which the favourite expects this score (e.g. 0.75).",
)
@rules_option
@json_flag("Machine-readable output (exact values).")
def table(
    k: int, step: int, max_gap: int, cap: bool, expect: float | None, rules: str, as_json: bool
) -> None:
    """The favourite's expected score for each rating gap, and what each result is worth."""
    from pipeline.calculator.calc_text import expect_json, expect_lines, table_json, table_lines

    if expect is not None:
        if as_json:
            click.echo(json.dumps(expect_json(expect), indent=2))
        else:
            click.echo("\n".join(expect_lines(expect)))
        return
    from pipeline.jobs import calculators

    t = calculators.table(calculators.TableRequest(k, step, max_gap, rules, cap))
    if as_json:
        click.echo(json.dumps(table_json(t), indent=2))
    else:
        click.echo("\n".join(table_lines(t)))
