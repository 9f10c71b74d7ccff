"""TRF 001 player records: the fields cut by column (TRF.md), each checked, every bad field
reported with its line, columns and text."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from pipeline.errors import Code
from pipeline.problem_list import ProblemList
from pipeline.readers.events import dates
from pipeline.readers.events.event_codes import SEXES, TITLES
from pipeline.readers.tables.cells import starting_numbers

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
    "rank": (85, 89),  # the final rank (a Swiss event's order after its tie-breaks)
}
ROUND_START, ROUND_WIDTH = 91, 10  # round r: opponent [91+10(r-1), +4), colour +5, result +7


def field_columns(name: str) -> str:
    start, end = FIELDS[name]
    return f"{name} (columns {start + 1}-{end})"


def cut_field(raw: pd.Series, name: str) -> pd.Series:
    start, end = FIELDS[name]
    return raw.str.slice(start, end).str.strip()


# What a 001 field must hold: problem -> (code, what is wrong, how to fix it).
FIELD_PROBLEMS: dict[str, tuple[Code, str, str]] = {
    "sno": (
        Code.BAD_ID,
        "the starting rank is not a number",
        "write the starting rank right-aligned in columns 5-8",
    ),
    "sno_twice": (
        Code.DUPLICATE_PLAYER,
        "two player records have this starting rank",
        "give every player their own starting rank",
    ),
    "rating": (
        Code.BAD_RATING,
        "the rating is not a whole number from 0 to 3500",
        "write the FIDE rating, or 0 if unrated",
    ),
    "id": (
        Code.BAD_ID,
        "the FIDE ID is not a number",
        "write the FIDE ID (digits only), or leave it blank",
    ),
    "points": (
        Code.BAD_VALUE,
        "the points are not a number",
        "write the points as e.g. 4.5, or leave them blank",
    ),
    "birth": (
        Code.BAD_VALUE,
        "the birth date is in no layout we know",
        "write the birth date as YYYY/MM/DD (or the year alone), or leave it blank",
    ),
}


@dataclass
class Lines:
    """The 001 lines of one file (text, line numbers) and where their problems go."""

    raw: pd.Series
    numbers: np.ndarray
    source: str
    problems: ProblemList

    def field(self, name: str) -> pd.Series:
        return cut_field(self.raw, name)

    def report(self, name: str, text: pd.Series, bad: np.ndarray, problem: str) -> None:
        """One problem (a key of ``FIELD_PROBLEMS``) per line where ``bad``, at field ``name``."""
        code, message, fix = FIELD_PROBLEMS[problem]
        for pos in self.problems.within_room(np.flatnonzero(bad), self.source):
            self.problems.add(
                code,
                message,
                file=self.source,
                row=int(self.numbers[pos]),
                column=field_columns(name),
                value=str(text.iat[pos]),
                fix=fix,
            )


def _starting_ranks(lines: Lines) -> tuple[pd.Series, np.ndarray]:
    """(starting rank, usable) per line: a number, not given to an earlier line."""
    text = lines.field("sno")
    sno, bad, dup = starting_numbers(text)
    lines.report("sno", text, bad, "sno")
    lines.report("sno", text, dup, "sno_twice")
    return sno, ~bad & ~dup


def _ratings(lines: Lines) -> pd.Series:
    """The rating, <NA> when 0, blank or bad (bad ones reported)."""
    text = lines.field("rating")
    ok = text.str.fullmatch(r"[0-9]{0,4}").to_numpy()
    rating = pd.to_numeric(text.where(ok & text.ne(""), None)).astype("Int64")
    ok = ok & ~(rating > 3500).fillna(False).to_numpy()
    lines.report("rating", text, ~ok, "rating")
    return rating.where(ok & (rating > 0).fillna(False).to_numpy())


def _fide_ids(lines: Lines) -> pd.Series:
    """The FIDE ID without leading zeros; blank when not given or bad (bad ones reported)."""
    text = lines.field("id")
    ok = text.str.fullmatch(r"[0-9]*").to_numpy()
    lines.report("id", text, ~ok, "id")
    return text.str.lstrip("0").where(ok, "")


def _points(lines: Lines) -> tuple[pd.Series, pd.Series]:
    """(points in hundredths or <NA>, the text) per line."""
    text = lines.field("points")
    ok = text.str.fullmatch(r"([0-9]{1,3}([.,][0-9]+)?)?").to_numpy()
    lines.report("points", text, ~ok, "points")
    points = pd.to_numeric(text.str.replace(",", ".").where(ok & text.ne(""), None))
    return (points * 100).round().astype("Int64"), text  # exact: points are halves (x.0 / x.5)


def roster(raw: pd.Series, numbers: np.ndarray, source: str, problems: ProblemList) -> pd.DataFrame:
    """One row per usable 001 line (``ok``: its starting rank is a number and its own)."""
    lines = Lines(raw, numbers, source, problems)
    sno, usable = _starting_ranks(lines)
    rating = _ratings(lines)
    fide_id = _fide_ids(lines)
    birth_text = lines.field("birth")
    years, bad_birth = _birth_years(birth_text)
    lines.report("birth", birth_text, bad_birth, "birth")
    points_h, points_text = _points(lines)
    rank_text = lines.field("rank")
    # The final rank orders the standings only; a blank or unreadable one is simply not used.
    final_rank = pd.to_numeric(rank_text.where(rank_text.str.fullmatch(r"\d+"), None))
    final_rank = final_rank.astype("Int64").where(final_rank > 0)
    title = lines.field("title").str.lower()
    return pd.DataFrame(
        {
            "sno": sno,
            "id": fide_id.astype(str),
            "name": lines.field("name").astype(str),
            "rating": rating,
            "birth_year": years,
            "federation": lines.field("federation").str.upper().astype(str),
            "title": title.map(TITLES).fillna(title.str.upper()).astype(str),
            "sex": lines.field("sex").str.lower().map(SEXES).fillna("").astype(str),
            "points_h": points_h,
            "points_value": points_text.astype(str),
            "points_column": field_columns("points"),
            "final_rank": final_rank,
            "line": numbers,
            "ok": usable,
        }
    )[lambda f: f["ok"]].reset_index(drop=True)


def _birth_years(text: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """(year or <NA>, bad) per birth date; the usual ``YYYY/MM/DD``, ``YYYY.MM.DD``, ``YYYY``
    in one vectorized pass, anything else through :func:`dates.birth_year` one by one. An empty
    template (``    .  .  ``, ``    /  /  ``: separators only, as some tools write an unknown
    date) is blank."""
    text = text.mask(text.str.fullmatch(r"[ ./\-]*"), "")
    # A year with its month and day left as a template (``1990.  .``) is that year.
    common = text.str.extract(r"^([0-9]{4})(?:[/.\-][0-9]{1,2}[/.\-][0-9]{1,2}|[ ./\-]*)$")[0]
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
