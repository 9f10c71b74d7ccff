"""FIDE rating-list downloads as the players list: TXT (fixed width) and XML, plain or zipped.

Layouts: ../shared/fide/RATING_LISTS.md. The full combined list has about 1.9 million players, so
neither layout is ever held as Python objects per cell: the TXT file is sliced column by column
with Arrow string kernels on one buffer of lines, and the XML file is streamed with lxml's
``iterparse`` (only ``<player>`` elements reach Python, each cleared after use), in chunks.

Both layouts become a :class:`RawTable` of text cells with the players-file column names, and
then go through the same :func:`pipeline.readers.lists.players_file.parse_players` as a CSV
players file: one implementation of every check (bad-rating, bad-id, duplicate-player, ...).

Mapping decisions (docs/formats.md, "FIDE rating lists as downloaded"):
- The rating, K and games columns are those of the rule set's ``list_column``
  (standard/rapid/blitz). A single-type list has one of each.
- K: the published K; ``0`` (what the list prints for unrated players) means none.
- The list's games column counts games IN THE LAST PERIOD, not games completed, so it is NOT the
  players frame's ``games`` (which drives the "fewer than 30 games" K rule); it is kept as
  ``period_games``. ``games`` stays blank, which the K precedence reads as "established"; the
  published K is used before that rule anyway.
- ``ever_2400``: true when the chosen rating is 2400+ or the list prints K 10 for it (the K only a
  published 2400 gives). A GM or IM title alone is not proof: the title's 2400 need not have been
  a published rating (B.01 1.5.3a).
- Rapid/blitz from a combined list: a player with no rapid (blitz) rating but a standard one is
  rated with the standard rating (Rapid & Blitz Rating Regulations 7.2.1).
- Birth year ``0`` means unknown; ``flag`` (``i`` inactive, ``w`` woman) is kept as given.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.arrays.arrow_text import factorize_text
from pipeline.errors import Code, InputError, Problem
from pipeline.model import PlayerList
from pipeline.problem_list import ProblemList
from pipeline.readers import limits
from pipeline.readers.limits import Source
from pipeline.readers.lists.fide_list_columns import LIST_TYPES, STANDARD_FALLBACK
from pipeline.readers.lists.fide_list_txt import read_txt
from pipeline.readers.lists.fide_list_xml import read_xml
from pipeline.readers.lists.players_file import parse_players
from pipeline.readers.tables import cells
from pipeline.readers.tables.tabular import RawTable
from pipeline.rules.ever_2400 import published_k_proves_2400
from pipeline.rules.sets import KPrecedence

# A rating of at least this once makes ever_2400 true (the K precedence's threshold).
EVER_THRESHOLD = KPrecedence().ever_threshold

_TXT_HEAD = re.compile(rb"^\s*ID[ _]?Number\s+Name\s", re.IGNORECASE)
_XML_DTD = re.compile(rb"^\s*(<\?xml[^>]*\?>\s*)?(<!--.*?-->\s*)*<!DOCTYPE\s", re.DOTALL)
_XML_HEAD = re.compile(rb"^\s*(<\?xml[^>]*\?>\s*)?(<!--.*?-->\s*)*<playerslist[\s>/]", re.DOTALL)


@dataclass(frozen=True)
class ListFile:
    layout: str  # "txt" or "xml"
    member: str | None = None  # the file inside a .zip


def sniff(path: Source) -> ListFile | None:
    """A FIDE list (by its first bytes: the TXT header line or the ``<playerslist>`` root)?"""
    head = limits.input_head(path, 4096)
    if head.startswith(b"PK\x03\x04"):
        return _sniff_zip(path)
    layout = _layout(head)
    return ListFile(layout) if layout else None


def _layout(head: bytes) -> str | None:
    head = head.removeprefix(b"\xef\xbb\xbf")
    if _TXT_HEAD.match(head):
        return "txt"
    if _XML_HEAD.match(head) or _XML_DTD.match(head):
        return "xml"  # a DOCTYPE is refused by the XML reader, with its own message
    return None


def _sniff_zip(path: Source) -> ListFile | None:
    try:
        with limits.open_input(path) as raw, zipfile.ZipFile(raw) as archive:
            names = [n for n in archive.namelist() if not n.endswith("/")]
            if "[Content_Types].xml" in names:  # a workbook, not a list
                return None
            for name in names:
                if name.lower().endswith((".txt", ".xml")):
                    with archive.open(name) as fh:
                        layout = _layout(fh.read(4096))
                    if layout:
                        return ListFile(layout, name)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError, zlib.error):
        return None
    return None


def read_fide_list(path: Source, found: ListFile, list_column: str = "standard") -> PlayerList:
    """Read a FIDE list (``found`` from :func:`sniff`) choosing the ``list_column`` ratings."""
    source = str(path)
    problems = ProblemList()
    try:
        if found.member is None:
            if found.layout == "txt":
                table, list_type = read_txt(limits.read_input(path), source, list_column)
            else:
                with limits.open_input(path) as fh:
                    table, list_type = read_xml(fh, source, list_column)
        else:
            # Bounded: a 3 MB zip may declare (or, lying, inflate to) gigabytes.
            limits.check_zip(path, source)
            with (
                limits.open_input(path) as raw,
                zipfile.ZipFile(raw) as archive,
                archive.open(found.member) as member,
            ):
                capped = limits.CappedStream(member, source)
                if found.layout == "txt":
                    table, list_type = read_txt(capped.read(), source, list_column)
                else:
                    table, list_type = read_xml(capped, source, list_column)  # type: ignore[arg-type]
    except (zipfile.BadZipFile, EOFError, OSError, zlib.error) as exc:
        raise InputError(
            [
                Problem(
                    Code.NOT_A_TABLE,
                    f"cannot read the zipped list ({type(exc).__name__}: {exc})",
                    file=source,
                    fix="download the list again",
                )
            ]
        ) from None
    _check_list_type(found.member or path.name, str(path), list_type, list_column, problems)
    players = players_from_list(table, problems, list_type)
    problems.raise_if_any()
    return players


def players_from_list(table: RawTable, problems: ProblemList, list_type: str) -> PlayerList:
    """Text cells of a list (column names from :data:`COMMON` and :data:`TYPED`) -> players."""
    frame = table.frame
    raw_rating = standard_fallback(frame)
    # Both tests below are functions of the cell's text: each distinct cell tested once.
    codes, ratings = factorize_text(raw_rating)
    rating_number = ratings.where(ratings.str.fullmatch(r"[0-9]{1,4}")).astype("Int64")
    ever = rating_number.ge(EVER_THRESHOLD).fillna(False).to_numpy(dtype=bool)[codes]
    # A printed K 10 proves a published 2400 (a GM/IM title alone does not: B.01 1.5.3a).
    codes, printed_k = factorize_text(frame["k"])
    ever |= published_k_proves_2400(printed_k, KPrecedence())[codes]
    parsed = RawTable(
        pd.DataFrame(
            {
                "id": frame["id"],
                "name": frame["name"],
                "rating": raw_rating,
                # The list prints K 0 for players without a rating: no published K.
                "k": frame["k"].mask(frame["k"].eq("0"), ""),
                "birth_year": frame["birth_year"],
                "ever_2400": np.where(ever, "true", "false"),
                "federation": frame["federation"],
                # One title column for reports: the open title, else the women's title.
                "title": frame["title"].where(frame["title"].ne(""), frame["w_title"]),
                "sex": frame["sex"],
            }
        ),
        table.rows,
        table.source,
    )
    _check_fide_ids(parsed, problems)
    players = parse_players(parsed, problems).players
    players["period_games"] = cells.parse_int(
        problems, table, "period_games", low=0, high=10_000, what="a number of games"
    )
    players["flag"] = frame["flag"].astype(str)
    players["w_title"] = frame["w_title"].astype(str)
    return PlayerList(table.source, players)


def standard_fallback(frame: pd.DataFrame) -> pd.Series:
    """The rating cells, where a rapid or blitz rating is missing (blank or 0) taken from the
    standard rating of the same combined list: Rapid & Blitz Rating Regulations 7.2.1, a player
    with no rapid (blitz) rating but a standard rating is rated with it and counts as rated."""
    rating = frame["rating"]
    if STANDARD_FALLBACK not in frame:
        return rating
    standard = frame[STANDARD_FALLBACK]
    missing = rating.str.strip().isin(["", "0"]) & ~standard.str.strip().isin(["", "0"])
    return rating.where(~missing, standard)


def _check_fide_ids(table: RawTable, problems: ProblemList) -> None:
    ids = table.frame["id"]
    bad = ids.ne("") & ~ids.str.fullmatch(r"[0-9]{1,12}")
    cells.report(
        problems,
        table,
        bad.to_numpy(),
        "id",
        Code.BAD_ID,
        "a FIDE id is a whole number",
        "correct the id (digits only)",
    )


def _check_list_type(
    name: str, source: str, list_type: str, wanted: str, problems: ProblemList
) -> None:
    """A single-type list names its type only in the file name (standard_rating_list.txt)."""
    if list_type != "single":
        return
    hinted = [t for t in LIST_TYPES if t in Path(name).name.lower()]
    if hinted and hinted[0] != wanted:
        problems.add(
            Code.MISSING_COLUMN,
            f"this is the {hinted[0]} list but the rule set rates {wanted} games",
            file=source,
            column="rating",
            fix=f"give the {wanted} list (or the combined list), or choose --rules {hinted[0]}",
        )
