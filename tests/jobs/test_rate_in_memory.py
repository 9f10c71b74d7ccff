"""``rate`` with nothing on disk (issue 35): inputs held in memory (``InputFile``) and the outputs
in one zip in memory (``ZipOutput``) give the files a folder run of the same files writes, byte
for byte, under the same names; the zip is the same for the same files."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from pipeline.errors import UsageError
from pipeline.jobs.rate import RateOutputs, RateRequest, rate
from pipeline.model import InputFile, RateOptions, ZipOutput
from pipeline.resources.atomic_files import ZIP_DATE, ZipBatch, write_text
from tests.conftest import SAMPLE

RUNS = {
    "trf": ((SAMPLE / "event.trf",), None, RateOptions(), RateOutputs()),
    "games and list, every output": (
        (SAMPLE / "games.csv",),
        SAMPLE / "players.csv",
        RateOptions(period="2026-11"),
        RateOutputs(xlsx=True, html=True, player_ids=("4100018",)),
    ),
    "parquet": (
        (SAMPLE / "crosstable.xlsx",),
        None,
        RateOptions(period="2026-11"),
        RateOutputs(output_format="parquet"),
    ),
}


def held(path: Path) -> InputFile:
    return InputFile(path.name, path.read_bytes())


@pytest.mark.parametrize("run", RUNS, ids=list(RUNS))
def test_the_zip_holds_what_the_folder_gets(tmp_path: Path, run: str) -> None:
    inputs, players, options, outputs = RUNS[run]
    folder = tmp_path / "out"
    on_disk = rate(RateRequest(inputs, folder, players, options, outputs=outputs))
    in_memory = rate(
        RateRequest(
            tuple(held(p) for p in inputs),
            ZipOutput(),
            None if players is None else held(players),
            options,
            outputs=outputs,
        )
    )
    assert on_disk.files.archive is None and in_memory.files.archive is not None
    archive = zipfile.ZipFile(io.BytesIO(in_memory.files.archive))
    names = [p.relative_to(folder).as_posix() for p in on_disk.written]
    assert archive.namelist() == names == [p.as_posix() for p in in_memory.written]
    for name in names:
        assert archive.read(name) == (folder / name).read_bytes(), name
        assert archive.getinfo(name).date_time == ZIP_DATE
    assert in_memory.rated.sources == [p.name for p in inputs]


def test_the_same_files_give_the_same_zip() -> None:
    request = RateRequest((held(SAMPLE / "event.trf"),), ZipOutput())
    assert rate(request).files.archive == rate(request).files.archive


def test_norms_on_request_without_a_report() -> None:
    # A page that shows the norms asks for them; a run that writes no report checks none.
    event = (held(SAMPLE / "event.trf"),)
    plain = RateOutputs(xlsx=False, html=False)
    assert rate(RateRequest(event, ZipOutput(), outputs=plain)).rated.norms is None
    asked = RateOutputs(xlsx=False, html=False, norms=True)
    with_report = rate(RateRequest(event, ZipOutput())).rated.norms
    shown = rate(RateRequest(event, ZipOutput(), outputs=asked)).rated.norms
    assert shown is not None and with_report is not None
    assert shown.table.equals(with_report.table)


@pytest.mark.parametrize(
    "request_",
    [
        RateRequest((InputFile("event.trf", b"012 x\n"),), Path("out"), engine="dask"),
        RateRequest((SAMPLE / "event.trf",), ZipOutput(), engine="dask"),
    ],
    ids=["input in memory", "zip output"],
)
def test_dask_refuses_what_it_cannot_read_or_write(request_: RateRequest) -> None:
    # Its workers read files from disk and write the games into a folder: refused, not ignored.
    with pytest.raises(UsageError, match="--engine dask reads its inputs from files"):
        rate(request_)


def test_a_zip_batch_discards_everything_on_failure() -> None:
    batch = ZipBatch()
    with pytest.raises(RuntimeError), batch:
        write_text(batch.target("a.csv"), "x\n")
        raise RuntimeError("a writer failed")
    assert batch.data == b""


def test_a_zip_batch_refuses_a_name_twice_and_a_late_write() -> None:
    with ZipBatch() as batch:
        first = batch.target("a.csv")
        batch.target("b.csv")  # a.csv is done: compressed into the zip, its buffer closed
        with pytest.raises(ValueError):
            first.write(b"late")
        with pytest.raises(ValueError, match="written twice"):
            batch.target("a.csv")
        batch.commit()
    assert zipfile.ZipFile(io.BytesIO(batch.data)).namelist() == ["a.csv", "b.csv"]
