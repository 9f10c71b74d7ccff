"""The keys of the site's pages that need no rendering to be known unchanged: a digest of
everything a page is made from (its lists' rows and the code that renders them), kept in the
site folder's manifest by :mod:`.static_site`. A refresh after one more month then renders no
old month's list page and writes no old month's downloads (the XLSX alone is seconds a month
at 50,000 players), where comparing bytes would have to make them first.

A key is made from the decoded rows, not from the database's content ids: a manifest written
from another history with the same ids must not pass for this one's.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
# The code a page's bytes are made by: the site's modules, templates and assets, and the
# writers and list columns of the downloads. A change to any of them renders every page anew.
CODE = (HERE, HERE.parent / "writers", HERE.parent / "lists", HERE.parent / "web" / "static")


@lru_cache(maxsize=1)
def code_digest() -> str:
    digest = hashlib.sha256()
    for folder in CODE:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix in (".py", ".html", ".css", ".js"):
                digest.update(path.relative_to(HERE.parent).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def frame_digest(frame: pd.DataFrame) -> str:
    """A digest of ``frame``'s columns, types and rows (pandas' row hashes, column-wise)."""
    digest = hashlib.sha256(repr([(str(c), str(t)) for c, t in frame.dtypes.items()]).encode())
    digest.update(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
    return digest.hexdigest()


def page_key(*parts: str) -> str:
    """One key of a page's parts and the code: equal keys, equal bytes."""
    return hashlib.sha256("\n".join((code_digest(), *parts)).encode()).hexdigest()
