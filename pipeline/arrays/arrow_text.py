"""Columns between pandas and Arrow without copies: pandas 3 keeps text in Arrow arrays, so the
string kernels of pyarrow.compute (hash lookups, casts, joins) work on them in place.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

# pandas 3's default string dtype ("str"): Arrow storage, NaN for missing.
STR_DTYPE = pd.StringDtype("pyarrow", na_value=np.nan)


def arrow_ints(values: pd.Series | np.ndarray) -> pa.Array:
    """Nullable integers as an Arrow int64 array (<NA> -> null)."""
    if isinstance(values, pa.Array):
        return values.cast(pa.int64())
    series = pd.Series(values)
    if isinstance(series.dtype, np.dtype) and series.dtype.kind in "iub":
        return pa.array(series.to_numpy(dtype=np.int64))
    return pa.array(series.astype("Int64").array, type=pa.int64())


def arrow_storage(array: pd.arrays.ArrowStringArray) -> pa.ChunkedArray:
    """The Arrow array a pandas Arrow-backed column keeps its values in, without a copy.

    Through the Arrow protocol, not pandas' private ``_pa_array``: ``__arrow_array__`` of an
    Arrow-backed pandas array returns that very ChunkedArray (no conversion, no copy;
    tests/test_fast_paths.py checks it is the same object), so kernels run on pandas' buffers.
    """
    return array.__arrow_array__()


def may_contain(text: pa.Array | pa.ChunkedArray, chars: bytes) -> bool:
    """False only when no cell of ``text`` (Arrow strings) holds any of the ASCII ``chars``:
    a memchr scan of each chunk's character buffer instead of a per-cell kernel.

    Proof: the data buffer holds the UTF-8 bytes of every cell (and perhaps bytes of cells
    sliced away, which can only make the answer True), and UTF-8 writes every non-ASCII
    character with bytes >= 0x80, so an ASCII byte occurs only as that character."""
    chunks = text.chunks if isinstance(text, pa.ChunkedArray) else [text]
    for chunk in chunks:
        data = chunk.buffers()[2]
        if data is None:  # no characters at all
            continue
        # The buffer's bytes less ``chars`` (bytes.translate deletes them in one pass): shorter
        # when it holds one. A view of the buffer has no translate, so its bytes are copied
        # once (a few ms for a million ids); a memchr a character was a pass each.
        raw = data.to_pybytes()
        if len(raw.translate(None, chars)) != len(raw):
            return True
    return False


def arrow_text(values: pd.Series) -> pa.Array | pa.ChunkedArray:
    """A text column as Arrow strings without copying when it is already Arrow-backed."""
    if isinstance(values.array, pd.arrays.ArrowStringArray):
        return arrow_storage(values.array)
    return arrow_storage(values.astype(STR_DTYPE).array)


def str_series(text: pa.Array | pa.ChunkedArray, index: pd.Index | None = None) -> pd.Series:
    """Arrow strings as a pandas ``str`` Series (no copy)."""
    if isinstance(text, pa.ChunkedArray):
        text = text.combine_chunks() if text.num_chunks != 1 else text.chunk(0)
    if text.type != pa.large_string() and text.type != pa.string():
        text = text.cast(pa.string())
    return pd.Series(pd.arrays.ArrowStringArray(text, dtype=STR_DTYPE), index=index)


def text_array(values: pd.api.extensions.ExtensionArray | np.ndarray) -> pa.Array:
    """Text or categorical cells as one Arrow string array: a category's label is taken by its
    code (no Python string built per row)."""
    text = pa.array(values)
    if isinstance(text, pa.ChunkedArray):
        text = text.combine_chunks()
    return text.cast(pa.string())


def repeat_text(values: list[str], counts: list[int]) -> pd.Series:
    """``values[i]`` repeated ``counts[i]`` times, one after another, as a str Series: built
    by Arrow's ``take`` (a million cells from a Python object array cost 100x more)."""
    at = np.repeat(np.arange(len(values), dtype=np.int64), counts)
    return str_series(pa.array(values, pa.string()).take(pa.array(at)))


def _encoded(*columns: pd.Series) -> pa.DictionaryArray:
    """The cells of ``columns``, one after another, dictionary-encoded over one dictionary."""
    texts = [pa.chunked_array(arrow_text(column)) for column in columns]
    # The dictionary holds at most every character of the cells: 32-bit offsets (no cast, no
    # copy of the cells) whenever all of them fit in 2 GiB, else 64-bit.
    kind = pa.string() if sum(t.nbytes for t in texts) < 2**31 - 1 else pa.large_string()
    chunks = []
    for text in texts:
        chunks.extend((text if text.type == kind else text.cast(kind)).fill_null("").chunks)
    return pa.chunked_array(chunks, kind).dictionary_encode().combine_chunks()


def factorize_text(values: pd.Series) -> tuple[np.ndarray, pd.Series]:
    """(int64 code of each cell, the distinct values as a str Series, in order of appearance):
    ``pd.factorize`` for text, through Arrow's hash kernel (about 3x faster on Arrow strings)."""
    encoded = _encoded(values)
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
    return codes, str_series(encoded.dictionary)


def duplicated_text(values: pd.Series) -> np.ndarray:
    """``values.duplicated(keep="first")`` as a bool array, through ``factorize_text``.

    Exact: the codes number the distinct values in order of first appearance, so the codes seen
    before row i are exactly 0..m (m their running maximum) and row i holds a value seen before
    exactly when its code is at most m."""
    codes, _ = factorize_text(values)
    if not len(codes):
        return np.zeros(0, dtype=bool)
    highest_before = np.concatenate([[-1], np.maximum.accumulate(codes)[:-1]])
    return codes <= highest_before


def encode_together(*columns: pd.Series) -> tuple[list[np.ndarray], pd.Series]:
    """``factorize_text`` over several columns with one shared set of codes: (the codes of each
    column, the distinct values in order of appearance)."""
    encoded = _encoded(*columns)
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
    bounds = np.cumsum([0, *(len(c) for c in columns)])
    parts = [codes[bounds[i] : bounds[i + 1]] for i in range(len(columns))]
    return parts, str_series(encoded.dictionary)


def factorize_together(*columns: pd.Series) -> tuple[list[np.ndarray], int]:
    """``encode_together`` with the number of distinct values instead of the values."""
    codes, distinct = encode_together(*columns)
    return codes, len(distinct)


def join_pieces(pieces: list[pa.Array | str], skip_nulls: bool = False) -> pa.Array:
    """Each row's pieces one after another (Arrow's element-wise join: columns of text and
    literal texts, the same in every row). Each run of literals is one piece first: the join
    handles every piece once per row. A null piece makes its row null, or with ``skip_nulls``
    is left out of its row."""
    merged: list[pa.Array | str] = []
    for piece in pieces:
        if isinstance(piece, str) and merged and isinstance(merged[-1], str):
            merged[-1] += piece
        else:
            merged.append(piece)
    if skip_nulls:
        return pc.binary_join_element_wise(*merged, "", null_handling="replace")
    return pc.binary_join_element_wise(*merged, "")


def replace_held(text: pa.Array, pairs: tuple[tuple[str, str], ...]) -> pa.Array:
    """``text`` with each (ASCII character, replacement) of ``pairs`` replaced in turn by Arrow's
    kernel, a pass only for a character some cell holds: one copy of the cells' bytes says
    which (as :func:`may_contain`; most columns hold none). Exact when no replacement holds a
    later pair's character (entities: ``&`` first, then ``<`` as ``&lt;``...), so what the
    cells held at first is what each pass would find."""
    data = b"".join(chunk.to_pybytes() for chunk in _data_buffers(text))
    for raw, new in pairs:
        if raw.encode() in data:
            text = pc.replace_substring(text, raw, new)
    return text


def _data_buffers(text: pa.Array | pa.ChunkedArray) -> list[pa.Buffer]:
    chunks = text.chunks if isinstance(text, pa.ChunkedArray) else [text]
    return [c.buffers()[2] for c in chunks if c.buffers()[2] is not None]


def string_array(text: pa.Array | pa.ChunkedArray) -> pa.Array:
    """One array of ``string`` (32-bit offsets): Arrow's element-wise join takes one type."""
    if isinstance(text, pa.ChunkedArray):  # combine_chunks copies even a single chunk
        text = text.chunk(0) if text.num_chunks == 1 else text.combine_chunks()
    return text if text.type == pa.string() else text.cast(pa.string())
