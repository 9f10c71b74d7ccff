"""What the per-player reports show, as text frames shared by report.xlsx and report.html: the
report model (:class:`pipeline.report.EventReport`) formatted, nothing computed.

- ``standings``: one row per player: rank, rating, K, games, points, score, expected, FIDE
  performance, exact and rounded change (an unrated player's in words), new rating, and the K
  explanation.
- ``breakdown``: one row per game side with everything an arbiter checks: gap, gap used after
  the 400-point rule and why, PD, S - PD and K x (S - PD), plus running sums for the charts.

Formatted column-wise (no per-row loop) from the model's exact integers
(``pipeline.arrays.number_text``).
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import metadata
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from pipeline.arrays.number_text import int_text, units_text
from pipeline.writers.text.output_text import RATING_LIST_COLUMNS, bool_text

if TYPE_CHECKING:
    from pipeline.report import EventReport


def _with_inserted(columns: list[str], before: dict[str, str]) -> list[str]:
    """``columns`` with ``before[c]`` put in front of each column ``c`` it names."""
    return [new for c in columns for new in ((before[c], c) if c in before else (c,))]


# The standings: the rating list's columns, ranked, with the event's points and performance.
STANDINGS_COLUMNS = [
    "rank",
    *_with_inserted(RATING_LIST_COLUMNS, {"score": "points", "change_exact": "performance"}),
]
BREAKDOWN_COLUMNS = [
    "player",
    "event",
    "round",
    "opponent",
    "opponent_name",
    "opponent_rating",
    "result",
    "rated",
    "gap",
    "gap_used",
    "counted",
    "pd",
    "dev",
    "k_dev",
    "note",
]


def context_lines(
    period: str, period_reason: str, rule_set: str, rules_reason: str, warnings: Sequence[str]
) -> list[str]:
    """Which period and rule set were used, and why; then any warning (games dated outside the
    period). Every report carries them, and the run's summary."""
    lines = [
        f"period {period}: {period_reason}",
        f"rules {rule_set}: {rules_reason}" if rules_reason else f"rules {rule_set}",
    ]
    return lines + [f"warning: {w}" for w in warnings]


def report_context(report: EventReport) -> list[str]:
    """:func:`context_lines` of the report model."""
    return context_lines(
        report.period, report.period_reason, report.rule_set, report.rules_reason, report.warnings
    )


def about_table(report: EventReport) -> pd.DataFrame:
    """report.xlsx's About sheet: the period, the rule set, why, the method, the fiderate
    version and the input files (by file name: the report is published, the organiser's
    folders are not), then any warning."""
    rows = [
        ("period", report.period),
        ("why this period", report.period_reason),
        ("rule set", report.rule_set),
        ("why this rule set", report.rules_reason or f"--rules {report.rule_set}"),
        ("method", report.method),
        ("mode", report.mode_words),
        ("fiderate version", fiderate_version()),
        ("event", report.title),
    ]
    rows += [("input file", name) for name in report.input_files]
    rows += [("warning", w) for w in report.warnings]
    return pd.DataFrame(rows, columns=["item", "value"], dtype=str)


def fiderate_version() -> str:
    """The installed package's version (what ``fiderate --version`` prints)."""
    try:
        return metadata.version("fiderate")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def standings(report: EventReport) -> pd.DataFrame:
    """The standings table as text, in the model's order; an unrated player has no change to
    show ("0.00 / 0") but the model's words for them."""
    t = report.standings
    scale = report.scale
    unrated = t["unrated_words"].ne("").to_numpy()
    table = pd.DataFrame(
        {
            "rank": t["rank"].astype(str),
            "id": t["id"],
            "name": t["name"],
            "rating": int_text(t["rating"]),
            "k": int_text(t["k"]),
            "games": t["games"].astype(str),
            "points": units_text(t["points_h"], 100, 1),
            "score": units_text(t["score_h"], 100, 1),
            "expected": units_text(t["expected_units"], scale, report.decimals),
            "performance": int_text(t["performance"]),
            "change_exact": units_text(t["change_units"], scale, 2).mask(unrated, ""),
            "change": t["change"].astype(str).mask(unrated, t["unrated_words"]),
            "new_rating": int_text(t["new_rating"]),
            "k_rule": t["k_rule"],
            "k_assumed": bool_text(t["k_assumed"]),
            "federation": t["federation"],
            "title": t["title"],
        }
    )
    return table[STANDINGS_COLUMNS]


def breakdown(report: EventReport) -> pd.DataFrame:
    """Every side of every game, in the model's player order, with the per-game arithmetic as
    text; sequential mode adds the running rating each game used."""
    g = report.games
    scale, decimals = report.scale, report.decimals
    table = pd.DataFrame(
        {
            "player": g["player"],
            "event": g["event"],
            "round": g["round"],
            "opponent": g["opponent"],
            "opponent_name": g["opponent_name"],
            "opponent_rating": int_text(g["opponent_rating"]),
            "result": g["result"],
            "rated": np.where(g["rated"].to_numpy(), "yes", "no"),
            "gap": int_text(g["gap"]),
            "gap_used": int_text(g["gap_used"]),
            "counted": g["counted"],
            "pd": units_text(g["pd_units"], scale, decimals),
            "dev": units_text(g["dev_units"], scale, decimals),
            "k_dev": units_text(g["k_dev_units"], scale, 2),
            "note": g["note"],
        }
    )
    if report.sequential:
        table.insert(8, "rating_used", int_text(g["rating_used"]))
    # Running sums for the expected-vs-actual charts (drawn only: never written as numbers).
    table["cum_expected"] = g["cum_expected_units"] / scale
    table["cum_score"] = g["cum_score_h"] / 100
    return table
