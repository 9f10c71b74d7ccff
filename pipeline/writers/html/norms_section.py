"""The title-norm section of report.html (the "Norms" sheet of report.xlsx is written by
:mod:`pipeline.writers.xlsx.workbooks` from the same table).

Both show the text table of :func:`pipeline.writers.text.norms_text.sheet_table`, made once
per run (``NormsText``): per event,
player and title the games counted, Ra with the floor, the performance, and every requirement's
status and margin. The page escapes every text it shows.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import numpy as np
import pandas as pd

from pipeline.arrays.distinct_values import per_distinct
from pipeline.rules.norm_labels import LEGEND, REQUIREMENTS, SHORT, signed_margin
from pipeline.writers.text.norms_text import NormsText


def _esc(*columns: pd.Series, text: Callable[..., str] = str) -> np.ndarray:
    """``text`` of each row's values, escaped: an object array of str, worked out once per
    distinct value (a norm table repeats its events, titles and margins)."""
    return per_distinct(lambda *values: html.escape(text(*values)), *columns)


def _requirement(status: object, margin: float, name: str) -> str:
    """One requirement's cell: its margin for reading, classed and titled by its status."""
    klass = {"missed": "down", "met": "up"}.get(str(status), "")
    shown = signed_margin(str(status), margin, name)
    return f'<span class="{klass}" title="{html.escape(str(status))}">{html.escape(shown)}</span>'


def norms_html(norms: NormsText | None) -> str:
    """The "Title norms" section of report.html ('' when the run has no norm data)."""
    if norms is None:
        return ""
    report, t = norms.report, norms.table
    raw = report.table
    if not len(t):
        return (
            '<h2 id="norms">Title norms</h2><p class="muted">No player of these events is a '
            "candidate for a GM, IM, WGM or WIM norm.</p>"
        )
    # Object arrays of str: adding them joins the texts row by row, without a pandas operation
    # per column and step.
    cells = {
        "player": _esc(t["name"]) + ' <span class="muted pid">' + _esc(t["id"]) + "</span>",
        "fed": _esc(t["federation"]),
        "title": _esc(t["title"]),
        "norm": _esc(t["norm"]),
        "result": _esc(t["result"]),
        "games": _esc(t["games"], t["played"], text=lambda g, p: f"{g}/{p}"),
        "Ra": _esc(t["ra"], t["raised_to"], text=lambda ra, raised: ra + ("*" if raised else "")),
        "score": _esc(t["score"]),
        "Rp": _esc(t["performance"]),
    }
    for name in REQUIREMENTS:
        cells[SHORT[name]] = per_distinct(
            lambda status, margin, name=name: _requirement(status, margin, name),
            raw[name],
            raw[f"{name}_margin"],
        )
    cells["to confirm"] = _esc(t["to_confirm"])
    text_columns = {"player", "fed", "title", "norm", "result", "to confirm"}
    # On a phone the player's federation and title and the file's gaps give way to the figures.
    optional = {"fed", "title", "to confirm"}

    def column_class(c: str) -> str:
        return " ".join(k for k, on in (("t", c in text_columns), ("opt", c in optional)) if on)

    head = "".join(f'<th class="{column_class(c)}">{html.escape(c)}</th>' for c in cells)
    row = np.full(len(t), "<tr>", dtype=object)
    for c, values in cells.items():
        row = row + f'<td class="{column_class(c)}">' + values + "</td>"
    row = row + "</tr>"
    # One table per event under its name (in the events' order), not the name on every row.
    codes, events = pd.factorize(t["event"])
    tables = "".join(
        f'<h3 class="norm-event">{html.escape(str(event))}</h3>'
        '<div class="scroll"><table class="sortable norms">'
        f"<thead><tr>{head}</tr></thead><tbody>\n"
        + "\n".join(row[codes == i].tolist())
        + "\n</tbody></table></div>"
        for i, event in enumerate(events)
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
