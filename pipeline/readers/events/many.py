"""Many event files at once (a FIDE month: 200 files): each file is parsed into a table of cells
on its own (one CSV parse per file), and the games files' cells are then parsed and checked
together, as one table (``games.parse_games_of_files``): the fixed cost of some twenty pandas and
Arrow calls is paid per batch, not per file. Every problem still names its own file and row."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipeline.errors import InputError
from pipeline.model import GamesInput, InputFile, ReadOptions, SidesInput
from pipeline.readers.events.game_lists import parse_games_of_files
from pipeline.readers.formats import event_or_games_table
from pipeline.readers.tables.raw import RawTable

# At most this many games in one table (memory: the cells of a batch are alive together).
BATCH_ROWS = 500_000


def read_event_files(
    paths: Sequence[Path | str | InputFile], reading: ReadOptions
) -> list[GamesInput | SidesInput | InputError]:
    """Each file's event as ``read_event_file`` reads it, or the InputError it raises, in order."""
    out: list[GamesInput | SidesInput | InputError | None] = [None] * len(paths)
    tables: list[tuple[int, RawTable]] = []
    for position, path in enumerate(paths):
        try:
            read = event_or_games_table(
                path, reading.input_format, reading.sheet, reading.columns, reading.dates_needed
            )
        except InputError as exc:
            out[position] = exc
            continue
        if isinstance(read, RawTable):
            tables.append((position, read))
        else:
            out[position] = read
    for batch in _batches(tables):
        parsed = parse_games_of_files([table for _, table in batch])
        for (position, _), item in zip(batch, parsed, strict=True):
            out[position] = item
    return [item for item in out if item is not None]


def _batches(tables: list[tuple[int, RawTable]]) -> list[list[tuple[int, RawTable]]]:
    """Consecutive tables with the same columns and decimal mark, each file once, up to
    ``BATCH_ROWS`` rows (a larger file is a batch of its own)."""
    batches: list[list[tuple[int, RawTable]]] = []
    rows = 0
    for position, table in tables:
        last = batches[-1][-1][1] if batches else None
        if (
            last is None
            or list(last.frame.columns) != list(table.frame.columns)
            or last.decimal != table.decimal
            or table.source in {t.source for _, t in batches[-1]}
            or rows + len(table.frame) > BATCH_ROWS
        ):
            batches.append([])
            rows = 0
        batches[-1].append((position, table))
        rows += len(table.frame)
    return batches
