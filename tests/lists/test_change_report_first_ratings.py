"""A first rating is not a change of 0 (issue 35: every face says the same number in the same
words). In ``changes_P.csv`` and the period workbook's "New players" and "All changes" sheets, a
player who was unrated in the period (a first rating, or results kept for one) has no change
(blank; the status says "first rating", the words of every face) and shows the games and points
the first rating pools, as ``first_ratings_P.csv`` gives them, not 0 games and a change of 0.

Checked against the files of the README's period run (first_ratings_2026-11.csv)."""

from __future__ import annotations

import csv
from contextlib import closing
from pathlib import Path

import pytest
from openpyxl import load_workbook

from pipeline.lists.next_list import STATUS_FIRST, STATUS_POOL
from tests.conftest import period_sample


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("first") / "out"
    period_sample(folder)
    return folder


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def sheet(path: Path, name: str) -> list[dict[str, object]]:
    with closing(load_workbook(path, read_only=True)) as book:
        header, *body = book[name].iter_rows(values_only=True)
    return [dict(zip(header, r, strict=False)) for r in body if any(v is not None for v in r)]


def test_unrated_players_show_their_pool_and_no_change(out):
    first = {r["id"]: r for r in rows(out / "first_ratings_2026-11.csv")}
    changes = rows(out / "changes_2026-11.csv")
    unrated = [r for r in changes if r["status"] in (STATUS_FIRST, STATUS_POOL)]
    assert {r["status"] for r in unrated} == {STATUS_FIRST, STATUS_POOL}  # the sample has both
    for row in unrated:
        pool = first[row["id"]]
        assert (row["games"], row["score"]) == (pool["pooled_games"], pool["points"]), row
        assert row["change_exact"] == row["change"] == row["new_rating"] == row["rating"] == ""
        if row["status"] == STATUS_FIRST:
            assert row["published_rating"] == pool["rating"]
    # A rated player's change is still the number.
    assert all(r["change"] != "" for r in changes if r["status"] == "rated")


@pytest.mark.parametrize("name", ["New players", "All changes"])
def test_the_workbook_says_the_same(out, name):
    by_id = {r["id"]: r for r in rows(out / "changes_2026-11.csv")}
    shown = sheet(out / "report_2026-11.xlsx", name)
    firsts = [r for r in shown if r["status"] == STATUS_FIRST]
    assert firsts
    for row in firsts:
        want = by_id[row["id"]]
        assert row["games"] == int(want["games"]) and row["games"] > 0
        assert row["change"] is None and row["change_exact"] is None
        assert row["published_rating"] == int(want["published_rating"])
