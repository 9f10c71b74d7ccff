"""The id sets the search index asks of older lists (pipeline/site/id_sets.py): the ids that one
array lacks, by numbers when every id is one (FIDE's) and by text otherwise, the same answer
either way; a list's ids as list_table reads the list."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
from hypothesis import given
from hypothesis import strategies as st

from pipeline.history.database import open_read_only
from pipeline.history.list_reading import content_of, list_table
from pipeline.site.id_sets import Ids, list_ids, numbers
from tests.rating_site.search_history import search_history

NUMERIC = st.integers(min_value=1, max_value=10**18 - 1).map(str)
# Texts a number's reading must not confuse with one: leading zeros, signs, spaces, other digits.
TRICKY = st.sampled_from(["0", "007", "7", "+7", "-7", " 7", "7 ", "٧", "7.0", "1e3", "1000", ""])
IDS = st.lists(st.one_of(NUMERIC, TRICKY, st.text(max_size=6)), max_size=40)


@given(IDS, IDS)
def test_not_in_is_the_ids_the_other_array_lacks_in_their_order(ids, others):
    found = not_in(ids, others)
    assert found == [i for i in ids if i not in set(others)]


def not_in(ids: list[str], others: list[str]) -> list[str]:
    """Ids.not_in of ``ids`` and ``others``, checked to agree as text and as numbers."""
    mine, theirs = Ids.of(pa.array(ids, pa.string())), Ids.of(pa.array(others, pa.string()))
    found = mine.not_in(theirs)
    if found.number is not None:
        assert found.number.tolist() == [int(i) for i in found.text.to_pylist()]
    both = mine.plus(theirs)
    assert both.text.to_pylist() == ids + others
    assert (both.number is None) == (mine.number is None or theirs.number is None)
    return list(found.text.to_pylist())


@given(st.lists(NUMERIC, max_size=40), st.lists(NUMERIC, max_size=40))
def test_numeric_ids_are_compared_as_numbers_with_the_same_answer(ids, others):
    assert numbers(pa.array(ids, pa.string())) is not None
    found = not_in(ids, others)
    assert found == [i for i in ids if i not in set(others)]


@given(TRICKY.filter(lambda t: t not in ("7", "1000")))
def test_a_text_with_another_spelling_of_a_number_is_not_read_as_one(text):
    assert numbers(pa.array(["7", text], pa.string())) is None


def test_a_lists_ids_are_those_list_table_reads(tmp_path):
    """Every list of a history with a player dropped, one added and lists stored as changes
    over a base: its ids as list_table gives them, in the same order."""
    database = search_history(tmp_path)
    con = open_read_only(Path(database))
    try:
        bases: dict[int, pa.Array] = {}
        stored = [r[0] for r in con.execute("SELECT id FROM list_contents ORDER BY id")]
        assert any(content_of(con, c).base_id is not None for c in stored)
        for content_id in stored:
            content = content_of(con, content_id)
            expected = list_table(con, content, ["id"]).column("id").to_pylist()
            assert list_ids(con, content, bases).text.to_pylist() == expected
    finally:
        con.close()
