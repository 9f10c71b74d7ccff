"""A rating list as text, written a block of players at a time: ``rating_list_N.csv`` (reads
back as the next ``--list``) and ``rating_list_N.txt`` (FIDE's fixed-width layout), both from the
same text table, and the CSV's sha256 computed as it is written.

The caller gives the blocks (text tables of the same columns, one after the other) as an
iterable, so only one block's text need exist at once: 1.9 M players as text cells and lines are
gigabytes. The same bytes as the whole table written at once: every cell, its quoting and each
line depend on that row only (``tests/jobs/test_list_blocks.py``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline.arrays.number_text import arrow_text, plain_text
from pipeline.resources.threads import each
from pipeline.writers.text.csvtext import block_bytes, csv_lines
from pipeline.writers.text.fide_txt import fide_txt_body, fide_txt_header


def write_list_text_files(
    columns: Sequence[str],
    blocks: Iterable[pd.DataFrame],
    csv_path: Path,
    txt_path: Path,
    month_label: str,
) -> str:
    """Write ``blocks`` (text tables with ``columns``) as one CSV and one FIDE TXT file; the
    CSV's sha256."""
    digest = hashlib.sha256()
    with csv_path.open("wb") as csv_fh, txt_path.open("wb") as txt_fh:
        head = csv_head(columns)
        csv_fh.write(head)
        digest.update(head)
        txt_fh.write(fide_txt_head(month_label))
        for table in blocks:
            # The CSV's lines and the TXT's are independent: on both cores (Arrow kernels).
            jobs: list[Callable[[], Any]] = [
                partial(csv_blocks, columns, table),
                partial(fide_txt_body, table),
            ]
            csv_pieces, body = each(jobs, len(table))
            for block in csv_pieces:
                csv_fh.write(block)
                digest.update(block)
            txt_fh.write(block_bytes(body))
    return digest.hexdigest()


def csv_head(columns: Sequence[str]) -> bytes:
    """The CSV's header line: the plain names, no quotes."""
    return (",".join(columns) + "\n").encode("utf-8")


def fide_txt_head(month_label: str) -> bytes:
    """The FIDE TXT's header line, CRLF."""
    return (fide_txt_header(month_label) + "\r\n").encode("utf-8")


def csv_blocks(columns: Sequence[str], table: pd.DataFrame) -> list[memoryview]:
    """The CSV lines of the text table ``table`` (after the header), as blocks of bytes."""
    cells = {c: plain_text(arrow_text(table[c])) for c in columns}
    return [block_bytes(chunk) for chunk in csv_lines(cells).chunks]
