"""Writers: the rated period out to files, all of them atomically (see :mod:`.atomic`).

The front door: ``fiderate rate`` calls :func:`write_outputs`; ``fiderate period`` writes its
files with :func:`write_period_outputs` (:mod:`.period_files`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.errors import RunError
from pipeline.lazy import lazy_names
from pipeline.model import InputFile, RatedPeriod, ZipOutput
from pipeline.resources.atomic_files import OutputBatch, ZipBatch, check_not_an_input, write_text
from pipeline.writers.list_text_files import write_list_text_files
from pipeline.writers.stale import stale_outputs
from pipeline.writers.table_files import (
    SHEETS_MAX_PLAYERS,
    XLSX_MAX_PLAYERS,
    write_csv,
    write_games_csv,
    write_list_xlsx,
    write_tables_xlsx,
)
from pipeline.writers.text.output_text import (
    GAMES_COLUMNS,
    RATING_LIST_COLUMNS,
    games_table,
    player_ranks,
    rating_list_table,
)

if TYPE_CHECKING:
    import pandas as pd

    from pipeline.file_names import shown_name
    from pipeline.report import EventReport
    from pipeline.writers.games_file import games_file_table, write_games_file
    from pipeline.writers.period_files import check_outputs_spare_inputs, write_period_outputs
    from pipeline.writers.text.list_text import list_text_table
    from pipeline.writers.text.parquet_files import games_arrow, rating_list_arrow, write_parquet
    from pipeline.writers.text.trf_header import header_records, keep_records
    from pipeline.writers.text.trf_writer import TrfText, event_trf

# The front door's other names, each imported on first use: a CSV-only run never loads the TRF,
# Parquet or games-file writers.
_HOMES = {
    "shown_name": "pipeline.file_names",
    "games_file_table": "pipeline.writers.games_file",
    "write_games_file": "pipeline.writers.games_file",
    "games_arrow": "pipeline.writers.text.parquet_files",
    "rating_list_arrow": "pipeline.writers.text.parquet_files",
    "write_parquet": "pipeline.writers.text.parquet_files",
    "header_records": "pipeline.writers.text.trf_header",
    "keep_records": "pipeline.writers.text.trf_header",
    "TrfText": "pipeline.writers.text.trf_writer",
    "event_trf": "pipeline.writers.text.trf_writer",
    "write_period_outputs": "pipeline.writers.period_files",
    "check_outputs_spare_inputs": "pipeline.writers.period_files",
    "list_text_table": "pipeline.writers.text.list_text",
}
__getattr__, __dir__ = lazy_names(__name__, _HOMES, globals())


__all__ = [
    "GAMES_COLUMNS",
    "RATING_LIST_COLUMNS",
    "XLSX_MAX_PLAYERS",
    "OutputBatch",
    "OutputPlan",
    "WriteReport",
    "check_not_an_input",
    "games_table",
    "write_csv",
    "write_games_csv",
    "write_list_text_files",
    "write_list_xlsx",
    "rating_list_table",
    "write_tables_xlsx",
    "plan_outputs",
    "write_files",
    "player_ranks",
    "shown_name",
    "games_file_table",
    "write_games_file",
    "games_arrow",
    "rating_list_arrow",
    "write_parquet",
    "header_records",
    "keep_records",
    "TrfText",
    "event_trf",
    "write_period_outputs",
    "check_outputs_spare_inputs",
    "list_text_table",
]


@dataclass
class WriteReport:
    """The files written (for a zip: its members' names), the notes on outputs left out, and
    the zip's bytes when the files went to a :class:`~pipeline.model.ZipOutput`."""

    written: list[Path] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    archive: bytes | None = None


OUTPUT_FORMATS = ("csv", "parquet")


def player_file_stem(player_id: str) -> str:
    """``player-<id>`` with anything unsafe in a file name replaced."""
    return "player-" + re.sub(r"[^A-Za-z0-9_.-]", "_", player_id)


@dataclass(frozen=True)
class OutputPlan:
    """Which files a run writes: decided once, from the options and the number of players
    (:func:`plan_outputs`), so the output stage computes what exactly these files need."""

    xlsx: bool  # rating_list.xlsx and report.xlsx
    sheets: bool  # report.xlsx's per-player sheets
    html: bool  # report.html
    players: tuple[str, ...]  # player-<id>.xlsx and .html for each
    output_format: str  # rating_list and games: "csv" or "parquet"
    skipped: tuple[str, ...] = ()  # what the sizes left out, said to the user
    # Whether any report (standings, per-game breakdown) is written: xlsx, html or players.
    reports: bool = False
    # Whether a report that shows the title norms (report.xlsx, report.html) is written.
    norms: bool = False
    # Whether these files read the sides' text columns a run left as codes: the reports and
    # Parquet do; games.csv takes them by code, but for the player's when a side has no row in
    # the totals. The output stage builds them (``engine.sides.with_side_texts``) only then.
    side_texts: bool = False


def plan_outputs(
    result: RatedPeriod,
    xlsx: bool | None = None,
    *,
    html: bool | None = None,
    players: Sequence[str] = (),
    output_format: str = "csv",
) -> OutputPlan:
    """rating_list and games (as ``output_format``: csv or parquet) and, by size or as
    ``xlsx``/``html`` say, the spreadsheets and report.html; ``players``: also
    ``player-<id>.xlsx`` and ``.html`` for each of those ids. Refuses an unknown format or
    player before anything is computed or written."""
    if output_format not in OUTPUT_FORMATS:
        raise ValueError(f"output_format must be one of {OUTPUT_FORMATS}, not {output_format!r}")
    _check_players(result, players)
    count = len(result.totals)
    want_xlsx = count <= XLSX_MAX_PLAYERS if xlsx is None else xlsx
    want_sheets = count <= SHEETS_MAX_PLAYERS if xlsx is None else xlsx
    # The event report is for people too: by default only up to the spreadsheets' size.
    want_html = count <= XLSX_MAX_PLAYERS if html is None else html
    skipped = []
    if want_xlsx and not want_sheets:
        skipped.append(
            f"report.xlsx has no per-player sheets: {count:,} players is more than "
            f"{SHEETS_MAX_PLAYERS:,} (use --xlsx to write them anyway)"
        )
    elif not want_xlsx and xlsx is None:
        skipped.append(
            f"rating_list.xlsx and report.xlsx not written: {count:,} players is more than "
            f"{XLSX_MAX_PLAYERS:,} (use --xlsx to write them anyway)"
        )
    if not want_html and html is None:
        skipped.append(
            f"report.html not written: {count:,} players is more than "
            f"{XLSX_MAX_PLAYERS:,} (use --html to write it anyway)"
        )
    reports = want_xlsx or want_html or bool(players)
    side_texts = result.texts_coded and (
        reports or output_format == "parquet" or player_ranks(result) is None
    )
    return OutputPlan(
        want_xlsx,
        want_sheets,
        want_html,
        tuple(players),
        output_format,
        tuple(skipped),
        reports=reports,
        norms=want_xlsx or want_html,
        side_texts=side_texts,
    )


def write_files(
    result: RatedPeriod,
    out_dir: Path | str | ZipOutput,
    plan: OutputPlan,
    report: EventReport | None = None,
    *,
    inputs: Sequence[Path | str | InputFile] = (),
) -> WriteReport:
    """Write the files of ``plan``, all of them atomically, into the folder ``out_dir`` or, for
    a :class:`~pipeline.model.ZipOutput`, into one zip in memory (``WriteReport.archive``: the
    same names and bytes). ``result`` holds the rating list and the games; ``report``, the
    report model (``pipeline.report``, built by the output stage ``pipeline.jobs.rate.outputs``),
    holds what every report shows: the writers format it. ``inputs``: the run's input files,
    which no output may replace."""
    written = WriteReport()
    table = detail = norms = None
    # The report modules are imported only by runs that write a report (their imports cost a
    # tenth of a second that a CSV-only run of a million games does not need).
    if plan.reports:
        from pipeline.writers.html.report_page import render_report
        from pipeline.writers.text.norms_text import norms_text
        from pipeline.writers.text.report_text import about_table, breakdown
        from pipeline.writers.text.report_text import standings as standings_table

        if report is None:
            raise ValueError("a report is written: the output stage builds its report model")
        # The text both reports show, formatted once: report.xlsx and report.html write it.
        table, detail, norms = standings_table(report), breakdown(report), norms_text(report.norms)
    if plan.xlsx or plan.players:
        from pipeline.writers.xlsx.workbooks import write_rating_list_xlsx, write_report_xlsx
    batch = ZipBatch() if isinstance(out_dir, ZipOutput) else OutputBatch(out_dir, protect=inputs)
    # The rating list as text, made once for rating_list.csv and rating_list.xlsx alike.
    rating_list = (
        rating_list_table(result) if plan.xlsx or plan.output_format != "parquet" else None
    )
    with batch:
        _write_tables(batch, result, plan.output_format, rating_list)
        if plan.xlsx:
            assert report is not None and table is not None and detail is not None
            assert rating_list is not None
            write_rating_list_xlsx(rating_list, batch.target("rating_list.xlsx"))
            write_report_xlsx(
                table,
                detail,
                batch.target("report.xlsx"),
                per_player=plan.sheets,
                note=report.mode_note,
                norms=norms,
                about=about_table(report),
            )
        if plan.html:
            assert report is not None
            page = render_report(report, table, detail, norms=norms)
            write_text(batch.target("report.html"), page)
        _write_player_files(batch, report, table, detail, plan.players)
        written.written = batch.commit()
    written.skipped.extend(plan.skipped)
    if isinstance(batch, ZipBatch):
        written.archive = batch.data
    else:
        written.skipped.extend(stale_outputs(batch.out_dir, written.written))
    return written


def _write_tables(
    batch: OutputBatch | ZipBatch,
    result: RatedPeriod,
    output_format: str,
    rating_list: pd.DataFrame | None,
) -> None:
    """rating_list and games, as CSV text (``rating_list``: the list's text table) or typed
    Parquet."""
    if output_format == "parquet":
        from pipeline.writers.text.parquet_files import (
            games_arrow,
            rating_list_arrow,
            write_parquet,
        )

        write_parquet(rating_list_arrow(result), batch.target("rating_list.parquet"))
        write_parquet(games_arrow(result), batch.target("games.parquet"))
        return
    assert rating_list is not None  # made for every CSV run
    write_csv(rating_list, batch.target("rating_list.csv"))
    # Built, written and dropped: the text of every game side is the biggest frame.
    write_games_csv(result, batch.target("games.csv"))


def _check_players(result: RatedPeriod, players: Sequence[str]) -> None:
    """Refuse a ``--player`` id that is not a player of this period, before anything is written."""
    unknown = [p for p in players if p not in set(result.totals["id"])]
    if unknown:
        raise RunError(
            f"--player {unknown[0]!r} is not a player of this period "
            f"({len(unknown)} unknown id(s)); nothing was written"
        )


def _write_player_files(batch, report, table, detail, players) -> None:
    """``player-<id>.xlsx`` and ``.html`` for each id of ``players`` (once each)."""
    if not players:
        return
    from pipeline.writers.html.report_page import render_report
    from pipeline.writers.text.report_text import about_table
    from pipeline.writers.xlsx.workbooks import write_report_xlsx

    about = about_table(report)
    for player_id in dict.fromkeys(players):
        assert table is not None and detail is not None  # built when players are asked for
        stem = player_file_stem(player_id)
        one = table[table["id"] == player_id]
        write_report_xlsx(
            one,
            detail,
            batch.target(f"{stem}.xlsx"),
            per_player=True,
            note=report.mode_note,
            about=about,
        )
        page = render_report(report, table, detail, only=[player_id], norms=None)
        write_text(batch.target(f"{stem}.html"), page)
