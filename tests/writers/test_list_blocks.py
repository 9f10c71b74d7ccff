"""The next list is written a block of players at a time (issue 13): the same bytes as the whole
table written at once (CSV and FIDE TXT), and the returned sha256 is the CSV file's."""

from __future__ import annotations

import hashlib

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.writers import period_files as outputs
from pipeline.writers import write_csv
from pipeline.writers.text.fide_txt import write_fide_txt
from pipeline.writers.text.list_text import list_text_table

names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=70)
ratings = st.none() | st.integers(1000, 2900)
player = st.tuples(names, ratings, st.sampled_from(["", "GM", "WIM", "FM"]), st.booleans())


def _list(players: list[tuple[str, int | None, str, bool]]) -> pd.DataFrame:
    n = len(players)
    return pd.DataFrame(
        {
            "id": [str(100_000 + i) for i in range(n)],
            "name": pd.Series([p[0] for p in players], dtype=str),
            "federation": ["FRA"] * n,
            "sex": ["w" if i % 2 else "m" for i in range(n)],
            "title": [p[2] for p in players],
            "birth_year": pd.array([1990 + i % 30 if i % 3 else None for i in range(n)], "Int64"),
            "rating": pd.array([p[1] for p in players], dtype="Int64"),
            "period_games": pd.array([i % 4 for i in range(n)], dtype="Int64"),
            "games": pd.array([None if i % 5 == 0 else i for i in range(n)], dtype="Int64"),
            "k": pd.array([None if p[1] is None else 20 for p in players], dtype="Int64"),
            "ever_2400": [p[3] for p in players],
            "flags": ["i" if i % 7 == 0 else "" for i in range(n)],
            "last_played": ["2026-10" if i % 2 else "" for i in range(n)],
        }
    )


@settings(max_examples=40, deadline=None)
@given(st.lists(player, max_size=30), st.integers(1, 7))
def test_blocks_write_the_bytes_of_the_whole_table(tmp_path_factory, players, block):
    folder = tmp_path_factory.mktemp("lists")
    new = _list(players)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(outputs, "LIST_BLOCK_ROWS", block)
        sha = outputs.write_list_files(new, folder / "b.csv", folder / "b.txt", "DEC26")
    table = list_text_table(new)
    write_csv(table, folder / "a.csv")
    write_fide_txt(table, folder / "a.txt", "DEC26")
    assert (folder / "b.csv").read_bytes() == (folder / "a.csv").read_bytes()
    assert (folder / "b.txt").read_bytes() == (folder / "a.txt").read_bytes()
    assert sha == hashlib.sha256((folder / "a.csv").read_bytes()).hexdigest()
