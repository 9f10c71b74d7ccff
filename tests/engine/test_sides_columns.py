"""``engine.sides.sides_from_games`` lays each game out as two sides (white's, then black's);
its columns, some taken from the games' codes' dictionaries and some interleaved as arrays,
are those a row-by-row layout of the games' cells gives."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.sides import sides_from_games
from pipeline.model import GamesInput

IDS = st.sampled_from(["1", "22", "x y", "é", ""])
GAME = st.tuples(IDS, IDS, st.sampled_from(["E", "F g"]), st.sampled_from(["1", "2", ""]))
RATING = st.one_of(st.none(), st.integers(1000, 2800))


def _games(rows, ratings, null_white: bool, object_black: bool) -> pd.DataFrame:
    white, black, event, round_ = (list(c) for c in zip(*rows, strict=True))
    if null_white:  # a missing cell: not in the codes' dictionary as it is (read as "")
        white[0] = None
    n = len(rows)
    return pd.DataFrame(
        {
            "event": pd.Series(event, dtype=str),
            "round": pd.Series(round_, dtype=str),
            "date": pd.Series(["2026-11-01"] * n, dtype="string"),
            "white": pd.Series(white, dtype=str),
            "black": pd.Series(black, dtype=object if object_black else str),
            "white_h": np.array([100, 50, 0] * n)[:n],
            "black_h": np.array([0, 50, 100] * n)[:n],
            "played": np.arange(n) % 4 != 3,
            "white_rating": pd.array([r[0] for r in ratings], dtype="Int64"),
            "black_rating": pd.array([r[1] for r in ratings], dtype="Int64"),
            "source": pd.Series(["s.csv"] * n, dtype=str),
            "line": np.arange(2, n + 2),
        }
    )


def _by_rows(g: pd.DataFrame, white: str, black: str) -> list:
    out = []
    for w, b in zip(g[white].tolist(), g[black].tolist(), strict=True):
        out += [w, b]
    return out


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(GAME, st.tuples(RATING, RATING)), min_size=1, max_size=6),
    st.booleans(),
    st.booleans(),
)
def test_sides_columns_are_the_games_cells_side_by_side(games, null_white, object_black):
    g = _games([r for r, _ in games], [x for _, x in games], null_white, object_black)
    sides = sides_from_games(GamesInput("s.csv", g), None)
    same = {
        "player": ("white", "black"),
        "opponent": ("black", "white"),
        "player_rating": ("white_rating", "black_rating"),
        "opponent_rating": ("black_rating", "white_rating"),
        "score_h": ("white_h", "black_h"),
        "event": ("event", "event"),
        "round": ("round", "round"),
        "played": ("played", "played"),
        "line": ("line", "line"),
    }
    for column, (white, black) in same.items():
        expected = pd.Series(_by_rows(g, white, black), dtype=sides[column].dtype)
        pd.testing.assert_series_equal(sides[column], expected, check_names=False)
    assert sides["player"].dtype == g["white"].dtype  # the cells' own dtype, not a new one
    assert sides["event"].dtype == g["event"].dtype
