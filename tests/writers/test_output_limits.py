"""Spreadsheets and the HTML report are for people: skipped by default above the size limits,
with a note saying so, and written when asked. The CSV outputs are always written."""

from __future__ import annotations

from contextlib import closing

import pipeline.writers as writers
from tests.conftest import rate_sample


def test_large_runs_skip_spreadsheets_and_html_and_say_why(sample, tmp_path, monkeypatch):
    monkeypatch.setattr(writers, "XLSX_MAX_PLAYERS", 5)  # the sample has 10 players
    result = rate_sample(tmp_path / "a", "--quiet")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["games.csv", "rating_list.csv"]
    assert "rating_list.xlsx and report.xlsx not written: 10 players" in result.stderr
    assert "report.html not written: 10 players" in result.stderr and "--html" in result.stderr


def test_flags_write_them_anyway(sample, tmp_path, monkeypatch):
    monkeypatch.setattr(writers, "XLSX_MAX_PLAYERS", 5)
    monkeypatch.setattr(writers, "SHEETS_MAX_PLAYERS", 5)
    result = rate_sample(tmp_path / "b", "--quiet", "--xlsx", "--html")
    assert result.exit_code == 0, result.stderr
    names = {p.name for p in (tmp_path / "b").iterdir()}
    assert {"rating_list.xlsx", "report.xlsx", "report.html"} <= names
    assert "not written" not in result.stderr


def test_sheets_limit_alone(sample, tmp_path, monkeypatch):
    monkeypatch.setattr(writers, "SHEETS_MAX_PLAYERS", 5)
    result = rate_sample(tmp_path / "c", "--quiet", "--no-html")
    assert result.exit_code == 0, result.stderr
    assert "report.xlsx has no per-player sheets: 10 players" in result.stderr
    from openpyxl import load_workbook

    with closing(load_workbook(tmp_path / "c" / "report.xlsx", read_only=True)) as book:
        assert book.sheetnames == ["Summary", "About"]
