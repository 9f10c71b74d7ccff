"""Command line: ``fiderate``. Only this package imports click.

Each command parses options, calls one library function and turns domain errors into exit codes:
1 = bad input or failed run (message on stderr, no traceback unless --debug), 2 = usage.
"""

from __future__ import annotations

import os
import sys

# The commands are imported on first use (group.COMMANDS): `fiderate rate` loads rate's alone.
from pipeline.cli.group import cli
from pipeline.resources.collector import hold_for_start_up

__all__ = ["cli", "main"]


def main() -> None:
    """The ``fiderate`` program (a process of its own, unlike the tests' CliRunner)."""
    # pandera imports hypothesis when it is installed (a dev tool: its data-synthesis strategies)
    # on its first validation: 0.4-0.8 s of a one-event run. A command never synthesises data,
    # so the program marks it absent and pandera takes its own no-hypothesis path.
    sys.modules.setdefault("hypothesis", None)  # type: ignore[arg-type]
    # pandera also looks for geopandas (an optional back-end) whenever it meets a column type
    # it does not know by name: 80-odd failed imports a one-event run, each a search of
    # sys.path (10-20 ms in all). No schema here has a geometry column, so the program marks
    # it absent too: the import fails at once, as where geopandas is not installed.
    sys.modules.setdefault("geopandas", None)  # type: ignore[arg-type]
    # No cyclic collection while the command imports what it runs on (pandas, pyarrow,
    # pandera: objects that live as long as the process); fewer, larger passes after
    # (pipeline.resources.collector says why and how).
    hold_for_start_up()
    try:
        cli(prog_name="fiderate")  # click ends every run, success included, with SystemExit
    except SystemExit as done:
        status = exit_status(done.code)
    else:
        status = 0
    # Every file is written, renamed and closed, every thread joined and every cluster shut down
    # by the time a command returns (each is a context manager inside it). What is left is the
    # interpreter's teardown: freeing the run's tables object by object, 0.2-0.6 s after a
    # 1 M-game run, for memory the system takes back at once. So the program leaves as mypy's
    # does (its fast exit): flush the streams, then end the process.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`fiderate ... | head`) or stream
            pass
    os._exit(status)


def exit_status(code: object) -> int:
    """The process status ``sys.exit(code)`` gives: None is 0, an int is itself, anything else
    is printed to stderr and gives 1 (as the interpreter does for an uncaught SystemExit)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1
