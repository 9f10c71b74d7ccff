"""The title norms' text table is formatted once per run: report.xlsx's Norms sheet and
report.html's norm section write the same table (``norms_text.NormsText``), built by the writers'
front door beside the standings and breakdown tables (it cost 10-20 ms a time on a 283-player
event)."""

from __future__ import annotations

import sys

import pytest

from pipeline.writers.text import norms_text
from tests.conftest import SAMPLE, run_cli


def test_the_norms_table_is_formatted_once_for_both_reports(tmp_path, monkeypatch):
    real = norms_text.sheet_table
    calls = []

    def counted(report):  # the real function, counted
        calls.append(report)
        return real(report)

    # Wherever a module holds the function (imported by name or called through its module).
    for module in list(sys.modules.values()):
        if getattr(module, "sheet_table", None) is real:
            monkeypatch.setattr(module, "sheet_table", counted)
    out = tmp_path / "out"
    result = run_cli("rate", SAMPLE / "event.trf", "--out", out, "--xlsx", "--html", "--quiet")
    assert result.exit_code == 0, result.stderr
    assert len(calls) == 1
    # Both reports show it: the sheet and the section.
    assert "Title norms" in (out / "report.html").read_text(encoding="utf-8")
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.load_workbook(out / "report.xlsx", read_only=True)
    rows = list(book["Norms"].iter_rows(values_only=True))
    table = real(calls[0])
    assert len(table) and rows[0] == tuple(table.columns)
    assert [row[:2] for row in rows[1 : len(table) + 1]] == list(
        zip(table.iloc[:, 0], table.iloc[:, 1], strict=True)
    )
