"""The baselines of benchmarks/bench_million.py do the same job as ``fiderate rate``: plain
Python writes the golden rating_list.csv and games.csv byte for byte; DuckDB and Polars (when
installed) give the same new ratings."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from benchmarks import plain_python

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "cases" / "generated-standard"
GAMES = "tests/golden/inputs/games.csv"  # as the golden case names its source
PLAYERS = "tests/golden/inputs/players.csv"


def new_ratings(path: Path) -> dict[str, str]:
    with path.open(newline="", encoding="utf-8") as f:
        return {row["id"]: row["new_rating"] for row in csv.DictReader(f)}


def test_plain_python_writes_the_golden_outputs(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    plain_python.rate(GAMES, PLAYERS, str(tmp_path))
    for name in ("rating_list.csv", "games.csv"):
        assert (tmp_path / name).read_bytes() == (GOLDEN / name).read_bytes(), name


def test_pd_table_edges():
    # 8.1.2: |D| 0-3 -> 0.50, 4-10 -> 0.51, 620-735 -> 0.99, above 735 -> 1.00.
    table = plain_python.pd_table()
    assert (table[0], table[3], table[4], table[735], table[736]) == (50, 50, 51, 99, 100)


@pytest.mark.parametrize("engine", ["duckdb", "polars"])
def test_dataframe_jobs_give_fiderates_new_ratings(engine, tmp_path, monkeypatch):
    pytest.importorskip(engine)
    from benchmarks import dataframe_jobs

    monkeypatch.chdir(ROOT)
    getattr(dataframe_jobs, f"run_{engine}")(GAMES, PLAYERS, str(tmp_path))
    assert new_ratings(tmp_path / "rating_list.csv") == new_ratings(GOLDEN / "rating_list.csv")
