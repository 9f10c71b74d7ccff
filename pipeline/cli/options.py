"""Options shared by several commands."""

from __future__ import annotations

import click

from pipeline.rules import DEFAULT_RULES, RULE_SETS

rules_option = click.option(
    "--rules",
    type=click.Choice(sorted(RULE_SETS)),
    default=DEFAULT_RULES,
    show_default=True,
    help="Rule set: standard (from 2025-10-01), standard-2024, rapid, blitz.",
)
method_option = click.option(
    "--method",
    type=click.Choice(["fide", "formula"]),
    default="fide",
    show_default=True,
    help="fide: table 8.1.2 (the FIDE method). formula: logistic expectation (clubs, not FIDE).",
)
k_option = click.option(
    "--k", "k", type=click.IntRange(1, 100), default=None, help="Force one K for everybody (club use)."
)
k_cap_option = click.option(
    "--k-cap", is_flag=True, help="Apply the 700 rule to a forced --k as well."
)
period_option = click.option(
    "--period",
    metavar="YYYY-MM",
    default=None,
    help="Rating period (decides junior age); default: the current month.",
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
    "--sheet", default=None, help="XLSX: the sheet to read (default: the first that fits)."
)
