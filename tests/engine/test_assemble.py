"""``run.assemble.assemble_each`` (issue 13): games files rated with the same list are assembled
as one table; the sides, and the problems when a player is on no list, are exactly those of
assembling each file alone."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.assemble import assemble_each
from pipeline.engine.sides import assemble_sides
from pipeline.errors import InputError
from pipeline.model import PlayerList
from pipeline.readers import read_event_file, read_players

HEAD = "event,round,date,white,black,result,white_rating,black_rating\n"
ROW = st.tuples(
    st.sampled_from(["1", "2", "3", "9"]),  # 9 is on no list (unknown without a rating)
    st.sampled_from(["1", "2", "3", "9"]),
    st.sampled_from(["", "1700"]),
)


def _players(folder):
    path = folder / "players.csv"
    path.write_text("id,name,rating\n1,A,1600\n2,B,\n3,C,2000\n", encoding="utf-8")
    return read_players(path)


def _files(folder, files):
    items = []
    for i, rows in enumerate(files):
        path = folder / f"e{i}.csv"
        body = [f"E{i},{r},2026-11-01,{w},{b},1-0,{x},\n" for r, (w, b, x) in enumerate(rows, 1)]
        path.write_text(HEAD + "".join(body), encoding="utf-8")
        items.append(read_event_file(path))
    return items


def _one_by_one(items, lists):
    parts, problems = [], []
    for item, players in zip(items, lists, strict=True):
        try:
            parts.append(assemble_sides([item], players))
        except InputError as exc:
            problems.extend(exc.problems)
    return parts, problems


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(ROW, min_size=1, max_size=4), min_size=1, max_size=4), st.booleans())
def test_together_equals_one_by_one(tmp_path_factory, files, two_lists):
    folder = tmp_path_factory.mktemp("events")
    first = _players(folder)
    other = PlayerList(first.source, first.players)  # an equal list, another object
    items = _files(
        folder, [[(w, b, x) for w, b, x in rows if w != b] or [("1", "2", "")] for rows in files]
    )
    lists = [other if two_lists and i % 2 else first for i in range(len(items))]
    parts, problems = _one_by_one(items, lists)
    if problems:
        with pytest.raises(InputError) as caught:
            assemble_each(items, lists)
        assert caught.value.problems == problems
    else:
        expected = pd.concat(parts, ignore_index=True)
        pd.testing.assert_frame_equal(assemble_each(items, lists), expected)


def test_an_unknown_player_names_its_own_file(tmp_path):
    items = _files(tmp_path, [[("1", "2", "")], [("3", "9", "")], [("9", "1", "1500")]])
    players = _players(tmp_path)
    with pytest.raises(InputError) as caught:
        assemble_each(items, [players] * 3)
    assert [(p.code, p.file, p.row, p.value) for p in caught.value.problems] == [
        ("unknown-player", str(tmp_path / "e1.csv"), 2, "9")
    ]
