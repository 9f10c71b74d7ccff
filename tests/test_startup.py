"""Start-up of the small commands (issue 13): ``calc``, ``table``, ``performance``, ``--help`` and
``--version`` run in a fresh process without importing pandas, pandera, pyarrow or matplotlib
(each costs from a tenth of a second to a second before the first line is printed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

HEAVY = ("pandas", "pandera", "pyarrow", "matplotlib", "openpyxl", "dask")

CODE = """
import json, sys
from pipeline.cli import cli
try:
    cli.main(ARGS, prog_name="fiderate", standalone_mode=False)
except SystemExit:
    pass
print(json.dumps(sorted(m for m in HEAVY if m in sys.modules)), file=sys.stderr)
"""

COMMANDS = [
    ["calc", "1650", "--vs", "1800:1", "--vs", "1500:0.5"],
    ["calc", "1650", "--vs", "1800", "--json"],
    ["calc", "2100", "--vs", "1800:1", "--vs", "2000:0", "--mode", "sequential", "--junior"],
    ["table", "--k", "40"],
    ["table", "--json", "--cap"],
    ["performance", "--vs", "1800:1", "--vs", "1900:0.5"],
    ["--help"],
    ["--version"],
    ["calc", "--help"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_small_commands_import_no_heavy_library(args):
    code = CODE.replace("ARGS", repr(args)).replace("HEAVY", repr(HEAVY))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()  # the command printed its answer
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    assert loaded == []


def test_the_public_api_still_imports_by_name():
    code = (
        "import sys, pipeline; assert 'pandas' not in sys.modules; "
        "from pipeline import rate_inputs, RateOptions, write_outputs, RULE_SETS; "
        "print('pandas' in sys.modules, callable(rate_inputs), sorted(RULE_SETS)[:1])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:2] == ["True", "True"]
    import pipeline

    assert set(pipeline.__all__) <= set(dir(pipeline))
    with pytest.raises(AttributeError):
        pipeline.no_such_name  # noqa: B018


def test_a_quiet_rate_never_loads_rich(tmp_path):
    """rich draws the summary table and the progress spinner; a run told to print nothing
    (--quiet) draws neither, so it does not pay rich's import (about 0.06 s of a one-event run).
    The same run without --quiet prints its summary through rich."""
    code = """
import json, sys
from pipeline.cli import cli
try:
    cli.main(ARGS, prog_name="fiderate", standalone_mode=False)
except SystemExit:
    pass
print(json.dumps("rich" in sys.modules), file=sys.stderr)
"""
    for quiet, expected in ((["--quiet"], False), ([], True)):
        out = tmp_path / f"out{len(quiet)}"
        args = ["rate", "sample_data/event.trf", "--out", str(out), *quiet]
        done = subprocess.run(
            [sys.executable, "-c", code.replace("ARGS", repr(args))],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert done.returncode == 0, done.stderr
        assert (out / "rating_list.csv").is_file()
        assert json.loads(done.stderr.strip().splitlines()[-1]) is expected, quiet
