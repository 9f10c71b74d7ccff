"""FIDE rating lists, XML layout: streamed with lxml's ``iterparse`` in chunks (only ``<player>``
elements reach Python, each cleared after use)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from typing import IO

import numpy as np
import pandas as pd

from pipeline.errors import Code
from pipeline.readers.lists.fide_list_columns import (
    COMMON,
    FAST_TYPES,
    STANDARD_FALLBACK,
    TYPED,
    ListTypeError,
    list_problem,
)
from pipeline.readers.tables.raw import RawTable

# XML child tag -> (list type, field); "main" = standard in the combined list, else the list's type.
XML_TAGS: dict[str, tuple[str | None, str]] = {
    "fideid": (None, "id"),
    "name": (None, "name"),
    "country": (None, "federation"),
    "sex": (None, "sex"),
    "title": (None, "title"),
    "w_title": (None, "w_title"),
    "o_title": (None, "o_title"),
    "foa_title": (None, "foa_title"),
    "rating": ("main", "rating"),
    "games": ("main", "period_games"),
    "k": ("main", "k"),
    "rapid_rating": ("rapid", "rating"),
    "rapid_games": ("rapid", "period_games"),
    "rapid_k": ("rapid", "k"),
    "blitz_rating": ("blitz", "rating"),
    "blitz_games": ("blitz", "period_games"),
    "blitz_k": ("blitz", "k"),
    "birthday": (None, "birth_year"),
    "flag": (None, "flag"),
}

XML_CHUNK = 100_000  # players converted to a frame at a time (bounds the Python objects alive)


class _DoctypeError(Exception):
    pass


def read_xml(stream: IO[bytes], source: str, list_column: str) -> tuple[RawTable, str]:
    from lxml import etree

    frames: list[pd.DataFrame] = []
    numbers: list[np.ndarray] = []
    list_type = list_column
    try:
        fields = COMMON + TYPED + ([STANDARD_FALLBACK] if list_column in FAST_TYPES else [])
        for frame, rows, chunk_type in _xml_chunks(stream, list_column, fields):
            frames.append(frame)
            numbers.append(rows)
            list_type = chunk_type
    except etree.XMLSyntaxError as exc:
        text = str(exc)
        encoding = "utf-8" in text.lower() or "encoding" in text.lower()
        raise list_problem(
            source,
            Code.BAD_ENCODING if encoding else Code.NOT_A_TABLE,
            f"the XML list is damaged: {text}",
            "download the list again (or unzip it again)",
            row=exc.lineno or None,
        ) from None
    except _DoctypeError:
        raise list_problem(
            source,
            Code.NOT_ALLOWED,
            "the XML list has a DOCTYPE (entity declarations): refused, never resolved",
            "download the list again from ratings.fide.com (FIDE lists have no DOCTYPE)",
        ) from None
    except ListTypeError as exc:
        raise list_problem(
            source,
            Code.MISSING_COLUMN,
            f"the list has no {exc.args[0]} rating",
            f"download the {exc.args[0]} or the combined list",
        ) from None
    if not frames:
        raise list_problem(
            source,
            Code.NOT_A_TABLE,
            "the list holds no <player> entries",
            "download the list again",
        )
    frame = pd.concat(frames, ignore_index=True)
    return RawTable(frame, np.concatenate(numbers), source), list_type


def _xml_chunks(
    stream: IO[bytes], list_column: str, fields: list[str]
) -> Iterator[tuple[pd.DataFrame, np.ndarray, str]]:
    """Yield (text cells, line numbers, list type) per :data:`XML_CHUNK` players."""
    from lxml import etree

    context = etree.iterparse(
        stream,
        events=("end",),
        tag="player",
        resolve_entities=False,
        no_network=True,
        remove_comments=True,
        remove_pis=True,
    )
    rows: list[tuple[str | None, ...]] = []
    lines: list[int] = []
    layout: tuple[str, ...] | None = None
    pick: Callable[[list[str | None]], tuple[str | None, ...]] | None = None
    list_type = list_column
    for _, elem in context:
        if layout is None:
            info = elem.getroottree().docinfo
            if info.doctype or info.internalDTD is not None:
                raise _DoctypeError
        children = list(elem)  # one proxy object per child, reused for tags and texts
        tags = tuple([child.tag for child in children])
        if tags != layout:
            names = tuple(t if isinstance(t, str) else "" for t in tags)  # entities have no name
            tag_of = _xml_fields(names, list_column)
            if layout is None and not any(t.startswith(("rapid_", "blitz_")) for t in names):
                list_type = "single"
            layout = tags
            # A field this layout lacks reads the None appended after the children.
            pick = operator.itemgetter(
                *[names.index(tag_of[f]) if f in tag_of else len(names) for f in fields]
            )
        values = [child.text for child in children]
        values.append(None)
        rows.append(pick(values))  # type: ignore[misc]
        lines.append(elem.sourceline or 0)
        # Free the element and every finished sibling: memory stays flat however long the list.
        elem.clear(keep_tail=False)
        while elem.getprevious() is not None:
            del elem.getparent()[0]
        if len(rows) >= XML_CHUNK:
            yield _xml_frame(rows, fields), np.asarray(lines, dtype=np.int64), list_type
            rows, lines = [], []
    if rows:
        yield _xml_frame(rows, fields), np.asarray(lines, dtype=np.int64), list_type


def _xml_fields(tags: tuple[str, ...], list_column: str) -> dict[str, str]:
    """Field -> tag for one layout of <player> children."""
    combined = any(t.startswith(("rapid_", "blitz_")) for t in tags)
    want = list_column if combined else "standard"
    tag_of: dict[str, str] = {}
    for tag in tags:
        if tag not in XML_TAGS:
            continue
        kind, field = XML_TAGS[tag]
        main = kind == "main" and (not combined or want == "standard")
        if kind is None or main or kind == want:
            tag_of.setdefault(field, tag)
        if combined and kind == "main" and field == "rating" and want in FAST_TYPES:
            tag_of[STANDARD_FALLBACK] = tag  # the standard rating, for the 7.2.1 fallback
    if combined and "rating" not in tag_of:
        raise ListTypeError(list_column)
    return tag_of


def _xml_frame(rows: list[tuple[str | None, ...]], fields: list[str]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=fields, dtype=str).fillna("")
    return frame.apply(lambda column: column.str.strip())
