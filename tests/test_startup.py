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


COMMAND_MODULES = """
import json, sys
from pipeline.cli import cli
try:
    cli.main(ARGS, prog_name="fiderate", standalone_mode=False)
except SystemExit:
    pass
loaded = sorted(m for m in sys.modules if m.startswith("pipeline.cli.") or m in CALCULATOR)
print(json.dumps(loaded), file=sys.stderr)
"""

# Each command's own module, and the calculator the small commands run (70 ms of imports).
COMMAND_NAMES = (
    "calc convert history norms performance period rate serve site table validate".split()
)
CALCULATOR = ("pipeline.calculator.calc", "pipeline.jobs.calculators")


def test_a_command_imports_its_own_module_only(tmp_path):
    """``fiderate rate`` loads rate's module and the helpers every command shares (the group,
    the options, the console), never another command's module nor the calculator: each command
    is imported when it runs (the group's lazy commands). ``fiderate --help`` imports them all,
    to list each with its help."""
    args = ["rate", "sample_data/event.trf", "--out", str(tmp_path / "out"), "--quiet"]
    code = COMMAND_MODULES.replace("ARGS", repr(args)).replace("CALCULATOR", repr(CALCULATOR))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    commands = {m.removeprefix("pipeline.cli.") for m in loaded} & set(COMMAND_NAMES)
    assert commands == {"rate"}
    assert not set(loaded) & set(CALCULATOR)


def test_help_lists_every_command_with_its_help():
    """The lazy commands are still listed by ``fiderate --help``, each with the first line of
    its docstring (click's short help)."""
    from pipeline.cli import cli
    from tests.conftest import run_cli

    result = run_cli("--help")
    assert result.exit_code == 0, result.stderr
    listed = {
        line.split()[0]: line.split(None, 1)[1]
        for line in result.stdout.split("Commands:", 1)[1].splitlines()
        if line.strip()
    }
    assert sorted(listed) == sorted(COMMAND_NAMES)
    for name in COMMAND_NAMES:
        command = cli.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None and command.help
        first_words = " ".join(command.help.split()[:3])
        assert listed[name].startswith(first_words), (name, listed[name])


def test_the_program_never_searches_for_pandera_s_optional_packages(tmp_path):
    """pandera looks for hypothesis on its first validation and for geopandas whenever it
    meets a column type it does not know by name (80-odd times a one-event run): each failed
    import is a search of sys.path. The program (``main``) marks both absent, so a ``rate``
    run imports neither, nor searches for them (``-X importtime`` lists each search, failed
    or not)."""
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pipeline", "rate", "sample_data/event.trf"]
        + ["--out", str(out), "--quiet"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert (out / "report.html").is_file()
    imported = [
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    ]
    assert "pandera" in imported
    # ``geopandas.array`` is still asked for (and listed), but its package is never searched.
    assert not [m for m in imported if m in ("geopandas", "hypothesis")]
