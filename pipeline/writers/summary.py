"""The short summary printed after a run: what was rated, the biggest movers, where the files are.

``summary_data`` is the machine-readable form (``rate --json``); ``summary_lines`` the plain text
printed when the output is not a terminal; ``pipeline.cli.console`` draws the same data with rich.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import pandas as pd

from pipeline.model import ListMatch, RatedPeriod
from pipeline.rules.k_facts import ASSUMED_FIX
from pipeline.rules.modes import mode_label
from pipeline.writers import WriteReport, rating_list_table
from pipeline.writers.text.report_text import context_lines

# The movers' columns: alignment and least width. A column widens to its widest value (an id
# such as "generated-60p-cr-only#40" is wider than a FIDE id), so each header stays above its
# values.
_COLUMNS = [
    ("id", ">", 10),
    ("name", "<", 4),
    ("rating", ">", 6),
    ("k", ">", 3),
    ("games", ">", 5),
    ("score", ">", 5),
    ("expected", ">", 8),
    ("change_exact", ">", 12),
    ("change", ">", 6),
    ("new_rating", ">", 10),
]


def marked_k(record: dict[str, str]) -> str:
    """The K of a summary row, with * when it was assumed (the run's warning says why)."""
    return record["k"] + ("*" if record["k_assumed"] == "true" else "")


def movers(result: RatedPeriod, count: int = 5) -> pd.DataFrame:
    """Players with rated games, biggest gain first; only the top and bottom ``count`` if many."""
    table = rating_list_table(result)
    played = result.totals["games"].to_numpy() > 0
    order = result.totals.loc[played, "change_units"].sort_values(ascending=False, kind="stable")
    table = table.loc[order.index]
    if len(table) > 2 * count:
        table = pd.concat([table.head(count), table.tail(count)])
    return table


def list_match_lines(match: ListMatch, all_players: bool) -> list[str]:
    """What the run says about --players: one line, every number a count of the files read."""
    extra = match.list_players - match.on_list
    line = (
        f"players list: {match.on_list:,} of the {match.event_players:,} event players are on it; "
        f"{match.ratings_differ:,} ratings on the event files differ from it (the list's are used)"
    )
    if extra:
        line += (
            f"; the other {extra:,} listed players are written too"
            if all_players
            else f"; the other {extra:,} listed players are not written (--all-players keeps them)"
        )
    return [line]


def _context(result: RatedPeriod) -> list[str]:
    o = result.options
    return context_lines(
        result.period,
        result.period_reason,
        result.rule_set or o.rules,
        result.rules_reason,
        result.warnings,
    )


def headline(result: RatedPeriod) -> list[str]:
    rated, sides = result.side_counts()
    o = result.options
    mode = f", mode {o.mode!r}" if o.mode != "fide" else ""
    rule_set = result.rule_set or o.rules
    lines = [
        f"rated period {result.period}: rules {rule_set!r}, method {o.method!r}{mode}",
        *(f"  {line}" for line in _context(result)[:2]),
        f"players: {len(result.totals):,}   rated game sides: {rated:,}   "
        f"unrated game sides: {sides - rated:,}",
    ]
    if result.list_match is not None:
        lines += list_match_lines(result.list_match, o.all_players)
    if result.event_ranks is not None:
        from pipeline.report.event_report import ORDER_BY_FILE

        lines.append(f"standings: {ORDER_BY_FILE}")
    note = mode_label(o.mode)
    if note:
        lines.append(f"NOTE: {note}")
    return lines


def summary_lines(result: RatedPeriod, report: WriteReport, count: int = 5) -> list[str]:
    lines = headline(result)
    table = movers(result, count)
    if len(table):
        records = table.to_dict("records")
        for record in records:
            record["k"] = marked_k(record)
        lines += ["", "biggest gains and losses:" if len(table) == 2 * count else "rating changes:"]
        fmt = [
            (c, f"{a}{max(least, *(len(str(r[c])) for r in records))}") for c, a, least in _COLUMNS
        ]
        lines.append("  " + "  ".join(f"{c:{a}}" for c, a in fmt))
        lines += ["  " + "  ".join(f"{r[c]:{a}}" for c, a in fmt) for r in records]
    lines += ["", "written:"] + [f"  {p}" for p in report.written]
    return lines


def summary_data(result: RatedPeriod, report: WriteReport, count: int = 5) -> dict[str, Any]:
    """Everything the text summary says, as JSON-ready values (numbers as exact decimal text
    for the exact change, integers for ratings)."""
    rated, sides = result.side_counts()
    o = result.options
    table = movers(result, count)

    def as_int(text: str) -> int | None:
        return int(text) if text else None

    players = [
        {
            "id": r["id"],
            "name": r["name"],
            "rating": as_int(r["rating"]),
            "k": as_int(r["k"]),
            "games": int(r["games"]),
            "score": r["score"],
            "expected": r["expected"],
            "change_exact": r["change_exact"],
            "change": int(r["change"]),
            "new_rating": as_int(r["new_rating"]),
            "k_assumed": r["k_assumed"] == "true",
        }
        for r in table.to_dict("records")
    ]
    return {
        "period": result.period,
        "period_reason": result.period_reason,
        "rules": result.rule_set or o.rules,
        "rules_requested": o.rules,
        "rules_reason": result.rules_reason,
        "warnings": list(result.warnings),
        "method": o.method,
        "mode": o.mode,
        "fide_method": o.method == "fide" and o.mode == "fide",
        "players": len(result.totals),
        "players_with_games": int((result.totals["games"] > 0).sum()),
        "rated_game_sides": rated,
        "unrated_game_sides": sides - rated,
        "movers": players,
        "written": [str(p) for p in report.written],
        "notes": list(report.skipped),
        "players_list": None if result.list_match is None else asdict(result.list_match),
        "k_assumed": k_assumed_data(result),
    }


def k_assumed_data(result: RatedPeriod) -> dict[str, Any]:
    """The players whose K the input could not decide (every one: the warning names a few), and
    the fix."""
    t = result.totals
    assumed = t.loc[t["k_assumed"].to_numpy(dtype=bool), ["id", "name", "k", "k_reason"]]
    return {
        "count": len(assumed),
        "players": [
            {"id": i, "name": n, "k": int(k), "k_reason": reason}
            for i, n, k, reason in assumed.itertuples(index=False)
        ],
        "fix": ASSUMED_FIX if len(assumed) else "",
    }
