"""The ``rate`` job: one call from a frozen :class:`RateRequest` to a :class:`RateResult`, on
either engine. The CLI (and a web page, a scheduler) builds the request and renders the result;
nothing here prints.

Kept apart from :mod:`pipeline.jobs.rate.stages` (the read-check-rate functions both engines share)
because the Dask executor imports those functions: the job that builds the executor cannot live
beside them without an import cycle. Dask itself is imported only by a Dask run.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.errors import UsageError
from pipeline.model import (
    READ_DEFAULTS,
    InputFile,
    RatedPeriod,
    RateOptions,
    ReadOptions,
    ZipOutput,
)
from pipeline.readers.limits import MAX_INPUT_BYTES  # the largest input file a run reads
from pipeline.resources.stage_board import StageBoard

if TYPE_CHECKING:
    from pipeline.jobs.rate.dask_executor import DaskExecutor
    from pipeline.report import EventReport
    from pipeline.writers import WriteReport

ENGINES = ("pandas", "dask")
OUTPUT_FORMATS = ("csv", "parquet")


@dataclass(frozen=True)
class RateOutputs:
    """What a run writes beyond the rating list and the games (``--xlsx``, ``--html``,
    ``--player``, ``--output-format``). ``xlsx``/``html`` None: by the number of players.
    ``summary``: the caller will summarise the rated sides (``--json``), which a Dask run
    keeps on its workers and so refuses. ``report``: return the report model
    (``RateResult.report``) even when no report file is written (a web page renders it);
    ``norms``: the caller shows the title norms (a web page): they are checked
    (``RateResult.rated.norms``, the model's too) even when no report shows them."""

    xlsx: bool | None = None
    html: bool | None = None
    player_ids: tuple[str, ...] = ()
    output_format: str = "csv"
    summary: bool = False
    report: bool = False
    norms: bool = False


@dataclass(frozen=True)
class RateRequest:
    """One ``fiderate rate`` run: the event files (or folders, or patterns), the list in force,
    the output folder, how to rate and read, what to write, and on which engine. ``scheduler``
    (a Dask scheduler address) implies the Dask engine, as ``--scheduler`` does.

    An input or the list may be an :class:`~pipeline.model.InputFile` (an upload held in
    memory), and the outputs may go to a :class:`~pipeline.model.ZipOutput` instead of a
    folder (``RateResult.files.archive``): a web upload is one call, with nothing on disk."""

    inputs: tuple[Path | str | InputFile, ...]
    out_dir: Path | ZipOutput
    players: Path | str | InputFile | None = None
    options: RateOptions = RateOptions()
    reading: ReadOptions = READ_DEFAULTS
    outputs: RateOutputs = RateOutputs()
    engine: str = "pandas"
    scheduler: str | None = None

    def __post_init__(self) -> None:
        # A list given for ``inputs`` would leave the request mutable through it.
        object.__setattr__(self, "inputs", tuple(self.inputs))
        if not isinstance(self.out_dir, ZipOutput):
            object.__setattr__(self, "out_dir", Path(self.out_dir))

    @property
    def on_dask(self) -> bool:
        return self.engine == "dask" or self.scheduler is not None

    @property
    def protected(self) -> list[Path | str | InputFile]:
        """The run's input files, which no output may replace (and which report.xlsx names)."""
        return [*self.inputs, *([self.players] if self.players is not None else [])]


@dataclass(frozen=True)
class DaskCounts:
    """What a Dask run counts on its workers (its sides never come back to this process)."""

    parts: int
    sides: int
    rated_sides: int
    rated_players: int


@dataclass(frozen=True)
class RateResult:
    """The rated period (with what its files show: the title norms when a report shows them or
    ``RateOutputs.norms`` asks), what was written (``files.written``; for a ``ZipOutput`` the
    zip's member names, its bytes in ``files.archive``), the notes on outputs left out
    (``files.skipped``) and the run's warnings; ``dask``: the counts of a Dask run;
    ``report``: the report model the files show (:class:`pipeline.report.EventReport`), built
    when a report is written or ``RateOutputs.report`` asks for it, else None."""

    rated: RatedPeriod
    files: WriteReport
    dask: DaskCounts | None = None
    warnings: tuple[str, ...] = ()
    report: EventReport | None = None

    @property
    def written(self) -> list[Path]:
        return self.files.written

    @property
    def notes(self) -> list[str]:
        return self.files.skipped


def rate(
    request: RateRequest,
    *,
    executor: DaskExecutor | None = None,
    progress: StageBoard | None = None,
) -> RateResult:
    """Read, check, rate and write one period as ``request`` says.

    Bad input raises :class:`~pipeline.errors.InputError` before anything is written; an option
    the engine cannot honour raises :class:`~pipeline.errors.UsageError` before anything is read.
    ``executor``: the Dask executor to run on (e.g. on a client the caller holds); by default a
    Dask run builds one for ``request.scheduler`` (a local cluster when None). The job posts each
    stage's name on ``progress`` as it starts (a terminal's spinner reads it; a page's status
    line could).
    """
    if request.engine not in ENGINES:
        raise UsageError(f"--engine must be one of {', '.join(ENGINES)} (got {request.engine!r})")
    if request.outputs.output_format not in OUTPUT_FORMATS:
        raise UsageError(
            f"--output-format must be one of {', '.join(OUTPUT_FORMATS)} "
            f"(got {request.outputs.output_format!r})"
        )
    from pipeline.resources.memory import prefer_jemalloc

    prefer_jemalloc()  # before the first big Arrow buffer (see its docstring)
    if request.on_dask:
        return _rate_on_dask(request, executor)
    if executor is not None:
        raise ValueError("an executor is for engine 'dask'; this request is for pandas")
    from pipeline.jobs.rate.outputs import prepare_outputs
    from pipeline.jobs.rate.stages import rate_files
    from pipeline.resources.collector import start_up_done
    from pipeline.writers import write_files

    start_up_done()  # pandas, pyarrow and pandera are loaded: collect as usual from here
    protected = request.protected
    board = progress or StageBoard()
    board.post("reading and rating")
    rated = rate_files(request.inputs, request.players, request.options, reading=request.reading)
    board.post("writing reports")
    outputs = request.outputs
    # The files' contents prepared once (the report model among them, when a report is
    # written or the caller renders it), then written: ``write_outputs``' two steps. The period
    # the files show is the one the result returns (its norms too).
    prepared, plan, model = prepare_outputs(
        rated,
        outputs.xlsx,
        html=outputs.html,
        players=outputs.player_ids,
        output_format=outputs.output_format,
        report=outputs.report,
        norms=outputs.norms,
        inputs=protected,
    )
    files = write_files(prepared, request.out_dir, plan, model, inputs=protected)
    return RateResult(prepared, files, warnings=tuple(rated.warnings), report=model)


def _rate_on_dask(request: RateRequest, given: DaskExecutor | None) -> RateResult:
    """The same run function as the pandas path with the Dask executor; every option it cannot
    honour is refused (UsageError) before anything is read or written. The workers write the
    games parts into a temporary folder of ``out_dir``, renamed to ``games`` once the rating
    list is written; a failed run removes it, and the ``out_dir`` it made."""
    from pipeline.jobs.plan import refuse
    from pipeline.jobs.rate.dask_executor import (
        DaskExecutor,
        DaskRun,
        games_tmp_dir,
        output_refusals,
        write_dask_outputs,
    )
    from pipeline.jobs.rate.dask_scheduler import check_scheduler_address
    from pipeline.jobs.rate.stages import rate_files
    from pipeline.writers import WriteReport

    outputs = request.outputs
    held = [str(p) for p in request.protected if isinstance(p, InputFile)]
    if held or isinstance(request.out_dir, ZipOutput):
        # The workers read their files from disk and write the games parts into a folder.
        raise UsageError(
            "--engine dask reads its inputs from files and writes to a folder: "
            + (f"{', '.join(held)} is held in memory" if held else "the outputs go to a zip")
        )
    if request.scheduler is not None:
        check_scheduler_address(request.scheduler)
    executor = (
        DaskExecutor(request.scheduler, games_format=outputs.output_format)
        if given is None
        else replace(given, games_format=outputs.output_format)  # fresh counts; caller's client
    )
    refuse(
        executor.name,
        executor.refusals(request.options, request.reading)
        + output_refusals(
            player_ids=outputs.player_ids,
            html=outputs.html,
            xlsx=outputs.xlsx,
            as_json=outputs.summary,
        )
        + (
            ["the report model (a page of the event) needs every side in one process"]
            if outputs.report
            else []
        ),  # fmt: skip
    )
    out_dir = Path(request.out_dir)  # not a ZipOutput: refused above
    made = _first_missing(out_dir)  # the run makes this folder (and those below it)
    games_tmp = games_tmp_dir(out_dir)
    executor.games_dir = games_tmp
    done = False
    try:
        rated = rate_files(
            request.inputs,
            request.players,
            request.options,
            reading=request.reading,
            executor=executor,
        )
        run = DaskRun(rated, executor.sides, executor.rated_sides, executor.parts)
        fmt = outputs.output_format
        on_disk = [p for p in request.protected if not isinstance(p, InputFile)]  # all of them
        written = write_dask_outputs(run, out_dir, games_tmp, fmt, on_disk)
        done = True
    finally:
        if games_tmp.exists():
            shutil.rmtree(games_tmp, ignore_errors=True)
        # A failed run leaves nothing behind, not even the empty out_dir it made.
        if not done and made is not None and not any(p.is_file() for p in made.rglob("*")):
            shutil.rmtree(made, ignore_errors=True)
    counts = DaskCounts(
        parts=run.parts,
        sides=run.sides,
        rated_sides=run.rated_sides,
        rated_players=int((rated.totals["games"] > 0).sum()),
    )
    return RateResult(rated, WriteReport(written=written), counts, tuple(rated.warnings))


def _first_missing(folder: Path) -> Path | None:
    """The highest folder of ``folder``'s path that does not exist yet, if any."""
    missing = [p for p in (folder, *folder.parents) if not p.exists()]
    return missing[-1] if missing else None


__all__ = ["MAX_INPUT_BYTES", "DaskCounts", "RateOutputs", "RateRequest", "RateResult", "rate"]
