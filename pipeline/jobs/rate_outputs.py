"""The outputs of ``fiderate rate``: planned, prepared, written.

The plan (:func:`pipeline.writers.plan_outputs`) says which files are written; the output stage
(:func:`prepare_outputs`) computes exactly what those files show and nothing more, before any
writer runs: the sides' text columns a run left as codes (reports, Parquet), the standings
(``grouper.standings``) and the title norms (``pipeline.norms``) when a report is written. A
CSV-only run of a million games builds none of them. The writers then only format and write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from pipeline.engine.sides import with_coded_texts
from pipeline.keys.id_lookup import IdLookup
from pipeline.model import RatedPeriod, Standings
from pipeline.writers import OutputPlan, WriteReport, plan_outputs, player_ranks, write_files


def with_side_texts(result: RatedPeriod) -> RatedPeriod:
    """``result`` with the sides' text columns built from their codes (the same period when
    they were never left as codes)."""
    if not result.texts_coded:
        return result
    if result.side_players is None or result.side_texts is None:
        raise ValueError("the sides' texts were left as codes without their codes")
    sides = with_coded_texts(result.sides, players=result.side_players, texts=result.side_texts)
    return replace(result, sides=sides)


def needs_side_texts(result: RatedPeriod, plan: OutputPlan) -> bool:
    """Whether the files of ``plan`` read the sides' text columns: the reports and Parquet do;
    games.csv takes them by code, but for the player's when a side has no row in the totals."""
    if not result.texts_coded:
        return False
    return plan.reports or plan.output_format == "parquet" or player_ranks(result) is None


def prepare_outputs(result: RatedPeriod, plan: OutputPlan) -> tuple[RatedPeriod, Standings | None]:
    """(the period with what the files of ``plan`` show computed, their standings or None when
    no report is written)."""
    if result.totals_ids is None and "id" in result.totals and len(result.totals):
        # games.csv's order is the totals' (``player_ranks``): their id look-up built once here,
        # for the check below and the writer both.
        result = replace(result, totals_ids=IdLookup(result.totals["id"]))
    if needs_side_texts(result, plan):
        result = with_side_texts(result)
    if not plan.reports:
        return result, None
    from pipeline.grouper.standings import standings

    if plan.norms and result.norms is None and result.norm_sources is not None:
        # Imported here: a run that writes no report never loads the norm check.
        from pipeline.norms import norm_inputs

        sources = result.norm_sources
        result = replace(result, norms=norm_inputs(sources.inputs, sources.players, result.sides))
    return result, standings(result)


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
    plan = plan_outputs(result, xlsx, html=html, players=players, output_format=output_format)
    prepared, standings = prepare_outputs(result, plan)
    return write_files(prepared, out_dir, plan, standings, inputs=inputs)
