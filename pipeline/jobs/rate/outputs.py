"""The outputs of ``fiderate rate``: planned, prepared, written, one stage call each.

The plan (:func:`pipeline.writers.plan_outputs`) says which files are written and what they
read; then exactly what those files show is computed, and nothing more, before any writer runs:
the sides' text columns a run left as codes (reports, Parquet: ``engine.sides``) and, when a
report is written or the caller asks for it (a web page), the report model
(:class:`pipeline.report.EventReport`: the standings of ``grouper.standings``, every game's
arithmetic and why it counted so, the title norms of ``pipeline.norms``). A CSV-only run of a
million games builds none of them. The writers then only format and write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.engine.sides import with_side_texts
from pipeline.keys.id_lookup import IdLookup
from pipeline.model import InputFile, RatedPeriod, ZipOutput
from pipeline.writers import OutputPlan, WriteReport, plan_outputs, write_files

if TYPE_CHECKING:
    from pipeline.report import EventReport


def prepare_outputs(
    result: RatedPeriod,
    xlsx: bool | None = None,
    *,
    html: bool | None = None,
    players: Sequence[str] = (),
    output_format: str = "csv",
    report: bool = False,
    norms: bool = False,
    inputs: Sequence[Path | str | InputFile] = (),
) -> tuple[RatedPeriod, OutputPlan, EventReport | None]:
    """(the period with what its files show computed, the files to write, the report model or
    None when no report is written and ``report`` does not ask for it), for the options of
    :func:`write_outputs`. ``norms``: the caller shows the title norms (a web page), so they are
    checked even when no file shows them; ``inputs``: the run's input files, which the model
    names."""
    if result.totals_ids is None and "id" in result.totals and len(result.totals):
        # games.csv's order is the totals' (``writers.player_ranks``): their id look-up built
        # once here, for the plan and the writer both.
        result = replace(result, totals_ids=IdLookup(result.totals["id"]))
    plan = plan_outputs(result, xlsx, html=html, players=players, output_format=output_format)
    wanted = plan.reports or report
    check_norms = (
        (plan.norms or norms or report) and result.norms is None and result.norm_sources is not None
    )
    # The norm check and the report model read the sides' texts.
    if plan.side_texts or ((wanted or check_norms) and result.texts_coded):
        result = with_side_texts(result)
    if check_norms:
        # Imported here: a run that shows no norms never loads the norm check.
        from pipeline.norms import norm_inputs

        sources = result.norm_sources
        assert sources is not None  # check_norms
        result = replace(result, norms=norm_inputs(sources.inputs, sources.players, result.sides))
    if not wanted:
        return result, plan, None
    # Imported here: a run that writes no report never loads the standings or the report model.
    from pipeline.grouper.standings import standings
    from pipeline.report import build_report

    return result, plan, build_report(result, standings(result), inputs)


def write_outputs(
    result: RatedPeriod,
    out_dir: Path | str | ZipOutput,
    xlsx: bool | None = None,
    *,
    html: bool | None = None,
    players: Sequence[str] = (),
    output_format: str = "csv",
    inputs: Sequence[Path | str | InputFile] = (),
) -> WriteReport:
    """Write rating_list and games (as ``output_format``: csv or parquet) and, by size or as
    ``xlsx``/``html`` say, the spreadsheets and report.html; ``players``: also
    ``player-<id>.xlsx`` and ``.html`` for each of those ids. ``inputs``: the run's input files,
    which no output may replace."""
    prepared, plan, model = prepare_outputs(
        result, xlsx, html=html, players=players, output_format=output_format, inputs=inputs
    )
    return write_files(prepared, out_dir, plan, model, inputs=inputs)
