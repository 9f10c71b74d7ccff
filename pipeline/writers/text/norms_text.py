"""The title-norm table as text, the one table report.xlsx's "Norms" sheet and report.html's
norm section show (:mod:`pipeline.writers.xlsx.workbooks`,
:mod:`pipeline.writers.html.norms_section`)."""

from __future__ import annotations

import pandas as pd

from pipeline.model import NormReport
from pipeline.rules.norm_labels import REQUIREMENTS, number_text


def sheet_table(report: NormReport) -> pd.DataFrame:
    """Every column as text (the writers' convention): margins as plain numbers, blanks for
    margins that do not apply and for floors not used."""
    t = report.table
    out = t.copy()
    for name in REQUIREMENTS:
        number = number_text(t[f"{name}_margin"], name)
        out[f"{name}_margin"] = number.where(t[name].isin(["met", "missed"]), "")
    out["raised_to"] = t["raised_to"].astype(str).where(t["raised_to"] > 0, "")
    return out.astype(str)
