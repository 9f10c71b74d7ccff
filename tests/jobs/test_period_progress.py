"""``fiderate period`` posts each stage on its stage board as it starts (issue 13); the display
itself (a spinner on stderr, only on a terminal, only after a second) is tested in test_console."""

from __future__ import annotations

import shutil
from pathlib import Path

from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.resources.stage_board import StageBoard

PERIOD_SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "period"


def test_period_reports_each_stage_in_order(tmp_path):
    sample = tmp_path / "in"
    shutil.copytree(PERIOD_SAMPLE, sample)
    board = StageBoard()
    outcome = run_period(
        PeriodRequest(
            list_path=sample / "list_2026-11.csv",
            events=(sample / "events",),
            period="2026-11",
            out_dir=tmp_path / "out",
            progress=board,
        )
    )
    assert board.posted == [
        "reading the list and the events",
        "rating",
        "first ratings, next list, report",
        "writing the files and the history",
    ]
    assert list(outcome.timings) == [
        "read",
        "rate",
        "first ratings, next list, report",
        "write files",
        "store in database",
        "rename",
    ]
