"""Fixtures of the web tests: the real server (``fiderate serve`` in a process of its own, on a
free port), shared by a test module. The headless Chromium the browser tests drive is the run's
(tests/conftest.py's ``browser``, tests/browser.py)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def local_client(app, **options):
    """Starlette's TestClient for ``app``, sending ``Host: 127.0.0.1`` as a browser on this
    computer does (its default, ``testserver``, is a host the server refuses)."""
    from starlette.testclient import TestClient

    return TestClient(app, base_url="http://127.0.0.1", **options)


@pytest.fixture(scope="module")
def client():
    """The app in this process, as a browser on this computer reaches it (one per module)."""
    from pipeline.web.app import create_app

    with local_client(create_app(), raise_server_exceptions=False) as c:
        yield c


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``fiderate serve`` running in a subprocess; ``url`` is its address."""

    def __init__(self, *args: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pipeline", "serve", "--port", str(self.port), *args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"fiderate serve did not start: {self.process.stderr.read()}")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()


@pytest.fixture(scope="module")
def history_db(tmp_path_factory) -> Path:
    """The README's period run on the sample: a history database of two lists and one pending
    first-rating result."""
    work = tmp_path_factory.mktemp("history")
    shutil.copytree(ROOT / "sample_data", work / "sample_data")
    subprocess.run(
        [
            sys.executable, "-m", "pipeline", "period",
            "--list", "sample_data/period/list_2026-11.csv",
            "--events", "sample_data/period/events",
            "--period", "2026-11", "--out", "period_out", "--quiet",
        ],
        cwd=work,
        check=True,
    )  # fmt: skip
    return work / "period_out" / "ratings.db"


@pytest.fixture(scope="module")
def server(history_db):
    running = Server("--history", str(history_db))
    yield running
    running.stop()
