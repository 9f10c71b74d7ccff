"""The keys of the site's pages that need no rendering to be known unchanged: a digest of
everything a page is made from (its lists' rows and the code that renders them), kept in the
site folder's manifest by :mod:`.static_site`. A refresh after one more month then renders no
old month's list page and writes no old month's downloads (the XLSX alone is seconds a month
at 50,000 players), nor an old period's calculation pages (:func:`period_digest`), where
comparing bytes would have to make them first.

A key is made from the rows, not from the database's content ids: a manifest written from
another history with the same ids must not pass for this one's. A list's rows are digested by
the sha256 the store keeps of them (:func:`list_digest`: the store's own key of a content, equal
sha, equal rows), so a refresh decodes no old list to know it unchanged; a list stored without
one (a history older than its column) is digested from its decoded rows.
"""

from __future__ import annotations

import hashlib
import sqlite3
from functools import lru_cache
from pathlib import Path

import pandas as pd

from pipeline.history.period_calculations import StoredPeriod

HERE = Path(__file__).parent
PIPELINE = HERE.parent
# The code a page's bytes are made by: the site's modules, templates and assets, the writers
# and list columns of the downloads, and what a calculation page reads and words (the history's
# job and store, the rules' words, the calculator's numbers as text). A change to any of them
# renders every page anew.
CODE = (HERE, PIPELINE / "writers", PIPELINE / "lists", PIPELINE / "web" / "static",
        PIPELINE / "history", PIPELINE / "rules", PIPELINE / "jobs" / "player_history.py",
        PIPELINE / "calculator" / "calc_text.py")  # fmt: skip


@lru_cache(maxsize=1)
def code_digest() -> str:
    digest = hashlib.sha256()
    for folder in CODE:
        for path in [folder] if folder.is_file() else sorted(folder.rglob("*")):
            if path.is_file() and path.suffix in (".py", ".html", ".css", ".js", ".csv"):
                digest.update(path.relative_to(HERE.parent).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def frame_digest(frame: pd.DataFrame) -> str:
    """A digest of ``frame``'s columns, types and rows (pandas' row hashes, column-wise)."""
    digest = hashlib.sha256(repr([(str(c), str(t)) for c, t in frame.dtypes.items()]).encode())
    digest.update(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
    return digest.hexdigest()


def list_digest(con: sqlite3.Connection, content_id: int) -> str | None:
    """The digest of the list stored as ``content_id``: the sha256 of its rows as the store
    keeps them (:func:`pipeline.history.list_contents.content_sha`), None when it has none
    (then :func:`frame_digest` of its decoded rows is the digest)."""
    found = con.execute("SELECT sha256 FROM list_contents WHERE id = ?", (content_id,)).fetchone()
    return None if found is None or found[0] is None else "rows " + str(found[0])


def period_digest(
    con: sqlite3.Connection, stored: StoredPeriod, changes: pd.DataFrame, names: str
) -> str:
    """A digest of what a period's calculation pages are made from: the period as stored (its
    kind, scale and rules), its rated games (the breakdown's blocks, as stored: equal bytes,
    equal rows), ``changes`` (the period's stored changes, every player's) and ``names`` (the
    digest of the list it published, where the players' and opponents' names come from). One
    digest a period: a period replaced (``--replace``) is another run, other games."""
    digest = hashlib.sha256(
        repr((stored.period, stored.rating_kind, stored.scale, stored.rules)).encode()
    )
    blocks = con.execute(
        "SELECT data FROM period_breakdown WHERE run_id = ? ORDER BY last_id, first_id, rowid",
        (stored.run_id,),
    )
    for (data,) in blocks:
        digest.update(hashlib.sha256(data).digest())
    digest.update(frame_digest(changes.reset_index(drop=True)).encode())
    digest.update(names.encode())
    return digest.hexdigest()


def page_key(*parts: str) -> str:
    """One key of a page's parts and the code: equal keys, equal bytes."""
    return hashlib.sha256("\n".join((code_digest(), *parts)).encode()).hexdigest()
