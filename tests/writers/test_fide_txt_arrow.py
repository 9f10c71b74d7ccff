"""The FIDE TXT list written with Arrow kernels (issue 13) is byte for byte what the field-by-field
pandas writer wrote: every field cut to its width - 1 characters (not bytes) and padded with
spaces, CRLF line ends, whatever the names hold."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.writers.text.fide_txt import (
    SINGLE_TYPE_FIELDS,
    fide_txt_body,
    fide_txt_cells,
    fide_txt_header,
    write_fide_txt,
)


def reference_lines(table: pd.DataFrame, month_label: str) -> list[str]:
    """The writer's rule before issue 13, one field at a time: each cell cut to its width - 1
    characters and padded with spaces to its width (pandas' str.slice and str.ljust, which the
    writer used then, count characters as Python's str does; plain Python here is the same rule
    at a fraction of the cost). The cells FIDE prints and the header come from the writer's
    own helpers."""
    t = fide_txt_cells(table)
    header = fide_txt_header(month_label)
    fields = [
        (end - start, t[column].astype(str).tolist())
        for _, start, end, column in SINGLE_TYPE_FIELDS
    ]
    lines = [
        "".join(cells[i][: width - 1].ljust(width) for width, cells in fields)
        for i in range(len(t))
    ]
    return [header, *lines]


text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=80)
rows = st.lists(
    st.tuples(
        st.integers(1, 10**16).map(str),
        text,
        st.sampled_from(["GER", "FID", ""]),
        st.sampled_from(["m", "w", "f", "", "x"]),
        st.sampled_from(["", "GM", "WGM", "wim", "FM", "CM"]),
        st.sampled_from(["", "1500", "2899"]),
        st.sampled_from(["", "3", "120"]),
        st.sampled_from(["", "10", "40"]),
        st.sampled_from(["", "1990", "2012"]),
        st.sampled_from(["", "i", "wi", "w"]),
    ),
    max_size=30,
)
COLUMNS = [
    "id",
    "name",
    "federation",
    "sex",
    "title",
    "rating",
    "period_games",
    "k",
    "birth_year",
    "flags",
]


@settings(max_examples=150, deadline=None)
@given(rows)
def test_same_bytes_as_the_field_by_field_writer(tmp_path_factory, records):
    table = pd.DataFrame(
        {c: pd.Series([r[i] for r in records], dtype=str) for i, c in enumerate(COLUMNS)}
    )
    path = tmp_path_factory.mktemp("txt") / "list.txt"
    write_fide_txt(table, path, "NOV26")
    want = "".join(line + "\r\n" for line in reference_lines(table, "NOV26"))
    assert path.read_bytes() == want.encode("utf-8")


ascii_rows = st.lists(
    st.tuples(
        st.integers(1, 10**16).map(str),
        st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=80),
        *(st.sampled_from(["", "GER", "1500", "WGM", "w", "m"]) for _ in range(8)),
    ),
    min_size=1,
    max_size=30,
)


@settings(max_examples=100, deadline=None)
@given(ascii_rows)
def test_ascii_lines_as_one_matrix_same_bytes(tmp_path_factory, records):
    """All-ASCII lists take the byte-matrix path (every cell its width in bytes): the same
    bytes as the field-by-field writer, long names cut included."""
    table = pd.DataFrame(
        {c: pd.Series([r[i] for r in records], dtype=str) for i, c in enumerate(COLUMNS)}
    )
    assert fide_txt_body(table).type == pa.string()  # the matrix path, not the join
    path = tmp_path_factory.mktemp("txt") / "list.txt"
    write_fide_txt(table, path, "NOV26")
    want = "".join(line + "\r\n" for line in reference_lines(table, "NOV26"))
    assert path.read_bytes() == want.encode("utf-8")
