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
from pipeline.readers import dates
from pipeline.readers.event_codes import ALL_CODES, CODE_HELP, SEXES, TITLES
from pipeline.readers.pairing import CELL_COLUMNS, build_event

# 0-based [start, end) slices of the 001 record (TRF.md gives 1-based inclusive columns).
FIELDS: dict[str, tuple[int, int]] = {
    "sno": (4, 8),
    "sex": (9, 10),
    "title": (10, 13),
    "name": (14, 47),
    "rating": (48, 52),
    "federation": (53, 56),
    "id": (57, 68),
    "birth": (69, 79),
    "points": (80, 84),
}
ROUND_START, ROUND_WIDTH = 91, 10  # round r: opponent [91+10(r-1), +4), colour +5, result +7
HEADER_TAGS = {"012": "name", "042": "start", "052": "end", "XXR": "rounds", "142": "rounds"}
KEPT_TAG = re.compile(r"^(0[0-9][0-9]|1[0-9][0-9]|[23][0-9][0-9]|XX.|BB.)$")


def _columns(name: str) -> str:
    start, end = FIELDS[name]
    return f"{name} (columns {start + 1}-{end})"


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
        ln[:3] in ("001", "###") or KEPT_TAG.match(ln[:3]) or ln[:3].isdigit() for ln in lines[:5]
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
    info = EventInfo()
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
    roster = _roster(raw, numbers, source, problems)
    cells = _cells(raw, numbers, roster["sno"], source, problems)
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
        if value.isdigit():
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


def _field(raw: pd.Series, name: str) -> pd.Series:
    start, end = FIELDS[name]
    return raw.str.slice(start, end).str.strip()


def _report(
    problems: ProblemList,
    source: str,
    numbers: np.ndarray,
    values: pd.Series,
    bad: np.ndarray,
    code: Code,
    column: str,
    message: str,
    fix: str,
) -> None:
    for pos in np.flatnonzero(bad):
        problems.add(
            code,
            message,
            file=source,
            row=int(numbers[pos]),
            column=column,
            value=str(values.iat[pos]),
            fix=fix,
        )


def _roster(
    raw: pd.Series, numbers: np.ndarray, source: str, problems: ProblemList
) -> pd.DataFrame:
    sno_text = _field(raw, "sno")
    sno_ok = sno_text.str.fullmatch(r"\d+").to_numpy()
    _report(
        problems,
        source,
        numbers,
        sno_text,
        ~sno_ok,
        Code.BAD_ID,
        _columns("sno"),
        "the starting rank is not a number",
        "write the starting rank right-aligned in columns 5-8",
    )
    sno = pd.to_numeric(sno_text.where(sno_ok, "0")).astype(np.int64)
    dup = sno_ok & sno.duplicated(keep="first").to_numpy()
    _report(
        problems,
        source,
        numbers,
        sno_text,
        dup,
        Code.DUPLICATE_PLAYER,
        _columns("sno"),
        "two player records have this starting rank",
        "give every player their own starting rank",
    )

    rating_text = _field(raw, "rating")
    rating_ok = rating_text.str.fullmatch(r"\d{0,4}").to_numpy()
    rating = pd.to_numeric(rating_text.where(rating_ok & rating_text.ne(""), None)).astype("Int64")
    rating_ok = rating_ok & ~(rating > 3500).fillna(False).to_numpy()
    _report(
        problems,
        source,
        numbers,
        rating_text,
        ~rating_ok,
        Code.BAD_RATING,
        _columns("rating"),
        "the rating is not a whole number from 0 to 3500",
        "write the FIDE rating, or 0 if unrated",
    )
    rating = rating.where(rating_ok & (rating > 0).fillna(False).to_numpy())

    id_text = _field(raw, "id")
    id_ok = id_text.str.fullmatch(r"\d*").to_numpy()
    _report(
        problems,
        source,
        numbers,
        id_text,
        ~id_ok,
        Code.BAD_ID,
        _columns("id"),
        "the FIDE ID is not a number",
        "write the FIDE ID (digits only), or leave it blank",
    )
    fide_id = id_text.str.lstrip("0").where(id_ok, "")

    birth_text = _field(raw, "birth")
    years, bad_birth = _birth_years(birth_text)
    _report(
        problems,
        source,
        numbers,
        birth_text,
        bad_birth,
        Code.BAD_VALUE,
        _columns("birth"),
        "the birth date is in no layout we know",
        "write the birth date as YYYY/MM/DD (or the year alone), or leave it blank",
    )

    points_text = _field(raw, "points")
    points_ok = points_text.str.fullmatch(r"(\d{1,3}([.,]\d+)?)?").to_numpy()
    _report(
        problems,
        source,
        numbers,
        points_text,
        ~points_ok,
        Code.BAD_VALUE,
        _columns("points"),
        "the points are not a number",
        "write the points as e.g. 4.5, or leave them blank",
    )
    points = pd.to_numeric(
        points_text.str.replace(",", ".").where(points_ok & points_text.ne(""), None)
    )
    points_h = (points * 100).round().astype("Int64")  # exact: points are halves (x.0 / x.5)

    title = _field(raw, "title").str.lower()
    return pd.DataFrame(
        {
            "sno": sno,
            "id": fide_id.astype(str),
            "name": _field(raw, "name").astype(str),
            "rating": rating,
            "birth_year": years,
            "federation": _field(raw, "federation").str.upper().astype(str),
            "title": title.map(TITLES).fillna(title.str.upper()).astype(str),
            "sex": _field(raw, "sex").str.lower().map(SEXES).fillna("").astype(str),
            "points_h": points_h,
            "points_value": points_text.astype(str),
            "points_column": _columns("points"),
            "line": numbers,
            "ok": sno_ok & ~dup,
        }
    )[lambda f: f["ok"]].reset_index(drop=True)


def _birth_years(text: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """(year or <NA>, bad) per birth date; the usual ``YYYY/MM/DD``, ``YYYY.MM.DD``, ``YYYY``
    in one vectorized pass, anything else through :func:`dates.birth_year` one by one."""
    common = text.str.extract(r"^(\d{4})(?:[/.\-]\d{1,2}[/.\-]\d{1,2})?$")[0]
    years = pd.to_numeric(common).astype("Int64")
    years = years.mask(years.eq(0))  # 0000/00/00: not given
    bad = np.zeros(len(text), dtype=bool)
    for pos in np.flatnonzero((common.isna() & text.ne("")).to_numpy()):
        try:
            year = dates.birth_year(text.iat[pos])
        except ValueError:
            bad[pos] = True
            continue
        years.iat[pos] = pd.NA if year is None else year
    out_of_range = ((years < 1850) | (years > 2100)).fillna(False).to_numpy(dtype=bool)
    bad |= out_of_range
    return years.mask(out_of_range).reset_index(drop=True), bad


def _cells(
    raw: pd.Series, numbers: np.ndarray, valid_sno: pd.Series, source: str, problems: ProblemList
) -> pd.DataFrame:
    """Every round cell of every 001 line at once: the lines as a matrix of characters, the
    cells cut out by column (round r at 92 + 10(r - 1)), checked and kept when not blank."""
    sno_text = _field(raw, "sno")
    sno = pd.to_numeric(sno_text.where(sno_text.str.fullmatch(r"\d+"), "0")).astype(np.int64)
    width = int(raw.str.rstrip().str.len().max())
    rounds = max(0, -(-(width - ROUND_START) // ROUND_WIDTH))
    if rounds == 0:
        return pd.DataFrame(
            {
                c: pd.Series(dtype=np.int64 if c in ("sno", "round", "opp", "line") else str)
                for c in CELL_COLUMNS
            }
        )
    full = ROUND_START + ROUND_WIDTH * rounds
    text = raw.str.slice(0, full).str.pad(full, side="right").to_numpy(dtype=f"<U{full}")
    chars = text.view("<U1").reshape(len(raw), full)
    at = ROUND_START + ROUND_WIDTH * np.arange(rounds)[:, None] + np.arange(8)[None, :]
    block = np.ascontiguousarray(chars[:, at].transpose(1, 0, 2))  # (round, player, 8)
    value = block.view("<U8").reshape(-1)
    opp_text = np.strings.strip(np.ascontiguousarray(block[:, :, :4]).view("<U4").reshape(-1))
    colour = np.strings.lower(block[:, :, 5].reshape(-1))
    code = np.strings.upper(block[:, :, 7].reshape(-1))
    round_no = np.repeat(np.arange(1, rounds + 1), len(raw))
    line = np.tile(numbers, rounds)
    player = np.tile(sno.to_numpy(), rounds)
    columns = np.array(
        [
            f"round {r} (columns {92 + 10 * (r - 1)}-{99 + 10 * (r - 1)})"
            for r in range(1, rounds + 1)
        ]
    )[round_no - 1]

    present = (opp_text != "") | (colour != " ") | (code != " ")
    opp_ok = np.strings.isdigit(opp_text) | (opp_text == "")
    colour_ok = np.isin(colour, ["w", "b", "-", " "])
    opp = np.where(opp_ok & (opp_text != ""), opp_text, "0").astype(np.int64)
    missing = present & (opp > 0) & (code == " ")
    code_ok = np.isin(code, sorted(ALL_CODES)) | (code == " ")
    checks = [
        (
            present & ~opp_ok,
            Code.BAD_VALUE,
            "the opponent's starting rank is not a number",
            "write the opponent's starting rank, or 0000 for a bye",
        ),
        (
            present & ~colour_ok,
            Code.BAD_VALUE,
            "the colour is not w, b or -",
            "write w (white), b (black) or - (no game)",
        ),
        (
            missing,
            Code.BAD_RESULT,
            "the game has no result",
            f"enter the result ({CODE_HELP}) or remove the pairing",
        ),
        (present & ~code_ok, Code.BAD_RESULT, "not a TRF result code", f"write one of {CODE_HELP}"),
    ]
    for bad, code_name, message, fix in checks:
        for pos in np.flatnonzero(bad):
            problems.add(
                code_name,
                message,
                file=source,
                row=int(line[pos]),
                column=str(columns[pos]),
                value=str(value[pos]),
                fix=fix,
            )
    keep = present & opp_ok & colour_ok & code_ok & ~missing & np.isin(player, valid_sno)
    return pd.DataFrame(
        {
            "sno": player[keep],
            "round": round_no[keep],
            "opp": opp[keep],
            "colour": np.where(np.isin(colour[keep], ["-", " "]), "", colour[keep]).astype(str),
            # A cell with 0000 and no result is a known absence (TRF.md: blank = Z).
            "code": np.where(code[keep] == " ", "Z", code[keep]).astype(str),
            "line": line[keep],
            "column": columns[keep].astype(str),
            "value": value[keep].astype(str),
        }
    )[CELL_COLUMNS]
