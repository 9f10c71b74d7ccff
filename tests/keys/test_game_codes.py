"""The games' one encoding of the ids, spread over the sides, names each side's player."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.sides import assemble_sides
from pipeline.grouper.totals import partial_totals
from pipeline.keys.game_codes import encode_games, side_player_codes
from pipeline.readers import read_event_file


def _games_file(path, rng, ids):
    n = int(rng.integers(1, 40))
    white = rng.choice(ids, n)
    black = np.array([rng.choice([i for i in ids if i != w]) for w in white])
    frame = pd.DataFrame(
        {
            "event": "E",
            "white": white,
            "black": black,
            "result": rng.choice(["1-0", "0-1", "1/2-1/2", "+-"], n),
            "white_rating": rng.integers(1000, 2800, n).astype(str),
            "black_rating": rng.integers(1000, 2800, n).astype(str),
        }
    )
    frame.to_csv(path, index=False)
    return read_event_file(path)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_side_codes_name_each_sides_player_and_give_the_same_totals(tmp_path, seed):
    rng = np.random.default_rng(seed)
    ids = ["4100018", "a", "b,c", "é", "12", "x y", "7"]
    inputs = [_games_file(tmp_path / f"g{k}.csv", rng, ids[k:]) for k in range(3)]
    sides = assemble_sides(inputs, None)
    codes, players = side_player_codes([i.codes() for i in inputs])
    assert players.take(codes).tolist() == sides["player"].tolist()
    assert np.bincount(codes, minlength=len(players)).min() > 0  # every code has a side
    rated = sides.assign(
        rated=True,
        pd_units=pd.array(rng.integers(0, 100, len(sides)), dtype="Int64"),
        dev_units=pd.array(rng.integers(-100, 100, len(sides)), dtype="Int64"),
    )
    shared = partial_totals(rated, 0, (codes, players)).sort_values("player")
    own = partial_totals(rated).sort_values("player")
    pd.testing.assert_frame_equal(shared.reset_index(drop=True), own.reset_index(drop=True))


@pytest.mark.parametrize("seed", [5, 6])
def test_codes_made_on_threads_name_each_games_event_round_and_players(monkeypatch, seed):
    # A big file encodes its three groups of columns on threads: forced here on a small frame,
    # every code must still name its own cell.
    import pipeline.keys.game_codes as game_codes
    import pipeline.resources.threads as threads

    monkeypatch.setattr(threads, "PARALLEL_ROWS", 0)
    rng = np.random.default_rng(seed)
    games = pd.DataFrame(
        {
            c: rng.choice(["1", "2", "a", "é", "b,c"], 30)
            for c in ("event", "round", "white", "black")
        },
        dtype=str,
    )
    codes = game_codes.encode_games(games)
    assert codes.players.take(codes.white).tolist() == games["white"].tolist()
    assert codes.players.take(codes.black).tolist() == games["black"].tolist()
    for column in ("event", "round"):
        code = getattr(codes, column)
        assert code.max() < getattr(codes, f"n_{column}")
        same = code[:, None] == code[None, :]
        assert (
            same == (games[column].to_numpy()[:, None] == games[column].to_numpy()[None, :])
        ).all()


def _fields(codes):
    return (
        codes.event.tolist(),
        codes.round.tolist(),
        codes.white.tolist(),
        codes.black.tolist(),
        codes.n_event,
        codes.n_round,
        codes.players.tolist(),
        str(codes.players.dtype),
    )


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(*[st.sampled_from(["", "a", "b", "1", "é"])] * 4), min_size=0, max_size=15),
    st.integers(0, 15),
    st.integers(0, 15),
)
def test_codes_of_a_part_are_those_of_the_part_alone(rows, a, b):
    games = pd.DataFrame(rows or None, columns=["event", "round", "white", "black"], dtype=str)
    start, stop = sorted((min(a, len(games)), min(b, len(games))))
    alone = encode_games(games.iloc[start:stop].reset_index(drop=True))
    assert _fields(encode_games(games).part(start, stop)) == _fields(alone)


@pytest.mark.parametrize("seed", [5, 6])
def test_a_files_kept_codes_are_its_games_own_encoding(tmp_path, seed):
    """One games file keeps the codes its reading built (no renumbering): they must be exactly
    ``encode_games`` of its games, dictionaries included."""
    rng = np.random.default_rng(seed)
    item = _games_file(tmp_path / "g.csv", rng, ["b", "a", "10", "9", "é"])
    kept, fresh = item.codes(), encode_games(item.games)
    assert _fields(kept) == _fields(fresh)
    assert kept.events.tolist() == fresh.events.tolist()
    assert kept.rounds.tolist() == fresh.rounds.tolist()
