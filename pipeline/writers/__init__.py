"""Writers: the rated period out to files, all of them atomically (see :mod:`.atomic`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.model import RatedPeriod
from pipeline.writers.atomic import OutputBatch
from pipeline.writers.tables import GAMES_COLUMNS, RATING_LIST_COLUMNS, games_table, rating_list_table
from pipeline.writers.xlsx import write_rating_list_xlsx, write_report_xlsx

# Spreadsheets are for people: past these sizes they are written only on request (--xlsx).
XLSX_MAX_PLAYERS = 10_000
SHEETS_MAX_PLAYERS = 1_000

__all__ = [
    "GAMES_COLUMNS",
    "RATING_LIST_COLUMNS",
    "WriteReport",
    "games_table",
    "rating_list_table",
    "write_outputs",
]


@dataclass
class WriteReport:
    written: list[Path] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def write_csv(table, path: Path) -> None:  # type: ignore[no-untyped-def]
    # Fixed format for golden files: UTF-8, LF line endings, every value already text.
    table.to_csv(path, index=False, lineterminator="\n", encoding="utf-8")


def write_outputs(result: RatedPeriod, out_dir: Path | str, xlsx: bool | None = None) -> WriteReport:
    """Write rating_list.csv, games.csv and (by size, or as ``xlsx`` says) the spreadsheets."""
    report = WriteReport()
    rating_list = rating_list_table(result)
    games = games_table(result)
    players = len(rating_list)
    want_xlsx = players <= XLSX_MAX_PLAYERS if xlsx is None else xlsx
    want_sheets = players <= SHEETS_MAX_PLAYERS if xlsx is None else xlsx
    with OutputBatch(out_dir) as batch:
        write_csv(rating_list, batch.path("rating_list.csv"))
        write_csv(games, batch.path("games.csv"))
        if want_xlsx:
            write_rating_list_xlsx(rating_list, batch.path("rating_list.xlsx"))
            write_report_xlsx(rating_list, games, batch.path("report.xlsx"), per_player=want_sheets)
            if not want_sheets:
                report.skipped.append(
                    f"report.xlsx has no per-player sheets: {players:,} players is more than "
                    f"{SHEETS_MAX_PLAYERS:,} (use --xlsx to write them anyway)"
                )
        elif xlsx is None:
            report.skipped.append(
                f"rating_list.xlsx and report.xlsx not written: {players:,} players is more than "
                f"{XLSX_MAX_PLAYERS:,} (use --xlsx to write them anyway)"
            )
        report.written = batch.commit()
    return report
