"""The way a command takes through the floors (issue 27): one pass down, cli -> jobs -> readers
-> engine -> grouper -> (norms) -> writers.

A run is traced with ``sys.setprofile``: the package of each pipeline function called, from the
command's own function on, consecutive repeats folded. Helpers that every floor may use (rules,
keys, arrays, resources, model, errors, schemas, lazy) are left out of the trace; so is module
code run on import (every module is imported before the trace starts: an import is not a step
of the run). A package change is one step from one floor to another: a run that goes back up to
``jobs`` between stages counts each return, so the count says how often control bounces.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

import pipeline
from tests.conftest import SAMPLE, run_cli

HELPERS = {
    "rules",
    "keys",
    "arrays",
    "resources",
    "model",
    "errors",
    "problem_list",
    "file_names",
    "lazy",
    "schemas",
}
PIPELINE = Path(pipeline.__file__).resolve().parent
SCHEMAS = PIPELINE.parent / "schemas"


def _import_everything() -> None:
    for module in pkgutil.walk_packages([str(PIPELINE)], "pipeline."):
        if not module.name.endswith("__main__"):  # that one runs the CLI
            importlib.import_module(module.name)


@functools.cache
def _package(filename: str) -> str | None:
    path = Path(filename)
    try:
        parts = path.resolve().relative_to(PIPELINE).parts
    except ValueError:
        return "schemas" if path.resolve().is_relative_to(SCHEMAS) else None
    return parts[0].removesuffix(".py") if parts else None


COMMANDS = {"rate": "rate", "period": "period"}


def trace(args: list[str]) -> list[str]:
    """The folded sequence of packages a CLI run calls, from the command's function on."""
    _import_everything()
    seen: list[str] = []

    def profile(frame, event, arg):  # noqa: ANN001 - sys.setprofile's signature
        if event != "call" or frame.f_code.co_name == "<module>":
            return
        package = _package(frame.f_code.co_filename)
        if package is None or package in HELPERS:
            return
        if package == "cli" and not seen and frame.f_code.co_name != COMMANDS[args[0]]:
            return  # click's own dispatch, before the command's function
        if not seen or seen[-1] != package:
            seen.append(package)

    sys.setprofile(profile)
    try:
        result = run_cli(*args)
    finally:
        sys.setprofile(None)
    assert result.exit_code == 0, result.output
    return seen


RATE_TARGET, PERIOD_TARGET = 15, 25  # package changes (issue 27); 76 and 87 when it was filed
# A web upload (issue 35): the rate job's way, between the page's reading of the form and its
# rendering of the result (web -> jobs -> ... -> web). 26 when each upload also ran the norms job
# on the files it had copied to a folder (reading each twice).
UPLOAD_TARGET = 19
# Where an input's bytes are read (``readers.limits``): each input, once, through one of these.
INPUT_READS = {"read_input", "open_input"}


def trace_upload(files: dict[str, tuple[str, bytes]]) -> tuple[list[str], Counter[str]]:
    """The folded packages a web upload of ``files`` calls from the page's rating function
    (``Pages._rate_in``, run in a worker thread) on, and how often each input was read (by the
    name it is read under: an upload's safe name, a path's text)."""
    from pipeline.web.app import create_app
    from tests.web.conftest import local_client

    _import_everything()
    seen: list[str] = []
    reads: Counter[str] = Counter()

    def profile(frame, event, arg):  # noqa: ANN001 - sys.setprofile's signature
        if event != "call" or frame.f_code.co_name == "<module>":
            return
        package = _package(frame.f_code.co_filename)
        if package is None or package in HELPERS and package != "readers":
            return
        name = frame.f_code.co_name
        if package == "readers" and name in INPUT_READS and "limits" in frame.f_code.co_filename:
            reads[str(frame.f_locals["path"])] += 1
        if package == "web" and not seen and name != "_rate_in":
            return  # the form's reading, before the page hands the upload to the job
        if not seen or seen[-1] != package:
            seen.append(package)

    # The app's threads (the client's event loop, its worker threads) start inside the trace.
    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        with local_client(create_app(), raise_server_exceptions=True) as client:
            answer = client.post("/rate", files=files, follow_redirects=False)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    assert answer.status_code == 303, answer.text
    return seen, reads


@pytest.fixture(scope="module")
def rate_way(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    out = tmp_path_factory.mktemp("rate") / "out"
    # As a user runs it: the summary the CLI prints is part of the way (cli -> writers).
    return trace(["rate", str(SAMPLE / "event.trf"), "--out", str(out)])


@pytest.fixture(scope="module")
def period_way(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    tmp_path = tmp_path_factory.mktemp("period")
    events = SAMPLE / "period" / "events"
    listed = SAMPLE / "period" / "list_2026-11.csv"
    out = tmp_path / "out"
    return trace(
        [
            "period",
            "--list",
            str(listed),
            "--events",
            str(events),
            "--period",
            "2026-11",
            "--out",
            str(out),
        ]
    )


def test_each_command_enters_the_library_through_its_job(rate_way, period_way):
    assert rate_way[:2] == ["cli", "jobs"]
    assert period_way[:2] == ["cli", "jobs"]


def test_the_trace_folds_repeats_and_leaves_the_helpers_out(rate_way):
    way = rate_way
    assert all(a != b for a, b in zip(way, way[1:], strict=False)), way
    assert not set(way) & HELPERS, way
    assert {"readers", "engine", "grouper", "writers"} <= set(way), way


def test_rate_goes_down_the_floors_once(rate_way):
    way = rate_way
    assert len(way) - 1 <= RATE_TARGET, " -> ".join(way)


def test_period_goes_down_the_floors_once(period_way):
    way = period_way
    assert len(way) - 1 <= PERIOD_TARGET, " -> ".join(way)


@pytest.fixture(scope="module")
def upload_way() -> tuple[list[str], Counter[str]]:
    return trace_upload(
        {
            "event": ("games.csv", (SAMPLE / "games.csv").read_bytes()),
            "players": ("players.csv", (SAMPLE / "players.csv").read_bytes()),
            "period": (None, b"2026-11"),  # type: ignore[dict-item]
        }
    )


def test_an_upload_is_one_call_of_the_rate_job(upload_way):
    way, _ = upload_way
    assert way[:2] == ["web", "jobs"], " -> ".join(way)
    assert {"readers", "engine", "grouper", "writers"} <= set(way), way
    assert len(way) - 1 <= UPLOAD_TARGET, " -> ".join(way)


def test_an_upload_reads_each_input_once(upload_way):
    _, reads = upload_way
    assert reads == {"games.csv": 1, "players.csv": 1}


def test_an_uploaded_trf_is_read_once_and_its_norms_with_it():
    # A TRF's norms are checked for the event page: from the same read as its ratings.
    _, reads = trace_upload({"event": ("event.trf", (SAMPLE / "event.trf").read_bytes())})
    assert reads == {"event.trf": 1}
