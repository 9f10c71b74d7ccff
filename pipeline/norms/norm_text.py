"""The norm report for people (a fixed-width table) and programs (JSON), from
:class:`pipeline.model.NormReport` (the reports' norm table is
``pipeline.writers.text.norms_text``)."""

from __future__ import annotations

from typing import Any, cast

import pandas as pd

from pipeline.arrays.distinct_values import per_distinct
from pipeline.model import NormReport
from pipeline.norms.rules import NORM_ERAS, SECTIONS
from pipeline.rules.norm_labels import LEGEND, REQUIREMENTS, SHORT, signed_margin


def text_lines(report: NormReport, width: int = 200) -> list[str]:
    """The table an arbiter reads in a terminal, then the legend and what is to confirm."""
    t = report.table
    if not len(t):
        return ["No player of these events is a candidate for the titles asked."]
    margins = {n: _margin_texts(t[n], t[f"{n}_margin"], n) for n in REQUIREMENTS}
    cells = pd.DataFrame(
        {
            "player": (t["name"].str.slice(0, 24) + " " + t["id"]).str.slice(0, 36),
            "fed": t["federation"],
            "title": t["title"],
            "norm": t["norm"],
            "games": t["games"].astype(str) + "/" + t["played"].astype(str),
            "Ra": t["ra"].astype(str) + t["raised_to"].gt(0).map({True: "*", False: ""}),
            "score": t["score"],
            "Rp": t["performance"].astype(str),
            **{SHORT[n]: margins[n] for n in REQUIREMENTS},
            "result": t["result"],
        }
    )
    widths = {c: max(len(c), int(cells[c].str.len().max())) for c in cells}
    left = {"player", "fed", "title", "norm", "result"}

    def line(values: dict[str, str]) -> str:
        parts = [v.ljust(widths[c]) if c in left else v.rjust(widths[c]) for c, v in values.items()]
        return "  ".join(parts).rstrip()[:width]

    lines = []
    for event, part in cells.groupby(t["event"], sort=False):
        lines += [f"Event: {event}", line({c: c for c in cells})]
        lines += [line(row) for row in part.to_dict("records")]
        mine = t.loc[part.index]
        for row in mine[mine["result"].eq("norm")].to_dict("records"):
            note = f"; {row['to_confirm']}" if row["to_confirm"] else ""
            lines.append(
                f"  {row['norm']} norm: {row['name']} ({row['id']}), games {row['rounds']}{note}"
            )
        summary = next((e for e in report.events if e["event"] == event), {})
        unknown = cast("list[str]", summary.get("sex_unknown", []))
        if unknown:
            lines.append(
                f"  WGM/WIM not checked for {len(unknown)} player(s) whose sex is unknown "
                "(TRF 001 sex `w`/`f`, or the list's sex column, decides)"
            )
        lines.append("")
    met = int((t["result"] == "norm").sum())
    lines += [
        f"{met} norm(s) met of {len(t)} checked. * = the lowest opponent raised to the floor.",
        LEGEND,
        "To confirm (not in the event file): " + "; ".join(report.to_confirm) + ".",
    ]
    return lines


def _number(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def report_json(report: NormReport) -> dict[str, Any]:
    """Stable keys: per row the player, the figures and each requirement's status and margin."""
    rows = []
    eras = {e.name: e.rules() for e in NORM_ERAS}
    era_of = {e["event"]: str(e.get("rules", NORM_ERAS[0].name)) for e in report.events}
    for record in report.table.to_dict("records"):
        rule = eras[era_of.get(record["event"], NORM_ERAS[0].name)][record["norm"]]
        rows.append(
            {
                "event": record["event"],
                "id": record["id"],
                "name": record["name"],
                "federation": record["federation"],
                "title": record["title"],
                "norm": record["norm"],
                "result": record["result"],
                "games": _number(record["games"]),
                "played": _number(record["played"]),
                "rounds": record["rounds"],
                "unrated": _number(record["unrated"]),
                "lowest": _number(record["lowest"]),
                "raised_to": _number(record["raised_to"]) or None,
                "ra": _number(record["ra"]),
                "score": float(record["score"]),
                "p": float(record["p"]),
                "dp": _number(record["dp"]),
                "performance": _number(record["performance"]),
                "norm_games": _number(record["norm_games"]) or None,
                "performance_min": float(rule.performance_min),
                "average_min": rule.average_min,
                "requirements": {
                    name: {
                        "status": record[name],
                        "margin": _number(record[f"{name}_margin"]),
                        "section": SECTIONS[name],
                    }
                    for name in REQUIREMENTS
                },
                "missed": [m for m in record["missed"].split(", ") if m],
                "to_confirm": [n for n in record["to_confirm"].split("; ") if n],
            }
        )
    return {"events": report.events, "norms": rows, "to_confirm": list(report.to_confirm)}


def _margin_texts(status: pd.Series, margin: pd.Series, name: str) -> pd.Series:
    """Each row's margin for reading (``rules.norm_labels.signed_margin``), made once per
    distinct (status, margin)."""
    texts = per_distinct(lambda s, v: signed_margin(str(s), v, name), status, margin)
    return pd.Series(texts, index=margin.index, dtype=str)
