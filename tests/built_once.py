"""A fixture's files built once per test run, shared by the xdist workers of that run.

Under ``pytest -n 2 --dist loadfile`` two modules that read the same costly files (a year of
periods of three kinds) may land on different workers; a session-scoped fixture would then build
them once in each. ``built_once`` builds them once in the run's base temporary folder, which every
worker of the run shares (its ``popen-gwN`` folders' parent), and the other workers wait for it.
The lock is a folder (``mkdir`` is atomic on every platform), so no extra package is needed.
"""

from __future__ import annotations

import os
import shutil
import time
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

# The build runs in a fixture under a loaded machine; a waiting worker gives up after this long
# rather than hang the run if the builder died without saying so.
WAIT = 900.0


def run_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder all workers of this run share (this process's base folder without xdist)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]
) -> Path:
    """The folder ``name`` of this run, filled by ``build(folder)`` in exactly one process.

    A build that raises fails every test that needs it (in this worker with its own error, in
    the others with its traceback), as a fixture that raises does.
    """
    root = run_root(tmp_path_factory)
    # The run's own id too: a --basetemp given again is not cleared before the workers start.
    name = f"{name}-{os.environ.get('PYTEST_XDIST_TESTRUNUID', 'main')}"
    folder, done, failed = root / name, root / f"{name}.done", root / f"{name}.failed"
    try:
        (root / f"{name}.lock").mkdir()
    except FileExistsError:
        deadline = time.monotonic() + WAIT
        while not done.exists():
            if failed.exists():
                pytest.fail(f"building {name} failed in another worker:\n{failed.read_text()}")
            if time.monotonic() > deadline:
                pytest.fail(f"building {name} took more than {WAIT:.0f} s in another worker")
            time.sleep(0.2)  # a condition polled: another process writes the marker
        return folder
    try:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        build(folder)
    except BaseException:
        failed.write_text(traceback.format_exc(), encoding="utf-8")
        raise
    done.touch()
    return folder
