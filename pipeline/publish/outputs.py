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

import hashlib
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline.columnar.threads import each
from pipeline.model import RatedPeriod
from pipeline.publish.list_file import LIST_TEXT_COLUMNS, list_text_table
from pipeline.publish.months import add_months, fide_month_label
from pipeline.publish.next_list import STATUS_FIRST, STATUS_NEW, dropped
from pipeline.publish.report import PeriodReport
from pipeline.writers import XLSX_MAX_PLAYERS, write_csv, write_games_csv
from pipeline.writers.atomic import OutputBatch, check_not_an_input
from pipeline.writers.csvtext import block_bytes, csv_lines
from pipeline.writers.fide_txt import fide_txt_body, fide_txt_header
from pipeline.writers.format import arrow_text, plain_text

# The report's tables written as CSV: output name -> PeriodReport field.
CSV_TABLES = {"changes": "changes", "breakdown": "breakdown", "first": "first"}
LIST_BLOCK_ROWS = 250_000  # players of the next list turned into text and written at a time


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


def check_outputs_spare_inputs(out_dir: Path, period: str, inputs: Sequence[Path]) -> None:
    """Refuse, before anything is rated, a run whose outputs would replace one of its inputs
    (``--list out/rating_list_2026-12.csv ... --out out`` for period 2026-11): the check of
    ``fiderate rate``'s outputs (:func:`pipeline.writers.atomic.check_not_an_input`)."""
    for name in output_names(period).values():
        check_not_an_input(out_dir / name, inputs)


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


def write_list_files(new: pd.DataFrame, csv_path: Path, txt_path: Path, month_label: str) -> str:
    """The next list as rating_list_N.csv and, in FIDE's layout, rating_list_N.txt, written
    ``LIST_BLOCK_ROWS`` players at a time (only one block's text exists at once: 1.9 M players
    as text cells and lines are gigabytes); the sha256 of the CSV, computed as it is written.
    The same bytes as the whole table written at once: every cell, its quoting and each line
    depend on that row only."""
    digest = hashlib.sha256()
    with csv_path.open("wb") as csv_fh, txt_path.open("wb") as txt_fh:
        head = (",".join(LIST_TEXT_COLUMNS) + "\n").encode("utf-8")  # plain names: no quotes
        csv_fh.write(head)
        digest.update(head)
        txt_fh.write((fide_txt_header(month_label) + "\r\n").encode("utf-8"))
        for start in range(0, len(new), LIST_BLOCK_ROWS):
            table = list_text_table(new.iloc[start : start + LIST_BLOCK_ROWS])
            # The CSV's lines and the TXT's are independent: on both cores (Arrow kernels).
            cells = {c: plain_text(arrow_text(table[c])) for c in LIST_TEXT_COLUMNS}
            jobs: list[Callable[[], Any]] = [
                partial(csv_lines, cells),
                partial(fide_txt_body, table),
            ]
            lines, body = each(jobs, len(table))
            for chunk in lines.chunks:
                block = block_bytes(chunk)
                csv_fh.write(block)
                digest.update(block)
            txt_fh.write(block_bytes(body))
    return digest.hexdigest()


@contextmanager
def write_period_outputs(
    out_dir: Path,
    period: str,
    new: pd.DataFrame,
    report: PeriodReport,
    rated: list[RatedPeriod],
    xlsx: bool | None,
    inputs: Sequence[Path] = (),
) -> Iterator[PeriodFiles]:
    """Every file of the period, to temporary names. ``rated`` holds the rated period, taken
    out once games.csv is written: when the caller keeps no other reference, its sides (2 M
    rows in a FIDE month) are freed before the other files are written. ``inputs``: the run's
    input files, which no output may replace."""
    names = output_names(period)
    with OutputBatch(out_dir, protect=inputs) as batch:
        files = PeriodFiles(batch)
        # Named in the order they are reported (the next list first); games.csv written first.
        temp = {k: batch.path(names[k]) for k in ("list_csv", "list_txt", *CSV_TABLES, "games")}
        write_games_csv(rated.pop(), temp["games"])
        files.list_csv_final = out_dir / names["list_csv"]
        files.list_csv_sha256 = write_list_files(
            new, temp["list_csv"], temp["list_txt"], fide_month_label(add_months(period, 1))
        )
        for key, table in CSV_TABLES.items():
            write_csv(getattr(report, table), temp[key])
        want_xlsx = len(new) <= XLSX_MAX_PLAYERS if xlsx is None else xlsx
        if want_xlsx:
            from pipeline.writers.xlsx import write_rating_list_xlsx

            write_rating_list_xlsx(list_text_table(new), batch.path(names["list_xlsx"]))
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
