"""A column of many distinct texts (a rating list's ids and names) has its cells' XML made by
Arrow kernels (pipeline/writers/xlsx/typed_rows.py, ``_tails``): the same bytes as each text's
own tail (``_tail``), whatever the text holds: spaces of any kind at either end, a formula's
first character, markup, characters XML cannot hold, characters beyond the BMP."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.writers.xlsx.cell_types import Number
from pipeline.writers.xlsx.package import Book
from pipeline.writers.xlsx.typed_rows import MANY_TEXTS, _tail, _tails

HOSTILE = list(" \t\r\n\x0b\x0c\x85\xa0\u2028\u3000=+-@<>&\"'\x00\x01\x1f\ufffe\uffffé😀ab1")
CHARACTER = st.one_of(st.sampled_from(HOSTILE), st.characters(exclude_categories=["Cs"]))
TEXT = st.text(alphabet=CHARACTER, max_size=6)
NUMBER = st.builds(Number, st.sampled_from(["1", "2.50"]), st.sampled_from(["", "0.00"]))
CELL = st.one_of(st.none(), NUMBER, TEXT)


@settings(max_examples=40, deadline=None)
@given(st.lists(CELL, min_size=MANY_TEXTS, max_size=MANY_TEXTS + 40))
def test_many_texts_tails_are_each_texts_own(cells):
    book = Book(io.BytesIO())
    expected = [_tail(book, c) for c in cells]
    assert _tails(book, cells).to_pylist() == expected


@settings(max_examples=40, deadline=None)
@given(st.lists(TEXT, min_size=MANY_TEXTS, max_size=MANY_TEXTS + 40), st.booleans())
def test_a_column_of_texts_alone_has_each_texts_own_tail(texts, plain_only):
    """Every distinct cell a text (a list's ids and names): the tails made by kernels are
    returned as they are, unless some text is not plain (then each of those its own)."""
    cells = [t for t in texts if t.isalnum() and t.isascii()] * MANY_TEXTS if plain_only else texts
    book = Book(io.BytesIO())
    expected = [_tail(book, c) for c in cells]
    assert _tails(book, cells).to_pylist() == expected
    assert _tails(book, cells, text_only=True).to_pylist() == expected
    with_blank = [None, *cells]  # a text column's blank cell
    assert _tails(book, with_blank, text_only=True).to_pylist() == [None, *expected]


@settings(max_examples=25, deadline=None)
@given(
    # Every text plain (kernels alone), or any text (some through ``_tail``).
    st.sampled_from([st.text(alphabet="ab1&<>,.", max_size=6), TEXT]).flatmap(
        lambda text: st.lists(
            st.tuples(text, text, st.sampled_from(["", "2150", "x"])), min_size=MANY_TEXTS
        )
    )
)
def test_a_long_tables_ids_and_names_are_the_cell_by_cell_bytes(rows):
    """A long table's ids and names are made a row each (``row_texts``, not factorized: a
    list's are nearly all distinct): the workbook is the cell-by-cell writer's, byte for
    byte, whatever they hold (blanks, spaces, formulas, characters XML cannot hold)."""
    import pandas as pd

    from tests.writers import xlsx_cells_reference as reference

    table = pd.DataFrame(rows, columns=["id", "name", "rating"], dtype=str)
    columnar, cell_by_cell = reference.rating_list_both_ways(table)
    assert columnar == cell_by_cell
