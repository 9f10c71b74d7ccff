"""End to end through the CLI on the bundled sample (CliRunner, real files)."""

from __future__ import annotations

import csv

from tests.conftest import rate_sample


def test_rate_sample_writes_all_outputs(sample, tmp_path):
    out = tmp_path / "out"
    result = rate_sample(out)
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == [
        "games.csv",
        "rating_list.csv",
        "rating_list.xlsx",
        "report.html",
        "report.xlsx",
    ]
    with (out / "rating_list.csv").open(encoding="utf-8") as fh:
        rows = {r["id"]: r for r in csv.DictReader(fh)}
    # Ivanov 2450 (K 10): the table gives 3.63 expected for 3.0 points -> -6.3 -> -6.
    assert rows["4100107"]["change_exact"] == "-6.30"
    assert rows["4100107"]["new_rating"] == "2444"
