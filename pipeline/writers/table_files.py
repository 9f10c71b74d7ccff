"""The plain table files every job writes: a text table as CSV (fixed format for golden files),
games.csv from the rated period's codes, and tables as spreadsheets; and the sizes past which
spreadsheets are written only on request."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from pipeline.model import RatedPeriod
from pipeline.resources.atomic_files import Target
from pipeline.writers.text.csvtext import write_coded_csv, write_text_csv
from pipeline.writers.text.output_text import (
    GAMES_COLUMNS,
    games_coded,
    games_order,
    player_ranks,
)

# Spreadsheets are for people: past these sizes they are written only on request (--xlsx).
XLSX_MAX_PLAYERS = 10_000
SHEETS_MAX_PLAYERS = 1_000


def write_csv(table: pd.DataFrame, path: Target) -> None:
    # Fixed format for golden files: UTF-8, LF line endings, every value already text.
    write_text_csv(table, path)


def write_games_csv(result: RatedPeriod, path: Target) -> None:
    # Each distinct number formatted once; the lines made block by block in the file's order
    # (each block takes its rows' text by code) and written as they come: the biggest table
    # never becomes a pandas frame, and no more than a few blocks of lines exist at once.
    ranks = player_ranks(result)
    columns = list(games_coded(result, ranks).values())
    write_coded_csv(GAMES_COLUMNS, columns, path, games_order(result, ranks))


def write_list_xlsx(table: pd.DataFrame, path: Path) -> None:
    """A rating list's text table as a one-sheet spreadsheet."""
    # The spreadsheet writer is imported only when a spreadsheet is written.
    from pipeline.writers.xlsx.workbooks import write_rating_list_xlsx

    write_rating_list_xlsx(table, path)


def write_tables_xlsx(sheets: Sequence[tuple[str, pd.DataFrame]], path: Path) -> None:
    """One sheet per (title, table), in that order: a report of tables."""
    from pipeline.writers.xlsx.workbooks import write_tables_xlsx as write_sheets

    write_sheets(sheets, path)
