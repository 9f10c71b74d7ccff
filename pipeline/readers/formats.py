"""Which event format a file is, from its content and extension, and reading it.

Formats: ``games`` and ``individual`` (tables recognized by their header, see :mod:`.detect`),
``trf`` (FIDE TRF, recognized by its 001 records), ``crosstable`` (Swiss crosstable, recognized
by a name column and round columns) and ``grid`` (round-robin grid: opponent columns 1..n).
``input_format`` forces one. The detection order is data (``DETECTION_ORDER``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pipeline.errors import Code, FiderateError, InputError, Problem
from pipeline.model import GamesInput, InputFile, SidesInput
from pipeline.problem_list import ProblemList
from pipeline.readers import limits
from pipeline.readers.events.crosstable import parse_crosstable
from pipeline.readers.events.crosstable_columns import (
    find_layout,
    missing_problems,
    parse_overrides,
)
from pipeline.readers.events.game_lists import parse_games
from pipeline.readers.events.grid import looks_like_grid, parse_grid
from pipeline.readers.events.individual import parse_individual
from pipeline.readers.events.trf_file import decode, looks_like_trf, read_trf
from pipeline.readers.limits import Source
from pipeline.readers.tables.detect import KINDS, canonical_columns, closest_kind, detect_kind
from pipeline.readers.tables.sheets import select_sheet
from pipeline.readers.tables.tabular import RawTable, normalize_header, open_workbook, read_tables
from pipeline.readers.tables.tabular import _cell_text as cell_text

FORMATS = ("games", "individual", "trf", "crosstable", "grid")
# Files with these extensions are TRF unless their content says otherwise; any text file whose
# content looks like a TRF (001 player records) is read as one whatever its name.
TRF_EXTENSIONS = {".trf", ".trfx", ".trf16", ".trf26", ".txt"}
TABLE_EXTENSIONS = {".csv", ".tsv", ".xlsx", ".xlsm"}
# A table is tried as these formats in this order; the first that fits wins.
DETECTION_ORDER = ("individual", "games", "grid", "crosstable")
# How many rows at the top of a sheet may hold titles before the crosstable header.
HEADER_SEARCH_ROWS = 15

Columns = Mapping[str, str] | Sequence[str] | None


def detect_format(path: Path | str | InputFile) -> str:
    """The format name of ``path`` ("trf" or "table" for the tabular ones)."""
    path = limits.as_source(path)
    if isinstance(path, Path) and not path.is_file():
        return "table"  # the table reader reports the missing file
    head = limits.input_head(path, 20000)
    if head.startswith(b"PK\x03\x04") or path.suffix.lower() in TABLE_EXTENSIONS:
        return "table"
    if b"\x00" not in head and looks_like_trf(decode(path, head)):
        return "trf"
    return "trf" if path.suffix.lower() in TRF_EXTENSIONS - {".txt"} else "table"


def read_event(
    path: Path | str | InputFile,
    input_format: str | None = None,
    sheet: str | None = None,
    columns: Columns = None,
    dates_needed: bool = True,
) -> GamesInput | SidesInput:
    """Read one event file of any format; raises InputError listing every problem found.
    ``dates_needed``: see :attr:`pipeline.model.ReadOptions.dates_needed`."""
    path = limits.as_source(path)
    if input_format is not None and input_format not in FORMATS:
        raise FiderateError(
            f"--input-format must be one of {', '.join(FORMATS)} (got {input_format!r})"
        )
    overrides = parse_overrides(columns)
    limits.check_input(path)  # a FIFO or device: refused before it is opened
    if input_format == "trf" or (input_format is None and detect_format(path) == "trf"):
        return read_trf(path, dates_needed=dates_needed)
    return _read_table_event(path, input_format, sheet, overrides)


def event_or_games_table(
    path: Path | str | InputFile,
    input_format: str | None = None,
    sheet: str | None = None,
    columns: Columns = None,
    dates_needed: bool = True,
) -> GamesInput | SidesInput | RawTable:
    """``read_event``, except that a CSV games file comes back as its table of cells (columns
    canonical), for ``games.parse_games_of_files`` to parse with other files' games."""
    path = limits.as_source(path)
    text_table = path.suffix.lower() in (".csv", ".tsv")
    if input_format not in (None, "games") or sheet is not None or not text_table:
        return read_event(path, input_format, sheet, columns, dates_needed)
    overrides = parse_overrides(columns)
    limits.check_input(path)
    tables = _tables(path, sheet)
    wanted = DETECTION_ORDER if input_format is None else (input_format,)
    if (
        len(tables) == 1
        and tables[0].sheet is None
        and _fits(tables[0], wanted, overrides) == "games"
    ):
        tables[0].frame.columns = canonical_columns(list(tables[0].frame.columns))
        _refuse_no_games(tables[0])
        return tables[0]
    return _read_table_event(path, input_format, sheet, overrides, tables)


def event_problems(path: Path | str | InputFile, **options: object) -> list[Problem]:
    """Every problem of one event file, or [] when it reads cleanly (for ``fiderate validate``)."""
    try:
        read_event(path, **options)  # type: ignore[arg-type]
    except InputError as exc:
        return exc.problems
    return []


def _tables(path: Source, sheet: str | None) -> list[RawTable]:
    return select_sheet(read_tables(path), sheet, path)


def _read_table_event(
    path: Source,
    input_format: str | None,
    sheet: str | None,
    overrides: dict[str, str],
    tables: list[RawTable] | None = None,
) -> GamesInput | SidesInput:
    tables = _tables(path, sheet) if tables is None else tables
    wanted = DETECTION_ORDER if input_format is None else (input_format,)
    for table in tables:
        fmt = _fits(table, wanted, overrides)
        if fmt is not None:
            return _parse(table, fmt, overrides)
    # Spreadsheets often carry title rows above the header: look for the header further down.
    if tables[0].sheet is not None and set(wanted) & {"crosstable", "grid"}:
        # --sheet may give a number: search the sheet it resolved to, by its title.
        for table in full_width_sheets(path, tables[0].sheet if sheet is not None else None):
            for candidate in _with_header_search(table):
                fmt = _fits(candidate, wanted, overrides)
                if fmt is not None:
                    return _parse(candidate, fmt, overrides)
    raise InputError(_no_fit(tables[0], wanted, overrides))


def full_width_sheets(path: Source, sheet: str | None) -> Iterator[RawTable]:
    """Every sheet with all its rows as data (no header yet), columns named c1, c2, ..."""
    with open_workbook(path) as workbook:  # a damaged workbook: a problem of the file
        sheets = list(_sheet_tables(workbook, path, sheet))
    yield from sheets


def _sheet_tables(workbook: Any, path: Source, sheet: str | None) -> Iterator[RawTable]:
    for ws in workbook.worksheets:
        if sheet is not None and ws.title != sheet:
            continue
        rows, numbers = [], []
        ws.reset_dimensions()  # the cells the sheet holds, not its declared dimension
        for number, row in enumerate(ws.iter_rows(values_only=True), start=1):
            if len(row) > limits.MAX_COLUMNS:
                raise limits.too_wide(str(path), len(row), number)
            cells = [cell_text(v) for v in row]
            if any(cells):
                rows.append(cells)
                numbers.append(number)
        if not rows:
            continue
        width = max(len(r) for r in rows)
        frame = pd.DataFrame(
            [r + [""] * (width - len(r)) for r in rows],
            dtype=str,
            columns=[f"c{i}" for i in range(1, width + 1)],
        )
        yield RawTable(frame, np.asarray(numbers, dtype=np.int64), str(path), ws.title)


def _with_header_search(table: RawTable) -> Iterator[RawTable]:
    """The table with row k as the header, for k = 0, 1, ..."""
    frame = table.frame
    for k in range(min(HEADER_SEARCH_ROWS, len(frame) - 1)):  # row k as the header
        header = [normalize_header(v) for v in frame.iloc[k]]
        if sum(1 for h in header if h) < 3:
            continue
        body = frame.iloc[k + 1 :].reset_index(drop=True)
        body.columns = header
        body = body.loc[:, [h != "" for h in header]]
        body = body.loc[:, ~body.columns.duplicated()]
        yield RawTable(body, table.rows[k + 1 :], table.source, table.sheet)


def _fits(table: RawTable, wanted: Sequence[str], overrides: dict[str, str]) -> str | None:
    columns = list(table.frame.columns)
    kind = detect_kind(canonical_columns(columns))
    for fmt in wanted:
        if fmt in ("games", "individual") and kind == fmt:
            return fmt
        if fmt in ("grid", "crosstable"):
            layout = find_layout(columns, overrides)
            if "name" not in layout.roles or not layout.rounds or not len(table.frame):
                continue
            grid = looks_like_grid(table, layout)
            if fmt == "grid" and (grid or len(wanted) == 1):
                return fmt
            if fmt == "crosstable" and (not grid or len(wanted) == 1):
                return fmt
    return None


def _parse(table: RawTable, fmt: str, overrides: dict[str, str]) -> GamesInput | SidesInput:
    problems = ProblemList()
    parsed: GamesInput | SidesInput
    if fmt in ("games", "individual"):
        table.frame.columns = canonical_columns(list(table.frame.columns))
        _refuse_no_games(table)
        parsed = (
            parse_games(table, problems) if fmt == "games" else parse_individual(table, problems)
        )
        if problems:
            # What could be read, so unknown players are reported in the same pass.
            raise InputError(problems.problems, partial=parsed)
    else:
        layout = find_layout(list(table.frame.columns), overrides)
        parsed = (parse_grid if fmt == "grid" else parse_crosstable)(table, layout, problems)
    problems.raise_if_any()
    return parsed


def _refuse_no_games(table: RawTable) -> None:
    """A games or individual file with its header and no row: nothing to rate. Rated, it would
    be an event of no games, a run that "succeeds" and changes nobody's rating."""
    if not len(table.frame):
        raise InputError(
            [
                Problem(
                    Code.NOT_A_TABLE,
                    "the file has a header but no games: there is nothing to rate",
                    file=table.source,
                    row=1,
                    fix="check that this is the file you meant (an export may have stopped "
                    "after its header), or leave it out of the run",
                )
            ]
        )


def _no_fit(table: RawTable, wanted: Sequence[str], overrides: dict[str, str]) -> list[Problem]:
    columns = list(table.frame.columns)
    if set(wanted) & {"crosstable", "grid"} and not set(wanted) & {"games", "individual"}:
        return missing_problems(
            table.source, columns, find_layout(columns, overrides), " or ".join(wanted)
        )
    canonical = canonical_columns(columns)
    kind, _ = closest_kind(canonical)
    kind = kind if kind in wanted else "games"
    missing = KINDS[kind][0] - set(canonical)
    return [
        Problem(
            Code.MISSING_COLUMN,
            f"this table is not an event file we know: as a {kind} file, column(s) "
            f"{', '.join(sorted(missing))} are missing (found: {', '.join(columns) or 'nothing'}); "
            "it is not a crosstable either (no name column with round columns)",
            file=table.source,
            row=1,
            column=", ".join(sorted(missing)),
            fix=f"a {kind} file needs the columns {', '.join(sorted(KINDS[kind][0]))}; "
            "a crosstable needs Name and round columns (1, 2, ... or R1, Rd1, ...); "
            "see --input-format and --column",
        )
    ]
