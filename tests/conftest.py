"""Shared fixtures and helpers: the sample data, the optional ../shared folder and the CLI runner.

Tests run the command line through `run_cli` (and `rate_sample` for the bundled sample event),
never through a CliRunner of their own.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import settings

from pipeline.resources import durability

# No per-example deadline: CI and developers' machines are shared, and a slow first example under
# load is not a failure of the property (the examples themselves stay bounded by max_examples).
settings.register_profile("fiderate", deadline=None)
settings.load_profile("fiderate")

# No fsync and SQLite synchronous=OFF for the suite (docs/safety.md): a test checks what a run
# writes, not that the disk has it, and on a machine whose disk is busy every fsync waits behind
# other processes' writes (issue 34: the period tests' time swung with the load). Set in the
# environment, so that the subprocesses tests start (scheduled runs, killed runs) inherit it; a
# developer may run the suite with FIDERATE_DURABILITY=full. The crash-safety tests take the
# `durable` fixture: they run with every fsync, as a user's run does.
os.environ.setdefault(durability.ENV, durability.RELAXED)

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data"
SHARED = ROOT.parent / "shared"


@pytest.fixture
def durable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test runs as a user's run does: every fsync, SQLite synchronous=FULL (in this process
    and the subprocesses it starts)."""
    monkeypatch.setenv(durability.ENV, "full")


@pytest.fixture(scope="session")
def three_kinds_year(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the history, the folder of each kind's lists) of tests/history/three_kinds_year.py: a
    year of the three kinds' lists, thirty-six period runs, built once for the whole run (two
    modules on either worker read it; neither writes to it)."""
    from tests.built_once import built_once
    from tests.history.three_kinds_year import build_year

    root = built_once(tmp_path_factory, "three-kinds-year", build_year)
    return root / "ratings.db", root


@pytest.fixture(scope="session")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One headless Chromium for the run (per xdist worker): starting one costs more than most
    browser tests do. Tests take it through ``browser``."""
    from tests.browser import browser_missing, start_chromium

    why = browser_missing()
    if why:
        pytest.skip(why)
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The run's Chromium, as a new one is (no page, no cookie, 1280 x 900) for each test."""
    from tests.browser import fresh

    fresh(chromium)
    yield chromium
    fresh(chromium)


@pytest.fixture
def sample() -> Path:
    return SAMPLE


@pytest.fixture
def shared_fide() -> Path:
    path = SHARED / "fide"
    if not path.is_dir():
        pytest.skip("../shared/fide is not present")
    return path


@pytest.fixture
def shared_trf() -> Path:
    path = SHARED / "trf"
    if not path.is_dir():
        pytest.skip("../shared/trf is not present")
    return path


SAMPLE_RATE = (
    "rate",
    SAMPLE / "games.csv",
    "--players",
    SAMPLE / "players.csv",
    "--period",
    "2026-11",
)


def run_cli(*args: object, **invoke: Any) -> Result:
    """Run `fiderate ARGS...` in this process (click's CliRunner); paths may be Path objects.

    The result keeps stdout and stderr apart (`result.stdout`, `result.stderr`); `invoke` passes
    CliRunner.invoke's own options (`input`, `env`, `catch_exceptions`).
    """
    from pipeline.cli import cli  # imported here: collecting the tests must not load the CLI

    return CliRunner().invoke(cli, [str(arg) for arg in args], **invoke)


def rate_sample(out: Path, *extra: object) -> Result:
    """`fiderate rate` on the bundled sample event (games and players, period 2026-11) into OUT."""
    return run_cli(*SAMPLE_RATE, "--out", out, *extra)


def period_sample(out: Path) -> None:
    """The README's period run, by its library call: the bundled sample's November 2026 list
    and events (sample_data/period) published into OUT (its files and ratings.db)."""
    from pipeline.jobs.period import PeriodRequest, run_period  # collecting loads no job

    period = SAMPLE / "period"
    run_period(
        PeriodRequest(
            list_path=period / "list_2026-11.csv",
            events=(period / "events",),
            period="2026-11",
            out_dir=out,
        )
    )


# The garbage collector's full passes, kept to what the tests create. A period run calls
# gc.collect() between its stages while its process holds over 400 MiB
# (pipeline/resources/stage_clock.py; it once went by the process's peak, which an xdist worker
# keeps for the rest of the run after one big test): a worker holding many tests' modules and
# fixtures can be over it, and each pass then walked every object the worker had loaded
# (hypothesis, pandas, the collected tests): ~0.17 s a pass, six passes a period run.
# Frozen objects (gc.freeze) are left out of the passes; they are what is alive after
# collection and after each test file (its module fixtures torn down), collected first so that
# no garbage is frozen. Objects freed by their reference count are freed as before.
def _freeze_what_lives() -> None:
    gc.collect()
    gc.freeze()


def pytest_collection_finish(session: pytest.Session) -> None:
    _freeze_what_lives()
    # The thresholds a `fiderate` run collects with (pipeline/resources/collector.py): the
    # in-process runs of the tests collect as the program's do.
    from pipeline.resources.collector import RUN_THRESHOLDS

    gc.set_threshold(*RUN_THRESHOLDS)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    yield
    if nextitem is None or nextitem.path != item.path:  # the file's module fixtures are gone
        _freeze_what_lives()
