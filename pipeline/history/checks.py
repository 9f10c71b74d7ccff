"""Before a ``fiderate period`` run rates anything: what the history store allows (an event is
rated once, a published period only with --replace) and what it says about the inputs."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from pipeline.errors import Code, HistoryRefusal, Problem
from pipeline.history import store as history
from pipeline.model import EventFile
from pipeline.rules.months import add_months
from pipeline.rules.rating_kinds import DEFAULT_KIND


def same_inputs(a: list[dict[str, str]], b: list[dict[str, str]]) -> bool:
    return sorted((i["role"], i["sha256"]) for i in a) == sorted(
        (i["role"], i["sha256"]) for i in b
    )


def check_history(
    con: sqlite3.Connection | None,
    period: str,
    files: Sequence[EventFile],
    replace: bool,
    database: Path | str = "",
    rating_kind: str = DEFAULT_KIND,
) -> int | None:
    """Refuse an event already rated (in any kind of list: a game is rated for one list) and a
    period whose list of this kind is already published (unless --replace). Returns the run
    being replaced, if any."""
    if con is None:
        return None
    problems = []
    published = history.published_run(con, period, rating_kind)
    latest = history.latest_published_period(con, rating_kind)
    replaced = None
    if published is not None:
        if not replace:
            problems.append(
                Problem(
                    Code.PERIOD_PUBLISHED,
                    f"period {period} was already published by run #{published.run_id} "
                    f"({rating_kind} list); nothing was changed",
                    file=str(database),
                    fix="use --replace to rate it again (the old list is kept, marked superseded)",
                )
            )
        else:
            replaced = published.run_id
    if latest is not None and latest > period:
        problems.append(
            run_order_problem(period, latest, database, published is not None, rating_kind)
        )
    live = history.rated_events(con, [f.sha256 for f in files])
    for f in files:
        if f.sha256 in live:
            path, rated_in, rated_kind = live[f.sha256]
            if rated_in == period and rated_kind == rating_kind and published is not None:
                continue  # it belongs to the published period: replaced, or refused above
            problems.append(
                Problem(
                    Code.ALREADY_RATED,
                    f"this event was already rated in period {rated_in}"
                    + ("" if rated_kind == rating_kind else f" for the {rated_kind} list")
                    + f" (from {path!r}); an event cannot be rated twice",
                    file=str(f.path),
                    fix="remove it from --events",
                )
            )
    if problems:
        raise HistoryRefusal(problems)
    return replaced


def run_order_problem(
    period: str,
    latest: str,
    database: Path | str,
    was_published: bool,
    rating_kind: str = DEFAULT_KIND,
) -> Problem:
    """Period ``period`` asked for once ``latest``, a later one, is published: a question of the
    order of the runs, not of the input (each list is computed from the one before it, so an
    earlier period cannot change under a list already published)."""
    action = "replaced" if was_published else "rated"
    return Problem(
        Code.RUN_ORDER,
        f"period {latest} is already published, so period {period} can no longer be {action}: "
        f"each list is computed from the one before it, and this history's {rating_kind} lists "
        f"go up to {latest}",
        file=str(database),
        fix=f"rate the next period ({add_months(latest, 1)}) instead; a game of {period} left "
        "out goes in as an event of that next period. To publish the periods again from "
        f"{period}, use a copy of the history saved before {latest} was published, or a new "
        "--db",
    )


def list_notes(
    con: sqlite3.Connection | None, period: str, list_sha: str, rating_kind: str = DEFAULT_KIND
) -> list[str]:
    """A warning when --list is not the list of this kind the database published for the
    period."""
    published = history.published_list_file(con, period, rating_kind) if con is not None else None
    if published is None or published[1] == list_sha:
        return []
    return [
        f"the list given is not the {period} list this database published ({published[0]}); "
        "ratings are taken from the list given"
    ]


def check_out_folder(
    con: sqlite3.Connection | None, out_dir: Path, rating_kind: str, database: Path | str = ""
) -> None:
    """Refuse an --out folder where the history published another kind of list: the files carry
    the month, not the kind (``rating_list_2026-12.csv``), so this run's would replace that
    kind's, which its next run starts from."""
    if con is None:
        return
    here = out_dir.resolve()
    rows = con.execute(
        "SELECT rating_kind, source FROM lists WHERE kind = 'published' AND superseded = 0 "
        "AND rating_kind != ? ORDER BY id DESC",
        (rating_kind,),
    ).fetchall()
    other = next((kind for kind, source in rows if Path(source).parent.resolve() == here), None)
    if other is not None:
        raise HistoryRefusal(
            [
                Problem(
                    Code.OUTPUT_REPLACES_INPUT,
                    f"{out_dir} holds the {other} lists this history published; the "
                    f"{rating_kind} list would replace them (the files are named by month only)",
                    file=str(database),
                    value=str(out_dir),
                    fix=f"give the {rating_kind} lists a folder of their own (--out), with "
                    "--db naming this history: one history holds the three kinds",
                )
            ]
        )
