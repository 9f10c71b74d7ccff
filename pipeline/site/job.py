"""``fiderate site``: the rating site of a history database written as static files (the
pages of :mod:`pipeline.site`), rewriting only the files that changed since the last write.
The database is only read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import RunError
from pipeline.history.database import translate
from pipeline.site.history_data import SiteData
from pipeline.site.month_workers import default_jobs
from pipeline.site.static_site import WrittenSite, write_site

# The decoded lists the writer keeps: a list month's page reads its list and the one before.
LISTS_KEPT = 3


@dataclass(frozen=True)
class SiteRequest:
    database: Path  # the history database written by ``fiderate period``
    out: Path  # the site's folder (created when missing)
    # The processes the write may use (None: the machine's cores, at most
    # month_workers.MAX_PROCESSES); 1 writes in this process alone.
    jobs: int | None = None


@dataclass(frozen=True)
class SiteResult:
    out: Path
    kinds: tuple[str, ...]
    months: int
    written: list[str]  # addresses written, new or changed
    unchanged: int
    removed: list[str]
    bytes_written: int
    workers: int  # the worker processes that made list months (0: none was worth starting)


def run_site(request: SiteRequest) -> SiteResult:
    import sqlite3

    data = SiteData.open(request.database, lists_kept=LISTS_KEPT)
    try:
        jobs = request.jobs if request.jobs is not None else default_jobs()
        done: WrittenSite = write_site(data, request.out, jobs)
    except sqlite3.Error as exc:
        raise translate(request.database, exc) from None
    except OSError as exc:  # the folder cannot be written (permissions, a full disk)
        where = exc.filename or request.out
        raise RunError(
            f"the site cannot be written to {str(where)!r}: {exc.strerror or exc}; the files "
            "written before it are complete, the others as they were: give --out a folder you "
            "can write to, then run it again (only what is missing or changed is written)"
        ) from None
    finally:
        data.close()
    return SiteResult(
        request.out,
        data.kinds(),
        sum(len(months) for months in data.months.values()),
        done.written,
        done.unchanged,
        done.removed,
        done.bytes_written,
        done.workers,
    )
