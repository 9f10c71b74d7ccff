"""A text column as codes into its distinct texts: each distinct value formatted once, the rows
taken by code where they are written (issue 13).

games.csv of 1 M games has 2 M rows but few distinct ratings, differences, expected scores,
results, events, rounds and dates. Formatting each distinct value once and taking the text of
only the rows a block of lines needs, in the order it is written, replaces formatting every
cell where it lies, joining every line and then gathering 200 MB of lines into order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


@dataclass(frozen=True)
class CodedText:
    """Row i's text is ``texts[codes[i]]``; with ``codes`` None, ``texts`` is the column itself.
    ``texts``: ``string`` or ``large_string``, no nulls; ``codes``: Arrow integers, no nulls
    (Arrow's take releases the GIL: the writer's threads take at once)."""

    texts: pa.Array
    codes: pa.Array | None = None

    def rows(self, at: pa.Array) -> pa.Array:
        """The text of rows ``at`` (positions), in that order."""
        if self.codes is None:
            return self.texts.take(at)
        return self.texts.take(self.codes.take(at))

    def full(self) -> pa.Array:
        """Every row's text, in row order."""
        return self.texts if self.codes is None else self.texts.take(self.codes)

    def with_texts(self, change: Callable[[pa.Array], pa.Array]) -> CodedText:
        """The same codes into ``change(texts)`` (``change`` works cell by cell)."""
        return CodedText(change(self.texts), self.codes)

    def longest(self) -> int:
        """At least as many bytes as any row's text has."""
        if not len(self.texts):
            return 0
        return int(pc.max(pc.binary_length(self.texts)).as_py())


@dataclass(frozen=True)
class FormattedInts:
    """int64 ``values`` (blank where ``missing``) whose text ``fmt`` makes only for the rows
    taken: a wide range (line numbers) has no small set of distinct texts to take from, and
    formatting the rows of a block in order beats taking them from a formatted column at random.
    ``fmt`` writes digits, a minus sign and a decimal point only, longer the further a value is
    from zero (the longest text is lo's or hi's); such text never needs CSV quotes."""

    values: np.ndarray
    missing: np.ndarray | None
    fmt: Callable[[np.ndarray], pa.Array]
    kind: pa.DataType = pa.string()

    def rows(self, at: pa.Array) -> pa.Array:
        where = at.to_numpy(zero_copy_only=False)
        text = self.fmt(self.values[where])
        if self.missing is not None:
            text = pc.if_else(pa.array(self.missing[where]), "", text)
        return text if text.type == self.kind else text.cast(self.kind)

    def full(self) -> pa.Array:
        return self.rows(pa.array(np.arange(len(self.values))))

    def with_texts(self, change: Callable[[pa.Array], pa.Array]) -> FormattedInts:
        """``change`` applied to the text of each value: the writer quotes (a no-op on digits)
        or changes the string type, so only the type ``change`` gives matters."""
        return FormattedInts(
            self.values, self.missing, self.fmt, change(pa.array([], self.kind)).type
        )

    def longest(self) -> int:
        if not len(self.values):
            return 0
        ends = self.fmt(np.array([self.values.min(), self.values.max()], dtype=np.int64))
        return int(pc.max(pc.binary_length(ends)).as_py())


TextColumn = CodedText | FormattedInts


def small_range_codes(
    values: np.ndarray,
    formatted_range: Callable[[np.ndarray], pa.Array],
    missing: np.ndarray | None = None,
) -> CodedText | None:
    """int64 ``values`` as codes into their range lo..hi formatted once by ``formatted_range``
    (text of each value of an int64 array), when the range is small (ratings, differences, PD
    in hundredths); None when it is not. Rows ``missing`` (a mask) marks read an empty text
    (code hi - lo + 1, after the range)."""
    if len(values) == 0:
        return None
    lo, hi = int(values.min()), int(values.max())
    if hi - lo > max(4096, len(values) // 8):
        return None
    # int32 straight from the subtraction (hi - lo is small): no int64 difference made first.
    codes = np.subtract(values, lo, out=np.empty(len(values), np.int32), casting="unsafe")
    texts = formatted_range(np.arange(lo, hi + 1, dtype=np.int64))
    if missing is not None:
        codes[missing] = hi - lo + 1
        texts = pa.concat_arrays([texts, pa.array([""], texts.type)])
    return CodedText(texts, pa.array(codes))


def coded_ints(
    values: np.ndarray, missing: np.ndarray | None, fmt: Callable[[np.ndarray], pa.Array]
) -> TextColumn:
    """int64 ``values`` as text by ``fmt``: each value of a small range formatted once, else
    each row when it is taken; blank where ``missing`` (a mask, or None for none)."""
    coded = small_range_codes(values, fmt, missing)
    return FormattedInts(values, missing, fmt) if coded is None else coded


def encoded_text(text: pa.Array) -> CodedText:
    """A text column (``string``, no nulls) as codes into its distinct values (Arrow's hash):
    taking a block's rows in the file's order from a few distinct values beats taking them at
    random from two million cells, by more than the hash costs."""
    encoded = text.dictionary_encode()
    return CodedText(encoded.dictionary, encoded.indices)


def _pair(left: CodedText, right: CodedText) -> CodedText:
    """Two adjacent columns as one whose text is ``left,right``: codes ``l * len(right) + r``
    into every pair of their texts joined by a comma (the product of their sizes)."""
    assert left.codes is not None and right.codes is not None
    n = len(right.texts)
    pairs = np.arange(len(left.texts) * n, dtype=np.int64)
    texts = pc.binary_join_element_wise(
        left.texts.take(pa.array(pairs // n)), right.texts.take(pa.array(pairs % n)), ","
    )
    l_codes = left.codes.to_numpy(zero_copy_only=False).astype(np.int32)
    codes = l_codes * np.int32(n) + right.codes.to_numpy(zero_copy_only=False)
    return CodedText(texts, pa.array(codes.astype(np.int32)))


def merged(columns: list[TextColumn], most: int) -> list[TextColumn]:
    """Adjacent coded columns (already quoted) merged into one while the product of their
    numbers of texts stays at most ``most``: the same lines from fewer columns to take and
    join (the join's comma between them moves into the merged texts).

    games.csv: opponent's rating, result and rated; diff and PD; deviation, note, date and
    source: 15 columns joined as 9."""
    out: list[TextColumn] = []
    for column in columns:
        last = out[-1] if out else None
        if (
            isinstance(last, CodedText)
            and isinstance(column, CodedText)
            and last.codes is not None
            and column.codes is not None
            and len(last.texts) * len(column.texts) <= most
        ):
            out[-1] = _pair(last, column)
        else:
            out.append(column)
    return out
