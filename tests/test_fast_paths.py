"""The fast paths against plain oracles: each optimized piece gives what the simple way gives.

The oracles are the straightforward implementations (pandas' writer and parser, the original
lexsort, Decimal arithmetic, Python dict sums), so any difference is a bug in the fast path.
"""

from __future__ import annotations

import csv
import io
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.arrays.number_text import int_text, units_text
from pipeline.engine.sides import with_side_texts
from pipeline.grouper.totals import natural_order, player_sums
from pipeline.readers.tables.fastcsv import read_plain_csv
from pipeline.readers.tables.tabular import _data_line_numbers, normalize_header, pandas_read_csv
from pipeline.writers.text.csvtext import write_text_csv

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
cell_text = st.text(alphabet=st.sampled_from(list('ab ,"\n\r;é½1-\t')), max_size=6)


@FAST
@given(st.lists(st.tuples(cell_text, cell_text, cell_text), min_size=0, max_size=8))
def test_csv_writer_matches_pandas(tmp_path_factory, rows):
    frame = pd.DataFrame(rows, columns=["a", "b,c", 'd"e'], dtype=str)
    path = tmp_path_factory.mktemp("w") / "t.csv"
    write_text_csv(frame, path)
    expected = io.StringIO()
    frame.to_csv(expected, index=False, lineterminator="\n")
    assert path.read_bytes() == expected.getvalue().encode("utf-8")


cell = st.text(alphabet=st.sampled_from(list('ab ,"\n\t1é')), max_size=5)
row = st.tuples(cell, cell, cell)


def _csv_lines(rows, newline: str) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator=newline).writerows(rows)
    return out.getvalue()


@FAST
@given(st.lists(row, min_size=1, max_size=6), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_plain_reader_reads_like_pandas_or_declines(rows, newline, ragged):
    text = "white,black,result" + newline + _csv_lines(rows, newline)
    if ragged:  # a row one cell short: pandas decides (Arrow declines)
        text += "x,y" + newline
    fast = read_plain_csv(text, ",", normalize_header)
    if fast is None:
        return  # the careful reader decides
    slow = pandas_read_csv(text, ",")  # the general reader: pandas' parser
    assert list(fast.columns) == list(slow.columns)
    # The readers' callers strip every cell, so compare stripped cells.
    assert [[c.strip() for c in r] for r in fast.to_numpy().tolist()] == [
        [c.strip() for c in r] for r in slow.to_numpy().tolist()
    ]


def test_plain_reader_takes_the_usual_files():
    text = 'white,black,result\n4100018,4100050,1-0\n"Kowalski, A",4100050,"1/2-1/2"\n'
    fast = read_plain_csv(text, ",", normalize_header)
    assert fast is not None
    assert fast.to_numpy().tolist() == [
        ["4100018", "4100050", "1-0"],
        ["Kowalski, A", "4100050", "1/2-1/2"],
    ]


def test_plain_reader_declines_what_it_cannot_read_like_pandas():
    header = "white,black,result\n"
    for body in ['1, "a,b",1-0\n', "1,2,1-0\n\n3,4,0-1\n", "1,2\n", "1,2,3,4\n", " 1,2,1-0\n"]:
        assert read_plain_csv(header + body, ",", normalize_header) is None, body
    assert read_plain_csv("a,a,b\n1,2,3\n", ",", normalize_header) is None


@FAST
@given(st.text(alphabet=st.sampled_from(list("ab \n\r\t\x0b\u2028")), max_size=60))
def test_line_numbers_match_splitlines(text):
    lines = text.splitlines()
    numbers = [i + 1 for i, line in enumerate(lines) if line.strip()]
    assert _data_line_numbers(text).tolist() == numbers[1:]


def _old_natural_order(ids: pd.Series) -> np.ndarray:
    text = ids.astype(str).to_numpy()
    digits = ids.astype(str).str.fullmatch(r"\d+").to_numpy()
    lengths = np.where(digits, ids.astype(str).str.len().to_numpy(), 0)
    return np.lexsort((text, lengths, ~digits))


@FAST
@given(
    st.lists(st.sampled_from(["10", "9", "100", "A", "a", "NAT-1", "09", "", "1a"]), max_size=30)
)
def test_natural_order_matches_full_lexsort(ids):
    series = pd.Series(ids, dtype=str)
    assert natural_order(series).tolist() == _old_natural_order(series).tolist()


@FAST
@given(
    st.lists(st.one_of(st.none(), st.integers(-(10**9), 10**9)), max_size=20),
    st.sampled_from([(100, 2), (100, 1), (10**6, 4), (10**6, 2)]),
)
def test_units_text_matches_decimal(values, scale_decimals):
    scale, decimals = scale_decimals
    series = pd.Series(values, dtype="Int64")
    quantum = Decimal(1).scaleb(-decimals)
    expected = []
    for v in values:
        if v is None:
            expected.append("")
            continue
        exact = Decimal(v) / Decimal(scale)
        rounded = abs(exact).quantize(quantum, rounding=ROUND_HALF_UP)
        expected.append(("-" if exact < 0 and rounded != 0 else "") + f"{rounded:.{decimals}f}")
    assert units_text(series, scale, decimals).tolist() == expected
    assert int_text(series).tolist() == ["" if v is None else str(v) for v in values]


@pytest.mark.parametrize("unit", [1, 10**4])
@pytest.mark.parametrize("games_per_player", [1, 3, 40])
@pytest.mark.parametrize("points", [True, False], ids=["points", "all-lost"])
def test_player_sums_match_python_sums(unit, games_per_player, points):
    rng = np.random.default_rng(unit + games_per_player)
    n = 200 * games_per_player
    codes = rng.integers(0, 200, n)
    rated = rng.random(n) < 0.8
    # All lost: no side with points, the case where the scale cannot be read off a score.
    score = rng.choice(np.array([0, 50, 100]), n) if points else np.zeros(n, dtype=np.int64)
    pd_units = rng.integers(0, 100 * unit + 1, n)
    dev = score * unit - pd_units
    sums = player_sums(codes, rated, score, pd_units, dev, 200)
    for column, values in (("score_h", score), ("expected_units", pd_units), ("dev_units", dev)):
        expected = [0] * 200
        for c, r, v in zip(codes.tolist(), rated.tolist(), values.tolist(), strict=True):
            expected[c] += v if r else 0
        assert sums[column].tolist() == expected, column
    assert sums["games"].tolist() == np.bincount(codes[rated], minlength=200).tolist()


@FAST
@given(
    st.lists(
        st.tuples(
            st.integers(0, 6),  # player code
            st.booleans(),  # rated
            st.integers(0, 100),  # score in hundredths
            st.integers(-(10**6), 10**6),  # S - PD, signed, up to the formula's scale
        ),
        max_size=60,
    ),
    st.sampled_from([1, 10**9]),
)
def test_player_sums_packed_and_plain_paths_match_python(sides, spread):
    """Any signed deviations: small ones go through the packed single pass, ones scaled by
    ``spread`` (too wide to pack in 52 bits) through the separate sums; both exact."""
    codes = np.array([s[0] for s in sides], dtype=np.int64)
    rated = np.array([s[1] for s in sides], dtype=bool)
    score = np.array([s[2] for s in sides], dtype=np.int64)
    dev = np.array([s[3] for s in sides], dtype=np.int64) * spread
    sums = player_sums(codes, rated, score, score - dev, dev, 7)
    for column, values in (("games", [1] * len(sides)), ("score_h", score), ("dev_units", dev)):
        expected = [0] * 7
        for c, r, v in zip(codes.tolist(), rated.tolist(), list(values), strict=True):
            expected[c] += int(v) if r else 0
        assert sums[column].tolist() == expected, column


def test_games_order_by_rank_matches_the_natural_order_of_ids(tmp_path):
    """games.csv's order comes from each side's row in the rating list; it must be the natural
    order of the sides' own ids (numbers numerically, then text), stable."""
    from benchmarks.synthetic import synthetic_games, synthetic_players
    from pipeline.jobs.rate.stages import rate_files
    from pipeline.model import RateOptions
    from pipeline.writers.text.output_text import games_order, player_ranks

    players = synthetic_players(60, seed=3, mixed_ids=True)
    games = synthetic_games(400, 60, seed=3, mixed_ids=True)
    write_text_csv(players, tmp_path / "players.csv")
    write_text_csv(games, tmp_path / "games.csv")
    result = rate_files(
        [tmp_path / "games.csv"], tmp_path / "players.csv", RateOptions(period="2026-11")
    )
    ranks = player_ranks(result)
    assert ranks is not None and result.side_players is not None  # ranks by the games' codes
    result = with_side_texts(result)  # the sides' ids, to compare with
    assert games_order(result, ranks).tolist() == natural_order(result.sides["player"]).tolist()
    result.side_players = None  # each side's id looked up: the same ranks
    assert player_ranks(result).tolist() == ranks.tolist()


@FAST
@given(
    st.lists(
        st.tuples(*(st.sampled_from(["", "a", "b", "1", "a,b"]) for _ in range(4))), max_size=30
    )
)
def test_game_codes_equal_exactly_for_the_same_event_round_and_pair(rows):
    """The duplicate-game key against plain tuples: same event, round and unordered pair of
    players <=> same code (ids shared between the white and black columns)."""
    from pipeline.keys.game_codes import encode_games
    from pipeline.readers.events.game_lists import _game_codes

    games = pd.DataFrame(rows, columns=["event", "round", "white", "black"], dtype=str)
    codes = _game_codes(encode_games(games)).tolist()
    keys = [(e, r, frozenset((w, b)), w == b) for e, r, w, b in rows]
    for i in range(len(rows)):
        for j in range(len(rows)):
            assert (codes[i] == codes[j]) == (keys[i] == keys[j])


def test_csv_lines_joined_in_slices_on_every_core_match_pandas(tmp_path, monkeypatch):
    """Big tables are joined in one slice of rows per core; forced here on a small table with
    quoting in it, the bytes must still be pandas' (and the slices must join in order)."""
    import pipeline.writers.text.csvtext as csvtext

    monkeypatch.setattr(csvtext, "PARALLEL_ROWS", 1)
    monkeypatch.setattr(csvtext.os, "cpu_count", lambda: 3)
    rng = np.random.default_rng(5)
    values = np.array(["a", 'q"x', "c,d", "é", "", "line\nbreak", "12"], dtype=object)
    frame = pd.DataFrame(
        {name: values[rng.integers(0, len(values), 50)] for name in ("p", "q", "r")}, dtype=str
    )
    path = tmp_path / "t.csv"
    write_text_csv(frame, path)
    expected = io.StringIO()
    frame.to_csv(expected, index=False, lineterminator="\n")
    assert csvtext._slices(50) == [(0, 17), (17, 34), (34, 50)]
    assert path.read_bytes() == expected.getvalue().encode("utf-8")
