"""``--earlier-list YYYY-MM=PATH``: the list in force in a month before the period, for an event
that started then (rated with the list in force when it started, RULES.md section 6).

A list given here is read like ``--list``, recorded in the history as the list in force in that
month (kind ``input``), and so serves later runs too. If the history already holds a different
list for the month, the run stops: one month has one list in force.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from pipeline.errors import Code, InputError, Problem, RunError
from pipeline.history import store as history
from pipeline.model import EarlierList
from pipeline.readers.lists.published_list import read_list
from pipeline.resources.file_hash import sha256_of
from pipeline.rules.rating_kinds import kind_of_rules
from pipeline.rules.sets import DEFAULT_RULES

MONTH = re.compile(r"\d{4}-(0[1-9]|1[0-2])")


def parse_spec(spec: str) -> tuple[str, Path]:
    """``2026-10=lists/oct.csv`` -> (``2026-10``, path); a usage error names the fix."""
    month, sep, path = spec.partition("=")
    if not sep or not MONTH.fullmatch(month.strip()) or not path.strip():
        raise RunError(
            f"--earlier-list must be YYYY-MM=PATH, e.g. 2026-10=list_2026-10.csv (got {spec!r})"
        )
    return month.strip(), Path(path.strip())


def read_earlier_lists(
    specs: Sequence[tuple[str, Path]],
    period: str,
    con: sqlite3.Connection | None,
    replaced: int | None,
    rules: str | None = None,
) -> dict[str, EarlierList]:
    """Read every earlier list (all problems at once) and check it against the history.
    ``rules``: as for the list in force (a FIDE combined list's column by the run's rules)."""
    problems: list[Problem] = []
    found: dict[str, EarlierList] = {}
    for month, path in specs:
        where = {"file": str(path), "value": f"{month}={path}"}
        if month >= period:
            problems.append(
                Problem(
                    Code.BAD_OPTION,
                    f"--earlier-list {month} is not before period {period}",
                    fix=f"give lists of months before {period}; the period's own list is --list",
                    **where,  # type: ignore[arg-type]
                )
            )
            continue
        if month in found:
            problems.append(
                Problem(
                    Code.BAD_OPTION,
                    f"two --earlier-list options for {month}",
                    fix="give one list per month",
                    **where,  # type: ignore[arg-type]
                )
            )
            continue
        if not path.is_file():
            problems.append(
                Problem(
                    Code.NOT_A_TABLE,
                    "the list file does not exist",
                    fix="check the path given to --earlier-list",
                    **where,  # type: ignore[arg-type]
                )
            )
            continue
        try:
            players = read_list(path, rules)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        sha = sha256_of(path)
        held = (
            history.live_list_sha(con, month, replaced, kind_of_rules(rules or DEFAULT_RULES))
            if con is not None
            else None
        )
        if held is not None and held[1] != sha:
            problems.append(
                Problem(
                    Code.LIST_CONFLICT,
                    f"the history already holds a different list in force in {month} ({held[0]})",
                    fix=f"leave out --earlier-list {month}=...: the history's list is used",
                    **where,  # type: ignore[arg-type]
                )
            )
            continue
        found[month] = EarlierList(month, path, sha, players)
    if problems:
        raise InputError(problems)
    return found
