"""The games of many files are schema-checked together (issue 13: one pandera call per batch,
not per file), and a failing batch still reports each bad file's own problems, exactly as
checking that file alone does."""

from __future__ import annotations

import pandas as pd
import pytest

import pipeline.readers.games_check as games_check
from pipeline.errors import InputError
from pipeline.model import GamesInput
from schemas import Games, validate


def games(source: str, n: int, bad_row: int | None = None) -> GamesInput:
    white_h = [100] * n
    if bad_row is not None:
        white_h[bad_row] = 30  # not 0, 50 or 100
    frame = pd.DataFrame(
        {
            "event": pd.Series([source] * n, dtype=str),
            "round": pd.Series(["1"] * n, dtype=str),
            "date": pd.Series([pd.NA] * n, dtype="string"),
            "white": pd.Series([f"w{i}" for i in range(n)], dtype=str),
            "black": pd.Series([f"b{i}" for i in range(n)], dtype=str),
            "result": pd.Series(["1-0"] * n, dtype=str),
            "white_h": pd.Series(white_h, dtype="int64"),
            "black_h": pd.Series([0] * n, dtype="int64"),
            "played": pd.Series([True] * n, dtype=bool),
            "white_rating": pd.array([None] * n, dtype="Int64"),
            "black_rating": pd.array([None] * n, dtype="Int64"),
            "line": pd.Series(range(2, n + 2), dtype="int64"),
            "source": pd.Series([source] * n, dtype=str),
        }
    )
    return GamesInput(source, frame)


def alone(item: GamesInput) -> list:
    with pytest.raises(InputError) as info:
        validate(item.games, Games, item.source)
    return info.value.problems


@pytest.mark.parametrize("batch_rows", [1, 7, 1000])
def test_bad_files_reported_as_when_checked_alone(monkeypatch, batch_rows):
    monkeypatch.setattr(games_check, "BATCH_ROWS", batch_rows)
    items = [
        games("a.csv", 3),
        games("b.csv", 4, bad_row=2),
        games("c.csv", 2),
        games("d.csv", 3, bad_row=0),
    ]
    failed = games_check.games_problems(items)
    assert sorted(failed) == [1, 3]
    assert failed[1] == alone(items[1])
    assert failed[3] == alone(items[3])
    assert failed[1][0].file == "b.csv" and failed[1][0].row == 4  # line of the third game


def test_good_files_pass_in_one_batch(monkeypatch):
    calls = []
    real = games_check.validate
    monkeypatch.setattr(games_check, "validate", lambda *a, **k: calls.append(a) or real(*a, **k))
    assert games_check.games_problems([games(f"{i}.csv", 5) for i in range(10)]) == {}
    assert len(calls) == 1  # ten files, one check


def test_batches_split_by_rows(monkeypatch):
    monkeypatch.setattr(games_check, "BATCH_ROWS", 6)
    items = [games("a", 3), games("b", 3), games("c", 4), games("d", 9), games("e", 1)]
    sizes = [[len(i.games) for i in b] for b in games_check._batches(items)]
    assert sizes == [[3, 3], [4], [9], [1]]
