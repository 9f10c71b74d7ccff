"""The title-norm section of report.html (the "Norms" sheet of report.xlsx is written by
:mod:`pipeline.writers.xlsx.workbooks` from the same table).

Both show the text table of :func:`pipeline.writers.text.norms_text.sheet_table`: per event,
player and title the games counted, Ra with the floor, the performance, and every requirement's
status and margin. The page escapes every text it shows.
"""

from __future__ import annotations

import html

import pandas as pd

from pipeline.model import NormReport
from pipeline.rules.norm_labels import LEGEND, REQUIREMENTS, SHORT, margin_text
from pipeline.writers.text.norms_text import sheet_table


def _esc(series: pd.Series) -> pd.Series:
    return series.astype(str).map(html.escape)


def norms_html(report: NormReport | None) -> str:
    """The "Title norms" section of report.html ('' when the run has no norm data)."""
    if report is None:
        return ""
    t = sheet_table(report)
    raw = report.table
    if not len(t):
        return (
            '<h2 id="norms">Title norms</h2><p class="muted">No player of these events is a '
            "candidate for a GM, IM, WGM or WIM norm.</p>"
        )
    raised = t["raised_to"].ne("")
    cells = {
        "player": _esc(t["name"]) + ' <span class="muted pid">' + _esc(t["id"]) + "</span>",
        "fed": _esc(t["federation"]),
        "title": _esc(t["title"]),
        "norm": _esc(t["norm"]),
        "result": _esc(t["result"]),
        "games": _esc(t["games"] + "/" + t["played"]),
        "Ra": _esc(t["ra"]) + raised.map({True: "*", False: ""}),
        "score": _esc(t["score"]),
        "Rp": _esc(t["performance"]),
    }
    for name in REQUIREMENTS:
        klass = t[name].map({"missed": "down", "met": "up"}).fillna("")
        cells[SHORT[name]] = (
            '<span class="'
            + klass
            + '" title="'
            + _esc(t[name])
            + '">'
            + _esc(margin_text(raw[name], raw[f"{name}_margin"], name))
            + "</span>"
        )
    cells["to confirm"] = _esc(t["to_confirm"])
    text_columns = {"player", "fed", "title", "norm", "result", "to confirm"}
    # On a phone the player's federation and title and the file's gaps give way to the figures.
    optional = {"fed", "title", "to confirm"}

    def column_class(c: str) -> str:
        return " ".join(k for k, on in (("t", c in text_columns), ("opt", c in optional)) if on)

    head = "".join(f'<th class="{column_class(c)}">{html.escape(c)}</th>' for c in cells)
    row = pd.Series("<tr>", index=t.index)
    for c, values in cells.items():
        row = row + f'<td class="{column_class(c)}">' + values + "</td>"
    row = row + "</tr>"
    # One table per event under its name (in the events' order), not the name on every row.
    tables = "".join(
        f'<h3 class="norm-event">{html.escape(str(event))}</h3>'
        '<div class="scroll"><table class="sortable norms">'
        f"<thead><tr>{head}</tr></thead><tbody>\n"
        + "\n".join(rows.tolist())
        + "\n</tbody></table></div>"
        for event, rows in row.groupby(t["event"], sort=False)
    )
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in report.to_confirm)
    met = int(t["result"].eq("norm").sum())
    return (
        '<h2 id="norms">Title norms</h2>'
        f'<p class="muted">{met} norm(s) met of {len(t)} checked (FIDE Handbook B.01; '
        "* = the lowest opponent raised to the title's floor). "
        f"{html.escape(LEGEND)}</p>"
        f"{tables}"
        f'<p class="muted">To confirm (not in the event file):</p><ul class="muted">{notes}</ul>'
    )
