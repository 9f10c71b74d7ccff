"""FIDE rating lists, TXT layout (fixed width): sliced column by column with Arrow string kernels
on one buffer of lines, never as Python objects per cell."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from pipeline.arrays.arrow_text import str_series
from pipeline.errors import Code
from pipeline.readers.lists.fide_list_columns import (
    COMMON,
    FAST_TYPES,
    STANDARD_FALLBACK,
    TYPED,
    choose_column,
    list_problem,
)
from pipeline.readers.tables.raw import RawTable
from pipeline.resources.threads import each

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
_MONTH_TOKEN = re.compile(
    r"^[A-Za-z]{3}[0-9]{2}$"
)  # OCT26: the rating column of a single-type list


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
            raise list_problem(
                source,
                Code.BAD_ENCODING,
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


def read_txt(data: bytes, source: str, list_column: str) -> tuple[RawTable, str]:
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
        key, list_type = choose_column(by_field, list_column)
    except KeyError:
        raise list_problem(
            source,
            Code.MISSING_COLUMN,
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
        raise list_problem(
            source,
            Code.MISSING_COLUMN,
            f"the list header lacks {', '.join(missing)}",
            "give the list as downloaded from FIDE",
            row=1,
        )

    body = lines.slice(1)
    lengths = _content_lengths(data, offsets[1:])
    # Byte slicing is several times faster than slicing by characters and equal on ASCII lines;
    # the few lines with other characters are cut by characters afterwards.
    ascii_lines = pc.string_is_ascii(body.cast(pa.large_string())) if not data.isascii() else None
    separators = any(bytes([b]) in data for b in range(0x1C, 0x20))  # memchr: 20x `re`
    # The fields are cut on every core at once (Arrow's slice, cast and trim release the GIL).
    cut = each(
        [partial(_slice, body, span, ascii_lines, separators) for span in wanted.values()],
        len(body),
    )
    frame = pd.DataFrame(dict(zip(wanted, cut, strict=True)), copy=False)
    del cut  # the frame holds the only reference: the cells re-cut below are not copied first
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


def _slice(
    lines: Any,
    span: tuple[int, int | None] | None,
    ascii_lines: Any = None,
    separators: bool = True,
) -> pd.Series:
    """One fixed-width column of every line, trimmed (a column the layout lacks is blank).

    Binary ``lines`` are cut by bytes; lines that are not ASCII (``ascii_lines`` false) come out
    blank and are cut again by characters by the caller. ``separators``: whether the lines may
    hold bytes 0x1C-0x1F.
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
        # ASCII bytes only (other lines are blank here): valid UTF-8 without a check.
        cut = pc.cast(cut, options=pc.CastOptions(pa.large_string(), allow_invalid_utf8=True))
        # On ASCII the two trim kernels differ only on 0x1C-0x1F (white space to the UTF-8
        # one): the ASCII kernel, about 4x faster, when the file holds none of those bytes.
        trim = pc.utf8_trim_whitespace if separators else pc.ascii_trim_whitespace
        trimmed = trim(cut)
    else:
        trimmed = pc.utf8_trim_whitespace(pc.utf8_slice_codeunits(lines, start, stop))
    return str_series(trimmed)


_VALID = {
    "id": re.compile(r"[0-9]+"),
    "federation": re.compile(r"[A-Z]{3}|"),
    "sex": re.compile(r"[MFmf]?"),
    "title": re.compile(r"[A-Za-z]*"),
    "w_title": re.compile(r"[A-Za-z]*"),
    "o_title": re.compile(r"[A-Za-z, ]*"),
    "foa_title": re.compile(r"[A-Za-z]*"),
    "rating": re.compile(r"[0-9]*"),
    "period_games": re.compile(r"[0-9]*"),
    "k": re.compile(r"[0-9]*"),
    "birth_year": re.compile(r"[0-9]*"),
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
