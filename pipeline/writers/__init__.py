"""Writers: the rated period out to files, all of them atomically (see :mod:`.atomic`).

The front door: ``fiderate rate`` calls :func:`write_outputs`; ``fiderate period`` writes its
files into an :class:`OutputBatch` with :func:`write_csv`, :func:`write_games_csv`,
:func:`write_list_text_files`, :func:`write_list_xlsx` and :func:`write_tables_xlsx`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from pipeline.errors import RunError
from pipeline.model import RatedPeriod
from pipeline.writers.atomic import OutputBatch, check_not_an_input
from pipeline.writers.list_text_files import write_list_text_files
from pipeline.writers.stale import stale_outputs
from pipeline.writers.text.csvtext import write_coded_csv, write_text_csv
from pipeline.writers.text.output_text import (
    GAMES_COLUMNS,
    RATING_LIST_COLUMNS,
    games_coded,
    games_order,
    games_table,
    player_ranks,
    rating_list_table,
)

# Spreadsheets are for people: past these sizes they are written only on request (--xlsx).
XLSX_MAX_PLAYERS = 10_000
SHEETS_MAX_PLAYERS = 1_000

__all__ = [
    "GAMES_COLUMNS",
    "RATING_LIST_COLUMNS",
    "XLSX_MAX_PLAYERS",
    "OutputBatch",
    "WriteReport",
    "check_not_an_input",
    "games_table",
    "write_csv",
    "write_games_csv",
    "write_list_text_files",
    "write_list_xlsx",
    "rating_list_table",
    "write_outputs",
    "write_tables_xlsx",
]


@dataclass
class WriteReport:
    written: list[Path] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def write_csv(table: pd.DataFrame, path: Path) -> None:
    # Fixed format for golden files: UTF-8, LF line endings, every value already text.
    write_text_csv(table, path)


def write_games_csv(result: RatedPeriod, path: Path) -> None:
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


OUTPUT_FORMATS = ("csv", "parquet")


def player_file_stem(player_id: str) -> str:
    """``player-<id>`` with anything unsafe in a file name replaced."""
    return "player-" + re.sub(r"[^A-Za-z0-9_.-]", "_", player_id)


def write_outputs(
    result: RatedPeriod,
    out_dir: Path | str,
    xlsx: bool | None = None,
    *,
    html: bool | None = None,
    players: Sequence[str] = (),
    output_format: str = "csv",
    inputs: Sequence[Path | str] = (),
) -> WriteReport:
    """Write rating_list and games (as ``output_format``: csv or parquet) and, by size or as
    ``xlsx``/``html`` say, the spreadsheets and report.html; ``players``: also
    ``player-<id>.xlsx`` and ``.html`` for each of those ids. ``inputs``: the run's input files,
    which no output may replace."""
    if output_format not in OUTPUT_FORMATS:
        raise ValueError(f"output_format must be one of {OUTPUT_FORMATS}, not {output_format!r}")
    report = WriteReport()
    _check_players(result, players)
    count = len(result.totals)
    want_xlsx = count <= XLSX_MAX_PLAYERS if xlsx is None else xlsx
    want_sheets = count <= SHEETS_MAX_PLAYERS if xlsx is None else xlsx
    # The event report is for people too: by default only up to the spreadsheets' size.
    want_html = count <= XLSX_MAX_PLAYERS if html is None else html
    need_reports = want_xlsx or want_html or players
    table = detail = None
    note = ""
    # The report modules are imported only by runs that write a report (their imports cost a
    # tenth of a second that a CSV-only run of a million games does not need).
    if need_reports:
        from pipeline.writers.html.report_page import render_report
        from pipeline.writers.text.report_text import about_table, breakdown, mode_note, standings

        table, detail, note = standings(result), breakdown(result), mode_note(result)
    if want_xlsx or players:
        from pipeline.writers.xlsx.workbooks import write_rating_list_xlsx, write_report_xlsx
    with OutputBatch(out_dir, protect=inputs) as batch:
        _write_tables(batch, result, output_format)
        if want_xlsx:
            rating_list = rating_list_table(result)
            write_rating_list_xlsx(rating_list, batch.path("rating_list.xlsx"))
            write_report_xlsx(
                table,
                detail,
                batch.path("report.xlsx"),
                per_player=want_sheets,
                note=note,
                norms=result.title_norms(),
                about=about_table(result, inputs),
            )
            if not want_sheets:
                report.skipped.append(
                    f"report.xlsx has no per-player sheets: {count:,} players is more than "
                    f"{SHEETS_MAX_PLAYERS:,} (use --xlsx to write them anyway)"
                )
        elif xlsx is None:
            report.skipped.append(
                f"rating_list.xlsx and report.xlsx not written: {count:,} players is more than "
                f"{XLSX_MAX_PLAYERS:,} (use --xlsx to write them anyway)"
            )
        if want_html:
            page = render_report(result, table, detail, note)
            batch.path("report.html").write_text(page, encoding="utf-8", newline="\n")
        elif html is None:
            report.skipped.append(
                f"report.html not written: {count:,} players is more than "
                f"{XLSX_MAX_PLAYERS:,} (use --html to write it anyway)"
            )
        _write_player_files(batch, result, table, detail, note, players, inputs)
        report.written = batch.commit()
    report.skipped.extend(stale_outputs(out_dir, report.written))
    return report


def _write_tables(batch: OutputBatch, result: RatedPeriod, output_format: str) -> None:
    """rating_list and games, as CSV text or typed Parquet."""
    if output_format == "parquet":
        from pipeline.writers.text.parquet_files import (
            games_arrow,
            rating_list_arrow,
            write_parquet,
        )

        write_parquet(rating_list_arrow(result), batch.path("rating_list.parquet"))
        write_parquet(games_arrow(result), batch.path("games.parquet"))
        return
    write_csv(rating_list_table(result), batch.path("rating_list.csv"))
    # Built, written and dropped: the text of every game side is the biggest frame.
    write_games_csv(result, batch.path("games.csv"))


def _check_players(result: RatedPeriod, players: Sequence[str]) -> None:
    """Refuse a ``--player`` id that is not a player of this period, before anything is written."""
    unknown = [p for p in players if p not in set(result.totals["id"])]
    if unknown:
        raise RunError(
            f"--player {unknown[0]!r} is not a player of this period "
            f"({len(unknown)} unknown id(s)); nothing was written"
        )


def _write_player_files(batch, result, table, detail, note, players, inputs) -> None:
    """``player-<id>.xlsx`` and ``.html`` for each id of ``players`` (once each)."""
    if not players:
        return
    from pipeline.writers.html.report_page import render_report
    from pipeline.writers.text.report_text import about_table
    from pipeline.writers.xlsx.workbooks import write_report_xlsx

    for player_id in dict.fromkeys(players):
        assert table is not None and detail is not None  # built when players are asked for
        stem = player_file_stem(player_id)
        one = table[table["id"] == player_id]
        write_report_xlsx(
            one,
            detail,
            batch.path(f"{stem}.xlsx"),
            per_player=True,
            note=note,
            about=about_table(result, inputs),
        )
        page = render_report(result, table, detail, note, only=[player_id])
        batch.path(f"{stem}.html").write_text(page, encoding="utf-8", newline="\n")
