"""What the per-player reports show, as text frames shared by report.xlsx and report.html.

- ``standings``: one row per player: rank, rating, K, games, points, score, expected, FIDE
  performance, exact and rounded change, new rating, and the K explanation.
- ``breakdown``: one row per game side with everything an arbiter checks: gap, gap used after
  the 400-point rule, PD, S - PD and K x (S - PD), plus running sums for the charts.

The order, the ranks, the points and the performance come computed (``grouper.standings``,
run before any report is written); here they are formatted column-wise (no per-row loop) from
the pipeline's exact integers (``pipeline.arrays.number_text``).
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.arrays.number_text import int_text, pd_decimals, units_text
from pipeline.file_names import shown_names
from pipeline.model import RatedPeriod, Standings
from pipeline.rules.modes import SEQUENTIAL_LABEL
from pipeline.rules.sets import get_rules
from pipeline.writers.text.output_text import RATING_LIST_COLUMNS


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
    "pd",
    "dev",
    "k_dev",
    "note",
]


def mode_note(result: RatedPeriod) -> str:
    """'' for the FIDE method, else the label every report must carry."""
    return SEQUENTIAL_LABEL if result.options.mode == "sequential" else ""


def context_lines(result: RatedPeriod) -> list[str]:
    """Which period and rule set were used, and why; then any warning (games dated outside the
    period). Every report carries them."""
    rule_set = result.rule_set or result.options.rules
    lines = [
        f"period {result.period}: {result.period_reason}",
        f"rules {rule_set}: {result.rules_reason}" if result.rules_reason else f"rules {rule_set}",
    ]
    return lines + [f"warning: {w}" for w in result.warnings]


_MODES = {
    "fide": "fide: every game against the rating at the start of the period",
    "sequential": "sequential: the rating updated after every game (not the FIDE method)",
}


def about_table(result: RatedPeriod, inputs: Sequence[Path | str] = ()) -> pd.DataFrame:
    """report.xlsx's About sheet: the period, the rule set, why, the method, the fiderate
    version and the input files (``inputs``, else the event sources), then any warning."""
    o = result.options
    rows = [
        ("period", result.period),
        ("why this period", result.period_reason),
        ("rule set", result.rule_set or o.rules),
        ("why this rule set", result.rules_reason or f"--rules {o.rules}"),
        ("method", o.method),
        ("mode", _MODES.get(o.mode, o.mode)),
        ("fiderate version", fiderate_version()),
    ]
    # The file names only: the report is published, the organiser's folders are not.
    rows += [("input file", name) for name in shown_names(inputs or result.sources).values()]
    rows += [("warning", w) for w in result.warnings]
    return pd.DataFrame(rows, columns=["item", "value"], dtype=str)


def fiderate_version() -> str:
    """The installed package's version (what ``fiderate --version`` prints)."""
    try:
        return metadata.version("fiderate")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


ORDER_BY_FILE = "in the event file's own final ranks (its tie-break order)"
ORDER_BY_POINTS = "by points (all games), then rating, then id"


def standings_order(result: RatedPeriod) -> str:
    """Which order :func:`standings` shows, in words."""
    return ORDER_BY_POINTS if result.event_ranks is None else ORDER_BY_FILE


def standings(result: RatedPeriod, computed: Standings) -> pd.DataFrame:
    """The standings table: every player in ``computed``'s order (``grouper.standings``: the
    event file's own final ranks when it gives them, else by points, rating and id)."""
    t = result.totals
    scale = result.scale
    order, ranks = computed.order, computed.ranks
    table = pd.DataFrame(
        {
            "rank": "",
            "id": t["id"],
            "name": t["name"],
            "rating": int_text(t["rating"]),
            "k": int_text(t["k"]),
            "games": t["games"].astype(str),
            "points": units_text(pd.Series(computed.points_h), 100, 1).to_numpy(),
            "score": units_text(t["score_h"], 100, 1),
            "expected": units_text(t["expected_units"], scale, pd_decimals(scale)),
            "performance": int_text(computed.performance).to_numpy(),
            "change_exact": units_text(t["change_units"], scale, 2),
            "change": t["change"].astype(str),
            "new_rating": int_text(t["new_rating"]),
            "k_rule": k_explanations(result).to_numpy(),
            "federation": t["federation"],
            "title": t["title"],
        }
    ).iloc[order]
    table["rank"] = ranks.astype(str)
    return table[STANDINGS_COLUMNS].reset_index(drop=True)


def k_explanations(result: RatedPeriod) -> pd.Series:
    """Why each player has the K used: the rule, and the 700-rule arithmetic when it applied."""
    t = result.totals
    cap = get_rules(result.options.rules).k.period_cap
    rule = t["k_reason"]
    k = int_text(t["k"])
    base = int_text(t["k_base"])
    games = t["games"].astype(str)
    product = (t["k_base"].fillna(0).astype(np.int64) * t["games"]).astype(str)
    reduced = t["k_700"]
    plain = "K " + k + ": " + rule
    seven = (
        plain
        + "; 700 rule: K "
        + base
        + " x "
        + games
        + " games = "
        + product
        + f" > {cap}, so K = floor({cap} / "
        + games
        + ") = "
        + k
    )
    text = plain.where(~reduced, seven).where(t["k"].notna(), rule)
    return text.astype(str)


def breakdown(result: RatedPeriod, computed: Standings) -> pd.DataFrame:
    """Every side of every game, in player order (``computed.side_order``), with the per-game
    arithmetic."""
    s = result.sides
    scale = result.scale
    decimals = pd_decimals(scale)
    t = result.totals.set_index("id")
    s = s.iloc[computed.side_order]
    k = s["player"].map(t["k"]).astype("Int64")
    names = s["opponent"].map(t["name"]).astype("string").fillna("").astype(str)
    own = s["rating_used"] if "rating_used" in s else s["player_rating"]
    gap = (own - s["opponent_rating"]).where(s["rated"].to_numpy())
    k_dev = (k.fillna(0) * s["dev_units"]).where(s["rated"].to_numpy())
    rated = s["rated"].to_numpy(dtype=bool)
    table = pd.DataFrame(
        {
            "player": s["player"],
            "event": s["event"],
            "round": s["round"],
            "opponent": s["opponent"],
            "opponent_name": names,
            "opponent_rating": int_text(s["opponent_rating"]),
            "result": s["result"],
            "rated": np.where(rated, "yes", "no"),
            "gap": int_text(gap),
            "gap_used": int_text(s["diff"]),
            "pd": units_text(s["pd_units"], scale, decimals),
            "dev": units_text(s["dev_units"], scale, decimals),
            "k_dev": units_text(k_dev, scale, 2),
            "note": s["note"],
        }
    )
    if "rating_used" in s:
        table.insert(8, "rating_used", int_text(s["rating_used"]))
    # Running sums over each player's rated games, for the expected-vs-actual charts.
    pd_units = s["pd_units"].to_numpy(dtype=np.int64, na_value=0) * rated
    score_h = s["score_h"].to_numpy(dtype=np.int64) * rated
    table["cum_expected"] = (
        pd.Series(pd_units, index=s.index).groupby(s["player"].to_numpy()).cumsum() / scale
    )
    table["cum_score"] = (
        pd.Series(score_h, index=s.index).groupby(s["player"].to_numpy()).cumsum() / 100
    )
    return table.reset_index(drop=True)
