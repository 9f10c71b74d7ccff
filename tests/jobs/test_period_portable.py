"""Portability (issue 26, item 5): arbiters mostly run Windows, where the Unix-only modules
(``resource``, ``fcntl``, ``termios``, ``pwd``, ``grp``...) do not exist. No module of fiderate
may import one when it is imported, and ``fiderate period`` must start and run without them.

Checked here, on any system, in a subprocess whose import system refuses those names (a meta-path
finder raising ImportError, as Windows' Python does): every module of ``pipeline`` and
``schemas`` is imported, then ``fiderate period --help`` and a small period run."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "period"

UNIX_ONLY = ("resource", "fcntl", "termios", "tty", "pty", "pwd", "grp", "syslog", "posix")

SCRIPT = textwrap.dedent(
    """
    import importlib, importlib.abc, pkgutil, sys

    BLOCKED = set(sys.argv[1].split(","))


    class UnixOnly(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name in BLOCKED:
                raise ImportError(f"No module named {name!r} (as on Windows)", name=name)
            return None


    sys.meta_path.insert(0, UnixOnly())
    for name in BLOCKED - {"posix"}:  # os itself is built on posix: only a new import is refused
        sys.modules.pop(name, None)
    import pipeline, schemas

    for package in (pipeline, schemas):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not module.name.endswith("__main__"):
                importlib.import_module(module.name)
    print("imported every module")
    from pipeline.cli import cli

    cli(sys.argv[2:], prog_name="fiderate", standalone_mode=True)
    """
)


def run_without_unix_modules(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, ",".join(UNIX_ONLY), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def test_every_module_imports_and_period_help_starts_without_unix_modules():
    result = run_without_unix_modules("period", "--help")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "imported every module" in result.stdout
    assert "--list" in result.stdout and "--db" in result.stdout


def test_a_period_runs_without_unix_modules(tmp_path):
    out = tmp_path / "out"
    result = run_without_unix_modules(
        "period",
        "--list",
        str(SAMPLE / "list_2026-11.csv"),
        "--events",
        str(SAMPLE / "events"),
        "--period",
        "2026-11",
        "--out",
        str(out),
        "-q",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (out / "rating_list_2026-12.csv").is_file() and (out / "ratings.db").is_file()
    assert "internal error" not in result.stderr
