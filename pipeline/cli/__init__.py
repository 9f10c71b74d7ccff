"""Command line: ``fiderate``. Only this package imports click.

Each command parses options, calls one library function and turns domain errors into exit codes:
1 = bad input or failed run (message on stderr, no traceback unless --debug), 2 = usage.
"""

from __future__ import annotations

import sys
import traceback
from typing import Any

import click

from pipeline.errors import FiderateError, InputError, format_problems


class FiderateGroup(click.Group):
    """Turns library errors into clean messages and exit codes."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as exc:
            click.echo(f"error: {exc.headline}\n{format_problems(exc.problems)}", err=True)
            _maybe_traceback(ctx)
            ctx.exit(1)
        except FiderateError as exc:
            click.echo(f"error: {exc}", err=True)
            _maybe_traceback(ctx)
            ctx.exit(1)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted: nothing was written", err=True)
            ctx.exit(130)
        except Exception as exc:  # noqa: BLE001 - the last line of defence for users
            if ctx.obj and ctx.obj.get("debug"):
                raise
            click.echo(
                f"error: internal error ({type(exc).__name__}: {exc}). Nothing was written. "
                "Run again with --debug for the traceback and please report it.",
                err=True,
            )
            ctx.exit(1)


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


# Commands live in their own modules and register themselves on `cli`.
from pipeline.cli import calc as _calc  # noqa: E402,F401
from pipeline.cli import convert as _convert  # noqa: E402,F401
from pipeline.cli import history as _history  # noqa: E402,F401
from pipeline.cli import performance as _performance  # noqa: E402,F401
from pipeline.cli import period as _period  # noqa: E402,F401
from pipeline.cli import rate as _rate  # noqa: E402,F401
from pipeline.cli import table as _table  # noqa: E402,F401
from pipeline.cli import validate as _validate  # noqa: E402,F401


def main() -> None:
    cli(prog_name="fiderate")
