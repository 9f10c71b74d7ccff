"""The job functions (issue 27): a frozen request in, a result value out, nothing printed. Each
gives what its command gives: the CLI only renders the job's result."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path

import pytest

from pipeline.errors import InputError, UsageError
from pipeline.jobs import calculators
from pipeline.jobs import convert as convert_job
from pipeline.jobs import norms as norms_job
from pipeline.jobs import rate as rate_job
from pipeline.jobs import validate as validate_job
from pipeline.model import RateOptions
from pipeline.resources.stage_board import StageBoard
from tests.conftest import SAMPLE, run_cli
from tests.jobs.test_validate_cli import BROKEN, EXPECTED

EVENT = SAMPLE / "event.trf"


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_the_rate_job_writes_what_the_command_writes(tmp_path, capsys):
    assert run_cli("rate", EVENT, "--out", tmp_path / "cli", "-q").exit_code == 0
    result = rate_job.rate(rate_job.RateRequest((EVENT,), tmp_path / "job"))
    assert capsys.readouterr() == ("", "")  # a job prints nothing
    assert _files(tmp_path / "job") == _files(tmp_path / "cli")
    assert sorted(p.name for p in result.written) == sorted(_files(tmp_path / "cli"))
    # The changes the result carries are those of the list written.
    with (tmp_path / "cli" / "rating_list.csv").open(encoding="utf-8") as listed:
        changes = {row["id"]: int(row["change"]) for row in csv.DictReader(listed)}
    totals = result.rated.totals
    assert dict(zip(totals["id"], totals["change"].astype(int), strict=True)) == changes
    assert result.dask is None and result.warnings == tuple(result.rated.warnings)


def test_the_rate_job_tells_its_stages_and_honours_the_outputs_asked(tmp_path):
    board = StageBoard()
    request = rate_job.RateRequest(
        [SAMPLE / "games.csv"],
        tmp_path / "out",
        players=SAMPLE / "players.csv",
        options=RateOptions(period="2026-11"),
        outputs=rate_job.RateOutputs(xlsx=False, html=False, output_format="parquet"),
    )
    result = rate_job.rate(request, progress=board)
    assert board.posted == ["reading and rating", "writing reports"]
    assert sorted(p.name for p in result.written) == ["games.parquet", "rating_list.parquet"]


def test_bad_input_raises_the_problems_and_writes_nothing(tmp_path):
    request = rate_job.RateRequest(
        tuple(SAMPLE / b for b in BROKEN), tmp_path / "out", players=SAMPLE / "players.csv"
    )
    with pytest.raises(InputError) as failed:
        rate_job.rate(request)
    found = {(Path(p.file).name, p.row, p.code) for p in failed.value.problems}
    assert found == EXPECTED
    assert not (tmp_path / "out").exists()


def test_a_dask_run_refuses_what_it_cannot_honour_before_reading(tmp_path):
    request = rate_job.RateRequest(
        (tmp_path / "none.csv",),
        tmp_path / "out",
        options=RateOptions(mode="sequential"),
        outputs=rate_job.RateOutputs(html=True, summary=True),
        engine="dask",
    )
    with pytest.raises(UsageError) as refused:
        rate_job.rate(request)
    listed = [line.strip() for line in str(refused.value).splitlines() if line.startswith("  ")]
    assert [line.split(":")[0] for line in listed] == ["--mode sequential", "--html", "--json"]
    assert not (tmp_path / "out").exists()


def test_a_scheduler_alone_means_the_dask_engine(tmp_path):
    pytest.importorskip("distributed")
    request = rate_job.RateRequest((SAMPLE / "games.csv",), tmp_path / "out", scheduler="nonsense")
    with pytest.raises(UsageError, match="not a Dask scheduler address"):
        rate_job.rate(request)
    assert not (tmp_path / "out").exists()


def test_an_unknown_engine_is_a_usage_error(tmp_path):
    request = rate_job.RateRequest((EVENT,), tmp_path / "out", engine="spark")
    with pytest.raises(UsageError, match="--engine must be one of pandas, dask"):
        rate_job.rate(request)
    assert not (tmp_path / "out").exists()


def test_the_rate_job_on_a_dask_executor_it_is_given(tmp_path):
    """The caller's cluster (here one in this process): the same list as the pandas job, the
    games parts in OUT/games, the counts in the result and no temporary folder left."""
    distributed = pytest.importorskip("distributed")
    from pipeline.jobs.rate.dask_executor import DaskExecutor

    common = {
        "inputs": (SAMPLE / "games.csv",),
        "players": SAMPLE / "players.csv",
        "options": RateOptions(period="2026-11"),
    }
    rate_job.rate(rate_job.RateRequest(out_dir=tmp_path / "pandas", **common))
    with distributed.Client(processes=False, n_workers=1, dashboard_address=":0") as client:
        given = DaskExecutor(client=client)
        request = rate_job.RateRequest(out_dir=tmp_path / "dask", engine="dask", **common)
        result = rate_job.rate(request, executor=given)
    assert (tmp_path / "dask" / "rating_list.csv").read_bytes() == (
        tmp_path / "pandas" / "rating_list.csv"
    ).read_bytes()
    assert result.written == [tmp_path / "dask" / "rating_list.csv", tmp_path / "dask" / "games"]
    assert sorted(p.name for p in (tmp_path / "dask").iterdir()) == ["games", "rating_list.csv"]
    games = len((tmp_path / "pandas" / "games.csv").read_text().splitlines()) - 1
    assert result.dask is not None
    assert (result.dask.parts, result.dask.sides) == (1, games)
    assert result.dask.rated_players == int((result.rated.totals["games"] > 0).sum()) > 0
    assert given.parts == 0  # the caller's executor is not changed


def test_the_validate_job_returns_every_problem(tmp_path):
    broken = tuple(SAMPLE / b for b in BROKEN)
    report = validate_job.validate(
        validate_job.ValidateRequest(broken, players=SAMPLE / "players.csv")
    )
    assert not report.ok
    assert {(Path(p.file).name, p.row, p.code) for p in report.problems} == EXPECTED
    assert report.files == (str(SAMPLE / "players.csv"), *map(str, broken))
    clean = validate_job.validate(validate_job.ValidateRequest([EVENT]))
    assert clean.ok and clean.files == (str(EVENT),)


def test_the_norms_job_gives_the_command_s_report():
    from pipeline.norms.norm_text import report_json

    shown = run_cli("norms", EVENT, "--json")
    assert shown.exit_code == 0, shown.output
    report = norms_job.norms(norms_job.NormsRequest([EVENT]))
    assert report_json(report) == json.loads(shown.stdout)
    assert len(report.table)


def test_the_convert_job_writes_what_the_command_writes(tmp_path):
    shown = run_cli("convert", EVENT, "--to", "csv", "-o", tmp_path / "cli.csv")
    assert shown.exit_code == 0, shown.output
    request = convert_job.ConvertRequest(EVENT, tmp_path / "job.csv", to="csv")
    result = convert_job.convert(request)
    assert (tmp_path / "job.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    wrote = f"wrote {tmp_path / 'cli.csv'}: {result.players} players, {result.games} games, "
    assert shown.stdout.startswith(wrote)
    assert result.output == tmp_path / "job.csv"


def test_the_convert_job_refuses_a_header_for_a_games_file(tmp_path):
    header = convert_job.EventHeader(name="Open", city="Graz")
    request = convert_job.ConvertRequest(EVENT, tmp_path / "x.csv", to="csv", header=header)
    with pytest.raises(UsageError, match="--name, --city: a games file has no header"):
        convert_job.convert(request)
    assert not (tmp_path / "x.csv").exists()


def test_the_calculator_jobs_give_what_the_commands_print():
    from pipeline.calculator.calc_text import (
        calc_json,
        every_result_json,
        performance_json,
        table_json,
    )

    perf = calculators.performance(calculators.PerformanceRequest([1800, 1900], 150))
    shown = run_cli("performance", "--vs", "1800:1", "--vs", "1900:0.5", "--json")
    assert performance_json(perf) == json.loads(shown.stdout)
    table = calculators.table(calculators.TableRequest(k=40, step=100, max_gap=400))
    assert table_json(table) == json.loads(
        run_cli("table", "--k", "40", "--step", "100", "--max", "400", "--json").stdout
    )
    request = calculators.CalcRequest(1650, (1800, 1500), (100, 50))
    shown = run_cli("calc", "1650", "--vs", "1800:1", "--vs", "1500:0.5", "--json")
    assert calc_json(calculators.calc(request)) == json.loads(shown.stdout)
    outcomes = calculators.every_outcome(calculators.CalcRequest(1650, (1800,), ()))
    shown = run_cli("calc", "1650", "--vs", "1800", "--json")
    assert every_result_json(outcomes) == json.loads(shown.stdout)


REQUESTS = [
    rate_job.RateRequest([EVENT], SAMPLE),
    rate_job.RateOutputs(),
    validate_job.ValidateRequest([EVENT]),
    norms_job.NormsRequest([EVENT], titles=["GM"]),
    convert_job.ConvertRequest(EVENT, "x.trf"),
    calculators.TableRequest(),
    calculators.PerformanceRequest([1800], 100),
]


@pytest.mark.parametrize("request_value", REQUESTS, ids=lambda r: type(r).__name__)
def test_a_request_cannot_be_changed(request_value):
    first = dataclasses.fields(request_value)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(request_value, first, None)
    # A list given for a sequence is kept as a tuple: no way to change the request through it.
    for field in dataclasses.fields(request_value):
        assert not isinstance(getattr(request_value, field.name), list)
