"""FIDE TRF (TRF16, and the TRF26 player record): header records, 001 player lines, round cells.

Layout in ../shared/fide/TRF.md. Real files bend it: lowercase titles, free-text dates, lines
ending in CR alone, ``###`` comments, XX*/BB*/013/2xx/3xx records (kept in ``EventInfo.kept``,
never a failure). Fields are cut by column; each bad field is reported with its line, columns
and text. Pairing both sides of every game happens in :mod:`.pairing`.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.errors import Code, InputError, Problem, ProblemList
from pipeline.model import EventInfo, GamesInput
from pipeline.readers.events import dates, trf_players
from pipeline.readers.events.pairing import build_event
from pipeline.readers.events.trf_players import ROUND_START, ROUND_WIDTH
from pipeline.readers.events.trf_rounds import round_cells

HEADER_TAGS = {"012": "name", "042": "start", "052": "end", "XXR": "rounds", "142": "rounds"}
KEPT_TAG = re.compile(r"^(0[0-9][0-9]|1[0-9][0-9]|[23][0-9][0-9]|XX.|BB.)$")


def decode(path: Path, data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def looks_like_trf(text: str) -> bool:
    """At least one 001 player record and nothing in the first lines that is not a record."""
    lines = [ln for ln in re.split(r"\r\n|\r|\n", text[:20000]) if ln.strip()][:40]
    return any(ln.startswith("001 ") for ln in lines) and all(
        ln[:3] in ("001", "###")
        or KEPT_TAG.match(ln[:3])
        or (ln[:3].isascii() and ln[:3].isdigit())
        for ln in lines[:5]
    )


def read_trf(path: Path | str) -> GamesInput:
    path = Path(path)
    if not path.exists():
        raise InputError(
            [
                Problem(
                    Code.NOT_A_TABLE,
                    "the file does not exist",
                    file=str(path),
                    fix="check the path",
                )
            ]
        )
    data = path.read_bytes()
    if b"\x00" in data[:4096]:
        raise InputError(
            [
                Problem(
                    Code.NOT_A_TABLE,
                    "the file holds binary data, not a TRF",
                    file=str(path),
                    fix="give a TRF text file",
                )
            ]
        )
    problems = ProblemList()
    event = parse_trf(decode(path, data), str(path), problems)
    problems.raise_if_any()
    return event


def parse_trf(text: str, source: str, problems: ProblemList) -> GamesInput:
    lines = re.split(r"\r\n|\r|\n", text)
    info = EventInfo(records=lines[:-1] if lines and lines[-1] == "" else list(lines))
    ending = re.search(r"\r\n|\r|\n", text)
    if ending is not None:
        info.newline = ending.group(0)
    players: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        tag = line[:3]
        if tag == "001":
            players.append((number, line))
        elif tag in HEADER_TAGS:
            _header(info, HEADER_TAGS[tag], line, number, source, problems)
        elif tag == "132":
            _round_dates(info, line)
        elif line.strip() and not line.startswith("###"):
            info.kept.append((number, line))
    if not players:
        problems.add(
            Code.NOT_A_TABLE,
            "no player records (lines starting with 001): this is not a TRF",
            file=source,
            fix="export the tournament again as a FIDE TRF file",
        )
        raise InputError(problems.problems)
    numbers = np.array([n for n, _ in players], dtype=np.int64)
    raw = pd.Series([ln for _, ln in players], dtype=str)
    roster = trf_players.roster(raw, numbers, source, problems)
    cells = round_cells(raw, numbers, roster["sno"], source, problems)
    if info.rounds is None and len(cells):
        info.rounds = int(cells["round"].max())
    return build_event(source, roster.drop(columns="ok"), cells, info, problems)


def _header(
    info: EventInfo, field: str, line: str, number: int, source: str, problems: ProblemList
) -> None:
    value = line[4:].strip()
    if field == "name":
        info.name = value
    elif field == "rounds":
        if value.isascii() and value.isdigit():
            info.rounds = int(value)
        elif value:
            problems.add(
                Code.BAD_VALUE,
                "the number of rounds is not a whole number",
                file=source,
                row=number,
                column=line[:3],
                value=value,
                fix="write e.g. 'XXR 9'",
            )
    elif value:
        parsed = dates.find_date(value)
        if parsed is None:
            problems.add(
                Code.BAD_VALUE,
                f"the {field} date is in no layout we know",
                file=source,
                row=number,
                column=f"{line[:3]} (columns 5-)",
                value=value,
                fix="write the date as YYYY/MM/DD, e.g. 2026/11/07",
            )
        setattr(info, field, parsed)


def _round_dates(info: EventInfo, line: str) -> None:
    for r, start in enumerate(range(ROUND_START, len(line), ROUND_WIDTH), start=1):
        parsed = dates.parse_date(line[start : start + 8])
        if parsed:
            info.round_dates[r] = parsed
