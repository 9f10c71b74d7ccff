"""``fiderate period --json``: what a run printed, as JSON-ready values (like ``rate --json``).

Counts are integers, each one a count of the files written (the summary of
:func:`pipeline.lists.change_report.build_report`). Rendering, so it lives with the command: the
job returns a :class:`~pipeline.jobs.period.PeriodOutcome` and prints nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.jobs.period import PeriodOutcome


def outcome_data(outcome: PeriodOutcome) -> dict[str, Any]:
    """The run as JSON: one month's figures; with ``--until``, each month published in order
    under ``months`` (the top level is the last); the ``rating_kind`` of the lists published;
    ``nothing_to_do`` and the files ``waiting``."""
    database = outcome.database
    data = _month_data(outcome, database)
    # The kind of list published (standard, rapid or blitz: --rules' family), one per run.
    data["rating_kind"] = outcome.rating_kind
    data["nothing_to_do"] = outcome.nothing_to_do
    data["months"] = [_month_data(m, database) for m in outcome.months]
    data["waiting"] = [{"path": path, "month": month} for path, month in outcome.waiting]
    return data


def _month_data(outcome: PeriodOutcome, database: Path | None) -> dict[str, Any]:
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
