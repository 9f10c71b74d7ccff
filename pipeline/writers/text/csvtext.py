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

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import may_contain
from pipeline.arrays.coded_text import TextColumn, merged
from pipeline.arrays.number_text import arrow_text, plain_text
from pipeline.resources.atomic_files import Target, opened

# Python's csv module (QUOTE_MINIMAL, lineterminator "\n") quotes a field holding the delimiter,
# the quote character or a line feed; a carriage return alone is not quoted.
_NEEDS_QUOTES = r'[,"\n]'
ROWS_PER_BLOCK = 250_000
PARALLEL_ROWS = 200_000


def _quoted(column: pa.Array) -> pa.Array:
    # Most columns (numbers, ids) hold none of the three characters: one memchr scan says so.
    if not may_contain(column, b',"\n'):
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


def write_text_csv(table: pd.DataFrame, path: Target) -> None:
    """``table`` (every column text) to ``path`` exactly as ``to_csv(index=False,
    lineterminator="\\n", encoding="utf-8")`` would write it; blank for missing cells."""
    if not all(pd.api.types.is_string_dtype(d) for d in table.dtypes) or table.shape[1] == 0:
        with opened(path) as fh:
            table.to_csv(fh, index=False, lineterminator="\n", encoding="utf-8")
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

    def join(start: int, stop: int) -> pa.Array:
        return _joined([c.slice(start, stop - start) for c in texts])

    bounds = _slices(rows)
    if len(bounds) == 1:
        return pa.chunked_array([join(*bounds[0])], kind)
    with ThreadPoolExecutor(len(bounds)) as pool:
        pieces = list(pool.map(lambda b: join(*b), bounds))
    return pa.chunked_array(pieces, kind)


def _joined(cells: list[pa.Array]) -> pa.Array:
    """Cells of one type (``string`` or ``large_string``), already quoted, joined into lines."""
    kind = cells[0].type
    comma, newline, empty = (pa.scalar(t, kind) for t in (",", "\n", ""))
    # The line end rides on the last cell (a pass over one column, not over the lines).
    last = pc.binary_join_element_wise(cells[-1], empty, newline)
    return pc.binary_join_element_wise(*cells[:-1], last, comma)


def _slices(rows: int) -> list[tuple[int, int]]:
    """One slice of rows per core for a big table (threads are not worth it below that)."""
    threads = os.cpu_count() or 1
    if threads == 1 or rows < PARALLEL_ROWS:
        return [(0, rows)]
    step = -(-rows // threads)
    return [(start, min(start + step, rows)) for start in range(0, rows, step)]


def write_csv_lines(names: list[str], lines: pa.ChunkedArray, path: Target) -> None:
    """The header of ``names``, then ``lines`` (from ``csv_lines``)."""
    with opened(path) as fh:
        fh.write(_header(names))
        for chunk in lines.chunks:
            for start in range(0, len(chunk), ROWS_PER_BLOCK):
                fh.write(block_bytes(chunk.slice(start, ROWS_PER_BLOCK)))


def write_coded_csv(
    names: list[str], columns: list[TextColumn], path: Target, order: np.ndarray
) -> None:
    """The header of ``names``, then a line per row of ``columns`` (one ``TextColumn`` per
    name, same rows) in ``order``, quoted as ``write_text_csv`` quotes.

    Each distinct text is quoted once; the lines are made block by block in the file's order
    (each block takes its rows' text, then joins them), on every core at once (Arrow's take
    and join release the GIL), and written in turn: at most one block per core waits."""
    # Few rows per text: merged texts are cheap to make and save a take and a join per row.
    quoted = merged([c.with_texts(_quoted) for c in columns], max(len(order) // 4, 64))
    # 32-bit offsets unless a block's lines could pass 2 GiB (the join is faster on them).
    bound = ROWS_PER_BLOCK * (sum(c.longest() for c in quoted) + 2 * len(quoted))
    kind = pa.string() if bound < 2**31 - 1 else pa.large_string()
    quoted = [c.with_texts(lambda texts: texts.cast(kind)) for c in quoted]

    def block(at: int) -> pa.Array:
        rows = pa.array(order[at : at + ROWS_PER_BLOCK])
        return _joined([c.rows(rows) for c in quoted])

    workers = os.cpu_count() or 1
    with opened(path) as fh, ThreadPoolExecutor(workers) as pool:
        fh.write(_header(names))
        pending: deque[Future[pa.Array]] = deque()
        for at in range(0, len(order), ROWS_PER_BLOCK):
            pending.append(pool.submit(block, at))
            if len(pending) > workers:
                fh.write(block_bytes(pending.popleft().result()))
        while pending:
            fh.write(block_bytes(pending.popleft().result()))


def write_arrow_csv(columns: dict[str, pa.Array], path: Target) -> None:
    """Columns of Arrow text (``string``, no nulls, same length) to ``path`` as
    ``write_text_csv`` writes them."""
    write_csv_lines(list(columns), csv_lines(columns), path)
