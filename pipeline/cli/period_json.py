"""``fiderate period --json``: what a run printed, as JSON-ready values (like ``rate --json``).

Counts are integers, each one a count of the files written (see :func:`report.summary_table`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.jobs.period import PeriodOutcome


def outcome_data(outcome: PeriodOutcome, database: Path) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    if outcome.report is not None:
        for item, value in zip(
            outcome.report.summary["item"], outcome.report.summary["value"], strict=True
        ):
            summary[str(item)] = int(value) if str(value).isdigit() else str(value)
    return {
        "period": outcome.period,
        "run_id": outcome.run_id,
        "database": str(database),
        "recovered": outcome.recovered,
        "summary": summary,
        "written": [str(p) for p in outcome.written],
        "notes": list(outcome.notes),
    }
