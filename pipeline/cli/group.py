"""The ``fiderate`` click group: turns library errors into clean messages and exit codes
(1 = bad input or failed run, 2 = usage, 75 = another run holds the history; no traceback
unless --debug). A command run with
``--json`` also gets its error as JSON on stdout, where a script reads its summary."""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Callable
from importlib import import_module
from typing import Any, TypeVar

import click

from pipeline.errors import (
    FiderateError,
    InputError,
    Problem,
    UsageError,
    format_problems,
    printable,
    problems_listed,
)

F = TypeVar("F", bound=Callable[..., Any])


# Each command lives in the module of its name (``pipeline.cli.rate`` defines ``rate``) and is
# imported when it runs, or when ``--help`` lists it: ``fiderate rate`` does not import the
# calculator behind ``calc`` and ``table`` (70 ms), nor ``fiderate calc`` the rate job.
COMMANDS = (
    "calc",
    "convert",
    "history",
    "norms",
    "performance",
    "period",
    "rate",
    "serve",
    "site",
    "table",
    "validate",
)


class FiderateGroup(click.Group):
    """Turns library errors into clean messages and exit codes; imports each command of
    :data:`COMMANDS` on first use (click's lazy group)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            command = getattr(import_module(f"pipeline.cli.{cmd_name}"), cmd_name)
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as exc:
            click.echo(f"error: {exc.headline}\n{format_problems(exc.problems)}", err=True)
            for message in exc.warnings:  # what the files also say, stopping nothing
                click.echo(f"warning: {printable(message)}", err=True)
            _json_error(ctx, exc.headline, exc.problems)
            _maybe_traceback(ctx)
            ctx.exit(exc.exit_code)  # 1, or 75 when another run holds the history
        except UsageError as exc:
            click.echo(f"error: {printable(str(exc))}", err=True)
            _json_error(ctx, str(exc))
            _maybe_traceback(ctx)
            ctx.exit(2)
        except FiderateError as exc:
            click.echo(f"error: {printable(str(exc))}", err=True)
            _json_error(ctx, str(exc))
            _maybe_traceback(ctx)
            ctx.exit(1)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:
            # The reader of stdout went away (`fiderate ... | head`): what was to be written is
            # written; only the rest of the printout is lost. Quiet, like a tool killed by SIGPIPE.
            _silence_stdout()
            ctx.exit(141)
        except KeyboardInterrupt:
            click.echo("interrupted: nothing was written", err=True)
            ctx.exit(130)
        except Exception as exc:  # noqa: BLE001 - the last line of defence for users
            if ctx.obj and ctx.obj.get("debug"):
                raise
            click.echo(
                f"error: internal error ({type(exc).__name__}: {printable(str(exc))}). "
                "Nothing was written. "
                "Run again with --debug for the traceback and please report it.",
                err=True,
            )
            ctx.exit(1)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that Python's flush at exit raises no second BrokenPipeError."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (e.g. under a test runner)
        pass


def _remember_json(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    """Callback of a command's ``--json`` flag: the group's error handler then answers in JSON
    too (the command's own context is gone by the time an error reaches the group)."""
    root = ctx.find_root()
    root.ensure_object(dict)
    root.obj["json"] = value
    return value


def json_flag(help_text: str) -> Callable[[F], F]:
    """A command's ``--json`` flag (parameter ``as_json``), remembered for the error handler."""
    return click.option("--json", "as_json", is_flag=True, callback=_remember_json, help=help_text)


def _json_error(ctx: click.Context, error: str, problems: list[Problem] | None = None) -> None:
    """``{"error": ..., "problems": [...]}`` on stdout for a command run with ``--json``: the
    problems as ``fiderate validate --json`` lists them. The text stays on stderr."""
    if ctx.obj and ctx.obj.get("json"):
        listed = problems_listed(problems or [])
        click.echo(json.dumps({"error": error, "problems": listed}, ensure_ascii=False, indent=1))


def _maybe_traceback(ctx: click.Context) -> None:
    if ctx.obj and ctx.obj.get("debug"):
        traceback.print_exc(file=sys.stderr)


@click.group(cls=FiderateGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
@click.version_option(package_name="fiderate", prog_name="fiderate")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Rate chess events exactly the way FIDE does."""
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug
