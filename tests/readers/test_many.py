"""Many games files read together (``readers.many``: their cells parsed as one table) give each
file exactly what reading it alone gives: the same games, dtypes and row numbers, and the same
problems naming the same file and row (issue 13)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.errors import InputError
from pipeline.keys.game_codes import encode_games
from pipeline.model import READ_DEFAULTS
from pipeline.readers import read_event_file
from pipeline.readers.events.many import read_event_files

HEADS = [
    "event,round,date,white,black,result",
    "event,round,date,white,black,result,white_rating,black_rating",
]
# Bad cells too (a bad result, a blank id, a bad date, a bad rating), so files have problems.
RESULTS = ["1-0", "0-1", "1/2-1/2", "1-O"]
IDS = ["1", "2", "3", "4", ""]
DATES = ["2026-11-01", "", "2026-13-01"]
RATINGS = ["", "1650", "0", "abc"]

row = st.tuples(
    st.sampled_from(["E", "", "F"]),
    st.sampled_from(["1", "2", ""]),
    st.sampled_from(DATES),
    st.sampled_from(IDS),
    st.sampled_from(IDS),
    st.sampled_from(RESULTS),
    st.sampled_from(RATINGS),
    st.sampled_from(RATINGS),
)
a_file = st.tuples(st.integers(0, 1), st.lists(row, max_size=20))


def _alone(path: Path) -> tuple[pd.DataFrame | None, list]:
    try:
        return read_event_file(path).games, []
    except InputError as exc:
        return (exc.partial.games if exc.partial is not None else None), exc.problems


def _together(
    paths: list[Path], reads: list | None = None
) -> list[tuple[pd.DataFrame | None, list]]:
    """Each file's games and problems from one batch read (``reads``: that read, if done)."""
    out = []
    for read in read_event_files(paths, READ_DEFAULTS) if reads is None else reads:
        if isinstance(read, InputError):
            out.append((read.partial.games if read.partial is not None else None, read.problems))
        else:
            out.append((read.games, []))
    return out


def _write(folder: Path, files: list) -> list[Path]:
    paths = []
    for i, (head, rows) in enumerate(files):
        width = len(HEADS[head].split(","))
        lines = [HEADS[head], *(",".join(r[:width]) for r in rows)]
        path = folder / f"event_{i}.csv"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def _assert_same_codes(kept, alone) -> None:
    for part in ("event", "round", "white", "black"):
        np.testing.assert_array_equal(getattr(kept, part), getattr(alone, part))
    assert (kept.n_event, kept.n_round) == (alone.n_event, alone.n_round)
    pd.testing.assert_series_equal(kept.players, alone.players)


def _same(paths: list[Path]) -> None:
    reads = list(read_event_files(paths, READ_DEFAULTS))
    together = _together(paths, reads)
    assert len(together) == len(paths)
    for read in reads:  # codes kept from the batch's
        item = read.partial if isinstance(read, InputError) else read
        if item is not None:
            _assert_same_codes(item.codes(), encode_games(item.games))
    for path, (games, problems) in zip(paths, together, strict=True):
        alone_games, alone_problems = _alone(path)
        assert problems == alone_problems, path
        assert (games is None) == (alone_games is None)
        if games is not None:
            pd.testing.assert_frame_equal(games, alone_games)


# A read costs mostly per file, not per row: 40 batches of files of up to 20 rows check more
# rows (and more problems a file) than 60 of up to 8 did, in about half the time.
@settings(max_examples=40, deadline=None)
@given(st.lists(a_file, min_size=1, max_size=4), st.booleans())
def test_files_read_together_read_as_each_alone(files, repeat_first):
    with tempfile.TemporaryDirectory() as folder:
        paths = _write(Path(folder), files)
        _same([*paths, paths[0]] if repeat_first else paths)


def test_same_game_in_two_files_is_no_duplicate_but_is_within_one(tmp_path):
    game = "Open,1,2026-11-01,1,2,1-0"
    paths = _write(tmp_path, [(0, []), (0, [])])
    for path in paths:
        path.write_text(f"{HEADS[0]}\n{game}\n", encoding="utf-8")
    assert [problems for _, problems in _together(paths)] == [[], []]
    paths[1].write_text(f"{HEADS[0]}\n{game}\n{game}\n", encoding="utf-8")
    (_, first), (_, second) = _together(paths)
    assert first == []
    assert [(p.code, p.file, p.row) for p in second] == [("duplicate-game", str(paths[1]), 3)]


def test_a_blank_event_is_named_after_its_own_file(tmp_path):
    paths = _write(tmp_path, [(0, [("", "1", "", "1", "2", "1-0")])] * 2)
    names = [games["event"].tolist() for games, _ in _together(paths)]
    assert names == [["event_0"], ["event_1"]]
