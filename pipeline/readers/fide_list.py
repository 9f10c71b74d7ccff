"""FIDE rating-list downloads as the players list: TXT (fixed width) and XML, plain or zipped.

Layouts: ../shared/fide/RATING_LISTS.md. The full combined list has about 1.9 million players, so
neither layout is ever held as Python objects per cell: the TXT file is sliced column by column
with Arrow string kernels on one buffer of lines, and the XML file is streamed with lxml's
``iterparse`` (only ``<player>`` elements reach Python, each cleared after use), in chunks.

Both layouts become a :class:`RawTable` of text cells with the players-file column names, and
then go through the same :func:`pipeline.readers.players.parse_players` as a CSV players file:
one implementation of every check (bad-rating, bad-id, duplicate-player, ...).

Mapping decisions (README, "Rating lists, dialects and validation"):
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
- Birth year ``0`` means unknown; ``flag`` (``i`` inactive, ``w`` woman) is kept as given.
"""

from __future__ import annotations

import operator
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

from pipeline.errors import InputError, Problem, ProblemList
from pipeline.model import PlayerList
from pipeline.readers import cells
from pipeline.readers.players import parse_players
from pipeline.readers.tabular import RawTable
from pipeline.rules.ever_2400 import published_k_proves_2400
from pipeline.rules.sets import KPrecedence

LIST_TYPES = ("standard", "rapid", "blitz")
# The text columns every layout provides (the chosen type's rating/games/k are added to these).
COMMON = [
    "id",
    "name",
    "federation",
    "sex",
    "title",
    "w_title",
    "o_title",
    "foa_title",
    "birth_year",
    "flag",
]
TYPED = ["rating", "period_games", "k"]
# A combined list read for rapid or blitz also gives the standard rating (7.2.1 fallback).
FAST_TYPES = ("rapid", "blitz")
STANDARD_FALLBACK = "standard_rating"

# TXT header token (lower case) -> (list type, field). Type None: the same for every type;
# "single": the one rating of a single-type list (its rating column is headed by the month).
TXT_TOKENS: dict[str, tuple[str | None, str]] = {
    "id": (None, "id"),
    "name": (None, "name"),
    "fed": (None, "federation"),
    "sex": (None, "sex"),
    "tit": (None, "title"),
    "wtit": (None, "w_title"),
    "otit": (None, "o_title"),
    "foa": (None, "foa_title"),
    "srtng": ("standard", "rating"),
    "sgm": ("standard", "period_games"),
    "sk": ("standard", "k"),
    "rrtng": ("rapid", "rating"),
    "rgm": ("rapid", "period_games"),
    "rk": ("rapid", "k"),
    "brtng": ("blitz", "rating"),
    "bgm": ("blitz", "period_games"),
    "bk": ("blitz", "k"),
    "gms": ("single", "period_games"),
    "gm": ("single", "period_games"),
    "k": ("single", "k"),
    "b-day": (None, "birth_year"),
    "bday": (None, "birth_year"),
    "flag": (None, "flag"),
}
_MONTH_TOKEN = re.compile(r"^[A-Za-z]{3}\d{2}$")  # OCT26: the rating column of a single-type list

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

_TXT_HEAD = re.compile(rb"^\s*ID[ _]?Number\s+Name\s", re.IGNORECASE)
_XML_HEAD = re.compile(rb"^\s*(<\?xml[^>]*\?>\s*)?(<!--.*?-->\s*)*<playerslist[\s>/]", re.DOTALL)
XML_CHUNK = 100_000  # players converted to a frame at a time (bounds the Python objects alive)


@dataclass(frozen=True)
class ListFile:
    layout: str  # "txt" or "xml"
    member: str | None = None  # the file inside a .zip


def sniff(path: Path) -> ListFile | None:
    """A FIDE list (by its first bytes: the TXT header line or the ``<playerslist>`` root)?"""
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return None
    if head.startswith(b"PK\x03\x04"):
        return _sniff_zip(path)
    layout = _layout(head)
    return ListFile(layout) if layout else None


def _layout(head: bytes) -> str | None:
    head = head.removeprefix(b"\xef\xbb\xbf")
    if _TXT_HEAD.match(head):
        return "txt"
    if _XML_HEAD.match(head):
        return "xml"
    return None


def _sniff_zip(path: Path) -> ListFile | None:
    try:
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if not n.endswith("/")]
            if "[Content_Types].xml" in names:  # a workbook, not a list
                return None
            for name in names:
                if name.lower().endswith((".txt", ".xml")):
                    with archive.open(name) as fh:
                        layout = _layout(fh.read(4096))
                    if layout:
                        return ListFile(layout, name)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError):
        return None
    return None


def read_fide_list(path: Path, found: ListFile, list_column: str = "standard") -> PlayerList:
    """Read a FIDE list (``found`` from :func:`sniff`) choosing the ``list_column`` ratings."""
    source = str(path)
    problems = ProblemList()
    try:
        if found.member is None:
            if found.layout == "txt":
                table, list_type = _read_txt(path.read_bytes(), source, list_column)
            else:
                with path.open("rb") as fh:
                    table, list_type = _read_xml(fh, source, list_column)
        else:
            with zipfile.ZipFile(path) as archive, archive.open(found.member) as fh:
                if found.layout == "txt":
                    table, list_type = _read_txt(fh.read(), source, list_column)
                else:
                    table, list_type = _read_xml(fh, source, list_column)
    except (zipfile.BadZipFile, EOFError, OSError) as exc:
        raise InputError(
            [
                Problem(
                    "not-a-table",
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
    rating_number = raw_rating.where(raw_rating.str.fullmatch(r"\d{1,4}")).astype("Int64")
    ever = rating_number.ge(2400).fillna(False).to_numpy(dtype=bool, copy=True)
    # A printed K 10 proves a published 2400 (a GM/IM title alone does not: B.01 1.5.3a).
    ever |= published_k_proves_2400(frame["k"], KPrecedence())
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
    bad = ids.ne("") & ~ids.str.fullmatch(r"\d{1,12}")
    cells.report(
        problems,
        table,
        bad.to_numpy(),
        "id",
        "bad-id",
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
            "missing-column",
            f"this is the {hinted[0]} list but the rule set rates {wanted} games",
            file=source,
            column="rating",
            fix=f"give the {wanted} list (or the combined list), or choose --rules {hinted[0]}",
        )


# --- TXT -------------------------------------------------------------------------------------


def _problem(source: str, code: str, message: str, fix: str, row: int | None = None) -> InputError:
    return InputError([Problem(code, message, file=source, row=row, fix=fix)])


def _to_utf8(data: bytes, source: str) -> bytes:
    """UTF-8 bytes of the file: as is when valid UTF-8, else transcoded from Windows-1252."""
    import pyarrow as pa

    data = data.removeprefix(b"\xef\xbb\xbf")
    if data.isascii():
        return data
    try:
        pa.array([data], type=pa.binary()).cast(pa.string())  # validates without a Python str
        return data
    except (pa.ArrowInvalid, UnicodeDecodeError):
        pass
    parts = []
    step = 1 << 24
    for start in range(0, len(data), step):
        try:
            parts.append(data[start : start + step].decode("cp1252").encode("utf-8"))
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, start + exc.start) + 1
            raise _problem(
                source,
                "bad-encoding",
                f"byte {data[start + exc.start]:#04x} is neither UTF-8 nor Windows-1252 text",
                "download the list again (it is damaged) or save it as UTF-8",
                row=line,
            ) from None
    return b"".join(parts)


def _line_offsets(data: bytes) -> np.ndarray:
    """Start offsets of every line plus the end, found in 16 MB steps (no full-size bool array)."""
    buf = np.frombuffer(data, dtype=np.uint8)
    newline = 0x0A if b"\n" in data else 0x0D  # CR-only files (old Macs)
    parts = [np.zeros(1, dtype=np.int64)]
    step = 1 << 24
    for start in range(0, len(buf), step):
        found = np.flatnonzero(buf[start : start + step] == newline).astype(np.int64)
        parts.append(found + start + 1)
    offsets = np.concatenate(parts)
    if offsets[-1] != len(data):
        offsets = np.append(offsets, len(data))
    return offsets


def _header_columns(header: str) -> list[tuple[int, int | None, str | None, str]]:
    """(start, end, list type, field) per header token; unknown tokens keep their extent only."""
    tokens = [(m.start(), m.group()) for m in re.finditer(r"\S+", header)]
    tokens = [t for t in tokens if t[1].lower() != "number"]  # "ID Number" is one column
    columns = []
    for i, (start, token) in enumerate(tokens):
        end = tokens[i + 1][0] if i + 1 < len(tokens) else None
        key = token.lower()
        if key in TXT_TOKENS:
            kind, field = TXT_TOKENS[key]
        elif _MONTH_TOKEN.match(token):
            kind, field = "single", "rating"
        else:
            kind, field = None, ""
        columns.append((start, end, kind, field))
    return columns


def _choose(columns: dict[tuple[str | None, str], object], list_column: str) -> tuple[str, str]:
    """(the type key whose rating is used, the list type) for the layout's columns."""
    if ("single", "rating") in columns:
        return "single", "single"
    if (list_column, "rating") in columns:
        return list_column, list_column
    raise KeyError(list_column)


def _read_txt(data: bytes, source: str, list_column: str) -> tuple[RawTable, str]:
    import pyarrow as pa
    import pyarrow.compute as pc

    data = _to_utf8(data, source)
    offsets = _line_offsets(data)
    # One zero-copy Arrow view of every line (terminators included) over the file's buffer.
    lines = pa.Array.from_buffers(
        pa.large_binary(), len(offsets) - 1, [None, pa.py_buffer(offsets), pa.py_buffer(data)]
    )
    header = data[offsets[0] : offsets[1]].decode("utf-8").rstrip("\r\n")
    columns = _header_columns(header)
    by_field = {(kind, field): (start, end) for start, end, kind, field in columns if field}
    try:
        key, list_type = _choose(by_field, list_column)
    except KeyError:
        raise _problem(
            source,
            "missing-column",
            f"the list has no {list_column} rating column (header: {header.split()})",
            f"download the {list_column} or the combined list",
            row=1,
        ) from None
    wanted = {f: by_field.get((None, f)) for f in COMMON}
    wanted |= {f: by_field.get((key, f)) for f in TYPED}
    if key in FAST_TYPES and ("standard", "rating") in by_field:
        wanted[STANDARD_FALLBACK] = by_field[("standard", "rating")]
    missing = [f for f in ("id", "name") if wanted[f] is None]
    if missing:
        raise _problem(
            source,
            "missing-column",
            f"the list header lacks {', '.join(missing)}",
            "give the list as downloaded from FIDE",
            row=1,
        )

    body = lines.slice(1)
    lengths = _content_lengths(data, offsets[1:])
    # Byte slicing is several times faster than slicing by characters and equal on ASCII lines;
    # the few lines with other characters are cut by characters afterwards.
    ascii_lines = pc.string_is_ascii(body.cast(pa.large_string())) if not data.isascii() else None
    frame = pd.DataFrame({f: _slice(body, span, ascii_lines) for f, span in wanted.items()})
    if ascii_lines is not None:
        other = np.flatnonzero(~ascii_lines.to_numpy(zero_copy_only=False))
        rest = body.take(pa.array(other)).cast(pa.large_string())
        for field, span in wanted.items():
            frame.iloc[other, frame.columns.get_loc(field)] = _slice(rest, span).to_numpy()
        for pos in other:  # characters, not bytes, decide whether a line overflows
            lengths[pos] = len(rest[int(np.searchsorted(other, pos))].as_py().rstrip("\r\n"))
    # A few lines of the real list overflow by a character (a long name or title list shifts the
    # rest of the line): re-cut just those lines, wherever the shift fits the columns best.
    width = max(len(header), int(np.bincount(lengths).argmax()) if len(lengths) else 0)
    for pos in np.flatnonzero(lengths > width):
        line = body[int(pos)].as_py().decode("utf-8").rstrip("\r\n")
        for field, value in _recut(line, columns, wanted, width).items():
            frame.iat[int(pos), frame.columns.get_loc(field)] = value
    keep = lengths > 0  # blank lines (a trailing one is common) are not players
    line_numbers = np.flatnonzero(keep).astype(np.int64) + 2
    if not keep.all():
        frame = frame.loc[keep].reset_index(drop=True)
    return RawTable(frame, line_numbers, source), list_type


def _content_lengths(data: bytes, ends: np.ndarray) -> np.ndarray:
    """Bytes of each line (from ``ends``, the offsets after the header) without CR/LF."""
    buf = np.frombuffer(data, dtype=np.uint8)
    starts = np.concatenate([ends[:-1]]) if len(ends) > 1 else np.zeros(0, dtype=np.int64)
    stops = ends[1:].copy()
    for _ in range(2):  # strip up to two terminator bytes (CRLF)
        has = stops > starts
        last = buf[np.maximum(stops - 1, 0)]
        strip = has & ((last == 0x0A) | (last == 0x0D))
        stops -= strip
    return (stops - starts).astype(np.int64)


def _slice(lines: Any, span: tuple[int, int | None] | None, ascii_lines: Any = None) -> pd.Series:
    """One fixed-width column of every line, trimmed (a column the layout lacks is blank).

    Binary ``lines`` are cut by bytes; lines that are not ASCII (``ascii_lines`` false) come out
    blank and are cut again by characters by the caller.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if span is None:
        return pd.Series([""] * len(lines), dtype=str)
    start, end = span
    stop = end if end is not None else 1 << 30
    if pa.types.is_large_binary(lines.type):
        cut = pc.binary_slice(lines, start, stop)
        if ascii_lines is not None:
            cut = pc.if_else(ascii_lines, cut, pa.scalar(b"", pa.large_binary()))
        cut = cut.cast(pa.large_string())
    else:
        cut = pc.utf8_slice_codeunits(lines, start, stop)
    return pd.Series(pc.utf8_trim_whitespace(cut).cast(pa.string()).to_pandas(), dtype=str)


_VALID = {
    "id": re.compile(r"\d+"),
    "federation": re.compile(r"[A-Z]{3}|"),
    "sex": re.compile(r"[MFmf]?"),
    "title": re.compile(r"[A-Za-z]*"),
    "w_title": re.compile(r"[A-Za-z]*"),
    "o_title": re.compile(r"[A-Za-z, ]*"),
    "foa_title": re.compile(r"[A-Za-z]*"),
    "rating": re.compile(r"\d*"),
    "period_games": re.compile(r"\d*"),
    "k": re.compile(r"\d*"),
    "birth_year": re.compile(r"\d*"),
    "flag": re.compile(r"[iwIW]*"),
}


def _recut(line: str, columns: list, wanted: dict, width: int) -> dict[str, str]:
    """Cut an overlong line: shift every column from some point on by the overflow, choosing the
    point where the most fields look right (the name is free text and always 'looks right')."""
    shift = len(line) - width
    starts = [c[0] for c in columns]
    best: tuple[int, dict[str, str]] | None = None
    for j in range(1, len(starts)):
        bounds = [s if i < j else s + shift for i, s in enumerate(starts)] + [len(line)]
        values = {}
        for i, (_, _, _, field) in enumerate(columns):
            if field and field in wanted and wanted[field] == (columns[i][0], columns[i][1]):
                values[field] = line[bounds[i] : bounds[i + 1]].strip()
        score = sum(bool(_VALID[f].fullmatch(v)) for f, v in values.items() if f in _VALID)
        if best is None or score > best[0]:
            best = (score, values)
    return best[1] if best else {}


# --- XML -------------------------------------------------------------------------------------


def _read_xml(stream: IO[bytes], source: str, list_column: str) -> tuple[RawTable, str]:
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
        raise _problem(
            source,
            "bad-encoding" if encoding else "not-a-table",
            f"the XML list is damaged: {text}",
            "download the list again (or unzip it again)",
            row=exc.lineno or None,
        ) from None
    except _ListTypeError as exc:
        raise _problem(
            source,
            "missing-column",
            f"the list has no {exc.args[0]} rating",
            f"download the {exc.args[0]} or the combined list",
        ) from None
    if not frames:
        raise _problem(
            source, "not-a-table", "the list holds no <player> entries", "download the list again"
        )
    frame = pd.concat(frames, ignore_index=True)
    return RawTable(frame, np.concatenate(numbers), source), list_type


class _ListTypeError(Exception):
    pass


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
        raise _ListTypeError(list_column)
    return tag_of


def _xml_frame(rows: list[tuple[str | None, ...]], fields: list[str]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=fields, dtype=str).fillna("")
    return frame.apply(lambda column: column.str.strip())
