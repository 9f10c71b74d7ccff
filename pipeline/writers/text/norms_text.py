"""The title-norm table as text, the one table report.xlsx's "Norms" sheet and report.html's
norm section show (:mod:`pipeline.writers.xlsx.workbooks`,
:mod:`pipeline.writers.html.norms_section`): formatted once per run (:func:`norms_text`, called
by ``writers.write_files`` beside the standings and breakdown tables), written by both."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from pipeline.arrays.distinct_values import per_distinct
from pipeline.model import NormReport
from pipeline.rules.norm_labels import REQUIREMENTS, plain_margin


@dataclass(frozen=True)
class NormsText:
    """The title norms as both reports show them: ``table``, every column as text
    (:func:`sheet_table`), beside the norm report it was made from (each requirement's status
    and margin, what the event file cannot say)."""

    report: NormReport
    table: pd.DataFrame


def norms_text(report: NormReport | None) -> NormsText | None:
    """The norms' text for the reports; None when the run has no norm data."""
    return None if report is None else NormsText(report, sheet_table(report))


def sheet_table(report: NormReport) -> pd.DataFrame:
    """Every column as text (the writers' convention): margins as plain numbers, blanks for
    margins that do not apply and for floors not used. Built as one frame from its columns (a
    copy changed column by column rebuilt the frame's columns each time)."""
    t = report.table
    out: dict[str, object] = {c: t[c] for c in t.columns}
    for name in REQUIREMENTS:
        # Each distinct margin made once (rules.norm_labels.plain_margin).
        number = per_distinct(lambda v, n=name: plain_margin(v, n), t[f"{name}_margin"])
        out[f"{name}_margin"] = np.where(t[name].isin(["met", "missed"]).to_numpy(), number, "")
    out["raised_to"] = np.where(t["raised_to"].to_numpy() > 0, t["raised_to"].astype(str), "")
    return pd.DataFrame(out, index=t.index).astype(str)
