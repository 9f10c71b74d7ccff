"""The files of a period run, written to temporary names (``OutputBatch``) and fsynced; the period
job renames them into place after the database commit (see :mod:`pipeline.jobs.period`).

For period P (the list published for the month after, N):
- ``rating_list_N.csv`` (reads back as the next ``--list``), ``rating_list_N.txt`` (FIDE layout),
  ``rating_list_N.xlsx``;
- ``changes_P.csv``, ``breakdown_P.csv``, ``first_ratings_P.csv``, ``games_P.csv`` and
  ``report_P.xlsx`` (summary, new players, dropped, gains, losses, first ratings, breakdown).
Spreadsheets follow the core writer's size rule (up to 10,000 players unless ``xlsx`` says).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from pipeline.lists.change_report import PeriodReport
from pipeline.lists.list_columns import LIST_TEXT_COLUMNS
from pipeline.model import RatedPeriod
from pipeline.resources.atomic_files import OutputBatch, check_not_an_input
from pipeline.resources.durability import fsync_file
from pipeline.rules.months import add_months, fide_month_label
from pipeline.writers.list_text_files import write_list_text_files
from pipeline.writers.table_files import (
    XLSX_MAX_PLAYERS,
    write_csv,
    write_games_csv,
    write_list_xlsx,
    write_tables_xlsx,
)
from pipeline.writers.text.list_text import list_text_table

# The report's tables written as CSV: output name -> PeriodReport field.
CSV_TABLES = {"changes": "changes", "breakdown": "breakdown", "first": "first"}
LIST_BLOCK_ROWS = 250_000  # players of the next list turned into text and written at a time


@dataclass
class PeriodFiles:
    """What writing a period's files leaves: the next list's final name and hash (the history
    records them) and the notes of files not written. The temporary files are the batch's."""

    list_csv_final: Path
    list_csv_sha256: str
    notes: list[str] = field(default_factory=list)


def output_names(period: str) -> dict[str, str]:
    month = add_months(period, 1)
    return {
        "list_csv": f"rating_list_{month}.csv",
        "list_txt": f"rating_list_{month}.txt",
        "list_xlsx": f"rating_list_{month}.xlsx",
        "changes": f"changes_{period}.csv",
        "breakdown": f"breakdown_{period}.csv",
        "first": f"first_ratings_{period}.csv",
        "games": f"games_{period}.csv",
        "report_xlsx": f"report_{period}.xlsx",
    }


def check_outputs_spare_inputs(out_dir: Path, period: str, inputs: Sequence[Path]) -> None:
    """Refuse, before anything is rated, a run whose outputs would replace one of its inputs
    (``--list out/rating_list_2026-12.csv ... --out out`` for period 2026-11): the check of
    ``fiderate rate``'s outputs (:func:`pipeline.resources.atomic_files.check_not_an_input`)."""
    for name in output_names(period).values():
        check_not_an_input(out_dir / name, inputs)


def write_period_report_xlsx(report: PeriodReport, path: Path) -> None:
    changes = report.changes
    write_tables_xlsx(
        [
            ("Summary", report.summary),
            ("New players", report.new_players),
            ("Dropped", report.dropped),
            ("Largest gains", report.gains),
            ("Largest losses", report.losses),
            ("First ratings", report.first),
            ("Breakdown", report.breakdown),
            ("All changes", changes),
        ],
        path,
    )


def write_list_files(new: pd.DataFrame, csv_path: Path, txt_path: Path, month_label: str) -> str:
    """The next list as rating_list_N.csv and, in FIDE's layout, rating_list_N.txt, turned into
    text ``LIST_BLOCK_ROWS`` players at a time (only one block's text exists at once: 1.9 M
    players as text cells and lines are gigabytes); the sha256 of the CSV."""
    blocks = (
        list_text_table(new.iloc[start : start + LIST_BLOCK_ROWS])
        for start in range(0, len(new), LIST_BLOCK_ROWS)
    )
    return write_list_text_files(LIST_TEXT_COLUMNS, blocks, csv_path, txt_path, month_label)


def write_period_outputs(
    batch: OutputBatch,
    period: str,
    new: pd.DataFrame,
    report: PeriodReport,
    rated: list[RatedPeriod],
    xlsx: bool | None,
) -> PeriodFiles:
    """Every file of the period, to temporary names in ``batch`` (an entered
    :class:`OutputBatch`: it deletes them if the run fails before they are handed over), each
    fsynced. ``rated`` holds the rated period, taken out once games.csv is written: when the
    caller keeps no other reference, its sides (2 M rows in a FIDE month) are freed before the
    other files are written."""
    names = output_names(period)
    # Named in the order they are reported (the next list first); games.csv written first.
    temp = {k: batch.path(names[k]) for k in ("list_csv", "list_txt", *CSV_TABLES, "games")}
    write_games_csv(rated.pop(), temp["games"])
    files = PeriodFiles(
        batch.out_dir / names["list_csv"],
        write_list_files(
            new, temp["list_csv"], temp["list_txt"], fide_month_label(add_months(period, 1))
        ),
    )
    for key, table in CSV_TABLES.items():
        write_csv(getattr(report, table), temp[key])
    want_xlsx = len(new) <= XLSX_MAX_PLAYERS if xlsx is None else xlsx
    if want_xlsx:
        write_list_xlsx(list_text_table(new), batch.path(names["list_xlsx"]))
        write_period_report_xlsx(report, batch.path(names["report_xlsx"]))
    else:
        why = (
            "--no-xlsx"
            if xlsx is False
            else f"{len(new):,} players is more than {XLSX_MAX_PLAYERS:,} "
            "(use --xlsx to write them anyway)"
        )
        files.notes.append(f"{names['list_xlsx']} and {names['report_xlsx']} not written: {why}")
    for tmp, _ in batch.planned():
        fsync_file(tmp)
    return files
