"""The files of a period run, written to temporary names (``OutputBatch``) and fsynced; the caller
renames them into place after the database commit (see :mod:`pipeline.publish.run`).

For period P (the list published for the month after, N):
- ``rating_list_N.csv`` (reads back as the next ``--list``), ``rating_list_N.txt`` (FIDE layout),
  ``rating_list_N.xlsx``;
- ``changes_P.csv``, ``breakdown_P.csv``, ``first_ratings_P.csv``, ``games_P.csv`` and
  ``report_P.xlsx`` (summary, new players, dropped, gains, losses, first ratings, breakdown).
Spreadsheets follow the core writer's size rule (up to 10,000 players unless ``xlsx`` says).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from pipeline.model import RatedPeriod
from pipeline.publish.events import sha256_of
from pipeline.publish.list_file import list_text_table
from pipeline.publish.months import add_months, fide_month_label
from pipeline.publish.next_list import STATUS_FIRST, STATUS_NEW, dropped
from pipeline.publish.report import PeriodReport
from pipeline.writers import XLSX_MAX_PLAYERS, write_csv, write_games_csv
from pipeline.writers.atomic import OutputBatch
from pipeline.writers.fide_txt import write_fide_txt


class PeriodFiles:
    def __init__(self, batch: OutputBatch):
        self.batch = batch
        self.notes: list[str] = []
        self.list_csv_final = Path()
        self.list_csv_sha256 = ""

    def planned(self) -> list[tuple[Path, Path]]:
        return self.batch.planned()

    def forget(self) -> None:
        self.batch.forget()


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


def _fsync(path: Path) -> None:
    with path.open("rb") as fh:
        os.fsync(fh.fileno())


def write_report_xlsx(report: PeriodReport, path: Path) -> None:
    # The spreadsheet writer is imported only when a spreadsheet is written.
    from pipeline.writers.xlsx import Book, new_sheet, write_table

    wb = Book(path)
    changes = report.changes
    for title, table in (
        ("Summary", report.summary),
        ("New players", changes[changes["status"].isin([STATUS_FIRST, STATUS_NEW])]),
        ("Dropped", changes[dropped(changes["status"]).to_numpy()]),
        ("Largest gains", report.gains),
        ("Largest losses", report.losses),
        ("First ratings", report.first),
        ("Breakdown", report.breakdown),
        ("All changes", changes),
    ):
        write_table(new_sheet(wb, title), table)
    wb.save()


@contextmanager
def write_period_outputs(
    out_dir: Path,
    period: str,
    new: pd.DataFrame,
    report: PeriodReport,
    result: RatedPeriod,
    xlsx: bool | None,
) -> Iterator[PeriodFiles]:
    names = output_names(period)
    with OutputBatch(out_dir) as batch:
        files = PeriodFiles(batch)
        table = list_text_table(new)
        list_tmp = batch.path(names["list_csv"])
        write_csv(table, list_tmp)
        files.list_csv_final = out_dir / names["list_csv"]
        files.list_csv_sha256 = sha256_of(list_tmp)
        write_fide_txt(
            table, batch.path(names["list_txt"]), fide_month_label(add_months(period, 1))
        )
        write_csv(report.changes, batch.path(names["changes"]))
        write_csv(report.breakdown, batch.path(names["breakdown"]))
        write_csv(report.first, batch.path(names["first"]))
        write_games_csv(result, batch.path(names["games"]))
        want_xlsx = len(new) <= XLSX_MAX_PLAYERS if xlsx is None else xlsx
        if want_xlsx:
            from pipeline.writers.xlsx import write_rating_list_xlsx

            write_rating_list_xlsx(table, batch.path(names["list_xlsx"]))
            write_report_xlsx(report, batch.path(names["report_xlsx"]))
        else:
            why = (
                "--no-xlsx"
                if xlsx is False
                else f"{len(new):,} players is more than {XLSX_MAX_PLAYERS:,} "
                "(use --xlsx to write them anyway)"
            )
            files.notes.append(
                f"{names['list_xlsx']} and {names['report_xlsx']} not written: {why}"
            )
        for tmp, _ in batch.planned():
            _fsync(tmp)
        yield files
