"""Write a frame of text cells as CSV, byte for byte what ``DataFrame.to_csv`` writes (UTF-8, LF,
minimal quoting as Python's csv module does it), but column-wise with Arrow string kernels.

pandas' writer formats and quotes every cell in a Python-level loop (about 10 s per million
game sides); here each column is quoted where needed in one kernel call, the columns are joined
into lines, and each slice of lines is written from Arrow's buffer as one block.
"""

from __future__ import annotations

import csv
import io
import os
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.columnar.order import stable_order
from pipeline.writers.format import arrow_text, plain_text

# Python's csv module (QUOTE_MINIMAL, lineterminator "\n") quotes a field holding the delimiter,
# the quote character or a line feed; a carriage return alone is not quoted.
_NEEDS_QUOTES = r'[,"\n]'
ROWS_PER_BLOCK = 250_000
PARALLEL_ROWS = 200_000


def _may_need_quotes(column: pa.Array) -> bool:
    """False only when no cell of ``column`` can hold a comma, a quote or a line feed: one scan
    of the raw character buffer (memchr) instead of a per-cell kernel.

    Proof: the data buffer holds the UTF-8 bytes of every cell (and perhaps bytes of cells
    sliced away, which can only make the answer True), and UTF-8 encodes every non-ASCII
    character with bytes >= 0x80, so bytes 0x2C, 0x22 and 0x0A occur only as those characters.
    """
    data = column.buffers()[2]
    if data is None:
        return False  # no characters at all
    raw = data.to_pybytes()
    return b"," in raw or b'"' in raw or b"\n" in raw


def _quoted(column: pa.Array) -> pa.Array:
    # Most columns (numbers, ids) hold none of the three characters.
    if not _may_need_quotes(column):
        return column
    needs = pc.match_substring_regex(column, _NEEDS_QUOTES)
    if not pc.any(needs).as_py():
        return column
    doubled = pc.replace_substring(column, '"', '""')
    quote, empty = pa.scalar('"', column.type), pa.scalar("", column.type)
    return pc.if_else(needs, pc.binary_join_element_wise(quote, doubled, quote, empty), column)


def block_bytes(lines: pa.Array) -> memoryview:
    """The characters of a string array with no nulls, as one contiguous block (no copy).

    Proof: an Arrow string array stores its cells back to back in buffer 2, cell i at bytes
    offsets[offset + i] .. offsets[offset + i + 1] (buffer 1; 32-bit offsets for ``string``,
    64-bit for ``large_string``). With no nulls every cell is there, so the cells of the
    array (from its own ``offset``, as a slice has one) are exactly the bytes
    offsets[offset] .. offsets[offset + len], in order."""
    offsets_type = np.int64 if pa.types.is_large_string(lines.type) else np.int32
    offsets = np.frombuffer(lines.buffers()[1], dtype=offsets_type)
    start, end = offsets[lines.offset], offsets[lines.offset + len(lines)]
    return memoryview(lines.buffers()[2])[start:end]


def _header(columns: list[str]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(columns)
    return buffer.getvalue().encode("utf-8")


def write_text_csv(table: pd.DataFrame, path: Path) -> None:
    """``table`` (every column text) to ``path`` exactly as ``to_csv(index=False,
    lineterminator="\\n", encoding="utf-8")`` would write it; blank for missing cells."""
    if not all(pd.api.types.is_string_dtype(d) for d in table.dtypes) or table.shape[1] == 0:
        table.to_csv(path, index=False, lineterminator="\n", encoding="utf-8")
        return
    write_arrow_csv({str(c): plain_text(arrow_text(table[c])) for c in table.columns}, path)


def csv_lines(columns: dict[str, pa.Array]) -> pa.ChunkedArray:
    """Columns of Arrow text (``string``, no nulls, same length) joined into CSV lines, each
    ending in a line feed, quoted as ``write_text_csv`` quotes.

    Arrow's join kernel runs on one core and releases the GIL: slices of rows are joined on
    every core at once and kept as the chunks of the result (not copied into one array: for
    the games of 1 M games that copy was the run's peak memory, 200+ MB)."""
    texts = [_quoted(c) for c in columns.values()]
    rows = len(texts[0]) if texts else 0
    # 32-bit offsets while the lines fit in 2 GiB (the join is faster on them), else 64-bit.
    size = sum(c.nbytes for c in texts) + 2 * len(texts) * rows
    kind = pa.string() if size < 2**31 - 1 else pa.large_string()
    texts = [c.cast(kind) for c in texts]
    comma, newline, empty = (pa.scalar(t, kind) for t in (",", "\n", ""))

    def join(start: int, stop: int) -> pa.Array:
        cells = [c.slice(start, stop - start) for c in texts]
        # The line end rides on the last cell (a pass over one column, not over the lines).
        cells[-1] = pc.binary_join_element_wise(cells[-1], empty, newline)
        return pc.binary_join_element_wise(*cells, comma)

    bounds = _slices(rows)
    if len(bounds) == 1:
        return pa.chunked_array([join(*bounds[0])], kind)
    with ThreadPoolExecutor(len(bounds)) as pool:
        pieces = list(pool.map(lambda b: join(*b), bounds))
    return pa.chunked_array(pieces, kind)


def _slices(rows: int) -> list[tuple[int, int]]:
    """One slice of rows per core for a big table (threads are not worth it below that)."""
    threads = os.cpu_count() or 1
    if threads == 1 or rows < PARALLEL_ROWS:
        return [(0, rows)]
    step = -(-rows // threads)
    return [(start, min(start + step, rows)) for start in range(0, rows, step)]


def write_csv_lines(
    names: list[str], lines: pa.ChunkedArray, path: Path, order: np.ndarray | None = None
) -> None:
    """The header of ``names``, then ``lines`` (from ``csv_lines``), in ``order`` if given.
    The blocks of an order are gathered on every core at once (Arrow's take releases the GIL)
    and written in turn."""
    with open(path, "wb") as fh:
        fh.write(_header(names))
        if order is None:
            for chunk in lines.chunks:
                for start in range(0, len(chunk), ROWS_PER_BLOCK):
                    fh.write(block_bytes(chunk.slice(start, ROWS_PER_BLOCK)))
            return
        starts = np.cumsum([0, *(len(c) for c in lines.chunks)])
        workers = os.cpu_count() or 1
        with ThreadPoolExecutor(workers) as pool:
            # At most one block per core ahead of the one being written: gathered blocks wait
            # in memory only that long (``pool.map`` would gather them all at once).
            pending: deque[Future[pa.Array]] = deque()
            for at in range(0, len(lines), ROWS_PER_BLOCK):
                rows = order[at : at + ROWS_PER_BLOCK]
                pending.append(pool.submit(gather, lines.chunks, starts, rows))
                if len(pending) > workers:
                    fh.write(block_bytes(pending.popleft().result()))
            while pending:
                fh.write(block_bytes(pending.popleft().result()))


def gather(chunks: list[pa.Array], starts: np.ndarray, rows: np.ndarray) -> pa.Array:
    """``rows`` (positions over all ``chunks`` back to back; ``starts`` = each chunk's first
    position, then the total) as one array, in that order: each chunk gives its rows in one
    take, then one take of the (block-sized) result puts them in order. Arrow's take on a
    chunked array does the same job about 3x slower."""
    if len(chunks) == 1:
        return chunks[0].take(pa.array(rows))
    which = np.searchsorted(starts, rows, side="right") - 1
    grouped = stable_order(which)  # the rows chunk by chunk, in order within each
    cut = np.searchsorted(which[grouped], np.arange(1, len(chunks)))
    parts = [
        chunk.take(pa.array(rows[group] - start))
        for chunk, start, group in zip(chunks, starts[:-1], np.split(grouped, cut), strict=True)
    ]
    back = np.empty_like(grouped)
    back[grouped] = np.arange(len(grouped))
    return pa.concat_arrays(parts).take(pa.array(back))


def write_arrow_csv(columns: dict[str, pa.Array], path: Path) -> None:
    """Columns of Arrow text (``string``, no nulls, same length) to ``path`` as
    ``write_text_csv`` writes them."""
    write_csv_lines(list(columns), csv_lines(columns), path)
