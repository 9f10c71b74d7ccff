"""The short summary printed after a run: what was rated, the biggest movers, where the files are."""

from __future__ import annotations

import pandas as pd

from pipeline.model import RatedPeriod
from pipeline.writers import WriteReport, rating_list_table

_COLUMNS = [("id", ">10"), ("name", "<"), ("rating", ">6"), ("k", ">3"), ("games", ">5"),
            ("score", ">5"), ("expected", ">8"), ("change_exact", ">12"), ("change", ">6"), ("new_rating", ">10")]


def movers(result: RatedPeriod, count: int = 5) -> pd.DataFrame:
    """Players with rated games, biggest gain first; only the top and bottom ``count`` if many."""
    table = rating_list_table(result)
    played = result.totals["games"].to_numpy() > 0
    order = result.totals.loc[played, "change_units"].sort_values(ascending=False, kind="stable")
    table = table.loc[order.index]
    if len(table) > 2 * count:
        table = pd.concat([table.head(count), table.tail(count)])
    return table


def summary_lines(result: RatedPeriod, report: WriteReport, count: int = 5) -> list[str]:
    sides = result.sides
    rated = int(sides["rated"].sum())
    lines = [
        f"rated period {result.period}: rules {result.options.rules!r}, method {result.options.method!r}",
        f"players: {len(result.totals):,}   rated game sides: {rated:,}   "
        f"unrated game sides: {len(sides) - rated:,}",
    ]
    table = movers(result, count)
    if len(table):
        name_width = max(4, *(len(n) for n in table["name"]))
        lines += ["", "biggest gains and losses:" if len(table) == 2 * count else "rating changes:"]
        fmt = [(c, f"<{name_width}" if a == "<" else a) for c, a in _COLUMNS]
        lines.append("  " + "  ".join(f"{c:{a}}" for c, a in fmt))
        for record in table.to_dict("records"):
            lines.append("  " + "  ".join(f"{record[c]:{a}}" for c, a in fmt))
    lines += ["", "written:"] + [f"  {p}" for p in report.written]
    return lines
