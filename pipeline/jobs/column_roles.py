"""``--column NAME=ROLE`` checked when a command's options are read, before any file is: the
crosstable reader's own parsing, so that the options and the reader cannot disagree."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.readers.events.crosstable_columns import parse_overrides


def check_column_roles(specs: Sequence[str]) -> None:
    """Raise :class:`~pipeline.errors.UsageError` for a spec that is not ``NAME=ROLE`` with a
    known role (the message names the spec and the roles)."""
    parse_overrides(specs)
