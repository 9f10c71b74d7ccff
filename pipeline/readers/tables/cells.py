"""Vectorized parsing of text cells, reporting every bad cell as a Problem.

Each parser returns the parsed column and records one Problem per bad cell (file, row, column,
value, fix). Nothing loops over good rows; only the bad ones are visited to build messages.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from pipeline.arrays.arrow_text import arrow_storage, factorize_text, may_contain
from pipeline.errors import Code
from pipeline.problem_list import ProblemList
from pipeline.readers import limits
from pipeline.readers.events.dates import DATE_BOUNDS, EARLIEST_YEAR, LATEST_YEAR
from pipeline.readers.events.results import GameResult, SideResult, lookup, normalize_tokens
from pipeline.readers.tables.tabular import RawTable

MAX_RATING = 3500


# What a cell must hold: problem -> (code, what is wrong, how to fix it).
CELL_PROBLEMS: dict[str, tuple[Code, str, str]] = {
    "blank_id": (
        Code.BAD_ID,
        "the player id is blank",
        "give every player an id (a FIDE id or any unique text)",
    ),
    "invisible_id": (
        Code.BAD_ID,
        "the id holds an invisible character (a byte-order mark, zero-width space or control "
        "character, shown escaped in the value): it looks right but matches no other id",
        "retype the id without it, or save the file again as plain UTF-8 (not 'UTF-8 with BOM' "
        "pasted into a cell)",
    ),
    "far_date": (
        Code.BAD_VALUE,
        f"the date is outside the dates we rate ({DATE_BOUNDS})",
        "correct the year (e.g. 2026-11-14), or leave the cell blank",
    ),
    "bool": (
        Code.BAD_VALUE,
        "expected true or false",
        "write true or false (yes/no and 1/0 are read too)",
    ),
    "date": (
        Code.BAD_VALUE,
        "expected a date as YYYY-MM-DD",
        "write the date as YYYY-MM-DD, e.g. 2026-11-14",
    ),
}


def report(
    problems: ProblemList,
    table: RawTable,
    bad: np.ndarray | pd.Series,
    column: str,
    code: Code,
    message: str,
    fix: str,
    values: pd.Series | None = None,
) -> None:
    mask = np.asarray(bad, dtype=bool)
    if not mask.any():
        return
    cells = table.frame[column] if values is None else values
    at = np.flatnonzero(mask)
    room = problems.room()  # a million bad rows: a thousand problems built, the rest counted
    for file, count in table.count_sources(at[room:]).items():
        problems.skip(count, file)
    at = at[:room]
    # Plain lists of the bad rows only: no pandas indexing per problem.
    texts = cells.to_numpy()[at].tolist()
    rows = np.asarray(table.rows)[at].tolist()
    for file, row, value in zip(table.sources_at(at), rows, texts, strict=True):
        problems.add(
            code, message, file=file, row=int(row), column=column, value=str(value), fix=fix
        )


def text(table: RawTable, column: str) -> pd.Series:
    if column in table.frame.columns:
        return table.frame[column].astype(str).fillna("")
    return pd.Series([""] * len(table.frame), dtype=str)


def parse_ids(
    problems: ProblemList, table: RawTable, column: str, required: bool = True
) -> pd.Series:
    raw = text(table, column)
    # A spreadsheet that stored an id as a number shows it as "4100018.0": take the digits.
    # (A literal scan first: the regex rewrite is ten times the cost and rarely needed.)
    has_dot = _may_contain(raw, b".") and raw.str.contains(".", regex=False).any()
    ids = raw.str.replace(r"^([0-9]+)\.0+$", r"\1", regex=True) if has_dot else raw
    if required:
        report(problems, table, ids.eq("").to_numpy(), column, *CELL_PROBLEMS["blank_id"])
    report(problems, table, _invisible(ids), column, *CELL_PROBLEMS["invisible_id"])
    return ids


# Characters that do not show: controls, soft hyphen, zero-width and direction marks, word
# joiners, the byte-order mark. An id holding one looks right and matches nothing.
_INVISIBLE = "[\x00-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]"
# The UTF-8 bytes that start one of them (C0 controls and DEL as themselves; 0xC2: U+0080..00BF;
# 0xE2: U+2000..2FFF; 0xEF: U+F000..FFFF): a cell without any of them holds none.
_INVISIBLE_BYTES = np.zeros(256, dtype=bool)
_INVISIBLE_BYTES[[*range(0x20), 0x7F, 0xC2, 0xE2, 0xEF]] = True


def _invisible(ids: pd.Series) -> np.ndarray:
    """Whether each id holds an invisible character; the regex runs only when one byte pass
    over the Arrow buffers finds a byte that may start one (an id column is ASCII digits)."""
    if isinstance(ids.array, pd.arrays.ArrowStringArray):
        storage = arrow_storage(ids.array)
        chunks = storage.chunks if hasattr(storage, "chunks") else [storage]
        buffers = [c.buffers()[2] for c in chunks]
        if not any(
            _INVISIBLE_BYTES[np.frombuffer(b, dtype=np.uint8)].any()
            for b in buffers
            if b is not None
        ):
            return np.zeros(len(ids), dtype=bool)
    return ids.str.contains(_INVISIBLE, regex=True).to_numpy(dtype=bool)


def _may_contain(values: pd.Series, char: bytes) -> bool:
    """False only when no cell of ``values`` holds the ASCII ``char`` (``may_contain`` on an
    Arrow-backed column; True for any other column)."""
    if not isinstance(values.array, pd.arrays.ArrowStringArray):
        return True
    return may_contain(arrow_storage(values.array), char)


def integer_text(raw: pd.Series, decimal: str = ".") -> pd.Series:
    """Spreadsheet spellings of a whole number as plain digits, by the file's decimal mark.

    ``1650.0`` (a number cell saved as float), ``1.650`` or ``1650,0`` in a decimal-comma file
    (European Excel), ``1,650`` or ``1 650`` as thousands. Ratings, years and counts never have a
    fraction, so a separator followed by exactly three digits is grouping, and a fraction is
    accepted only when it is zero. Anything else is left as it is (and reported by the caller).
    """
    thousands = "." if decimal == "," else ","
    group = rf"[{re.escape(thousands)} \u00a0\u202f]"
    # Plain digits (nearly every cell) need nothing: only cells with another character are
    # rewritten, so a 2-million-row list pays for one scan.
    odd = np.flatnonzero(raw.str.contains(r"[^0-9]", regex=True).to_numpy(dtype=bool))
    if not len(odd):
        return raw
    some = raw.iloc[odd].str.strip().str.removeprefix("+")
    grouped = some.str.fullmatch(rf"[0-9]{{1,3}}(?:{group}[0-9]{{3}})+(?:{re.escape(decimal)}0*)?")
    if grouped.any():
        digits_only = some.str.replace(r"[^0-9" + re.escape(decimal) + "]", "", regex=True)
        some = some.mask(grouped, digits_only)
    some = some.str.replace(rf"^([0-9]+){re.escape(decimal)}0*$", r"\1", regex=True)
    result = raw.copy()
    result.iloc[odd] = some.to_numpy()
    return result


def distinct_cells(table: RawTable, column: str) -> tuple[np.ndarray, pd.Series, pd.Index]:
    """(code of each cell, the distinct cells, the rows' index): ``factorize_text`` of the
    column, or, for a column the file lacks, one blank cell for every row without building and
    hashing a column of blanks (a fixed cost per file: games files rarely carry ratings)."""
    if column in table.frame.columns:
        raw = text(table, column)
        codes, distinct = factorize_text(raw)
        return codes, distinct, raw.index
    rows = len(table.frame)
    return np.zeros(rows, dtype=np.int64), pd.Series([""], dtype=str), pd.RangeIndex(rows)


def spread(values: pd.Series, codes: np.ndarray, index: pd.Index) -> pd.Series:
    """``values`` (one per distinct cell) back over the rows: row i gets ``values[codes[i]]``.

    The parsers below parse each distinct spelling once (a ratings column holds a few thousand,
    a dates column a few dozen, among a million rows) and spread the answer by the codes of
    ``factorize_text``: exact, as every parser is a function of the cell's text alone."""
    return pd.Series(values.array.take(codes), index=index, copy=False)  # a new array: no copy


def parse_int(
    problems: ProblemList,
    table: RawTable,
    column: str,
    *,
    low: int,
    high: int,
    code: Code = Code.BAD_VALUE,
    what: str = "a whole number",
    zero_is_blank: bool = False,
) -> pd.Series:
    """Optional integer column: blank -> <NA>; anything else must be a whole number in range."""
    if column not in table.frame.columns:  # all blank: no cell to parse (see ``distinct_cells``)
        return pd.Series(pd.NA, index=pd.RangeIndex(len(table.frame)), dtype="Int64")
    codes, distinct, index = distinct_cells(table, column)
    numbers, bad = _whole_numbers(distinct, table.decimal, low, high, zero_is_blank)
    report(
        problems,
        table,
        bad.to_numpy(dtype=bool)[codes],
        column,
        code,
        f"expected {what} from {low} to {high}",
        f"write {what} from {low} to {high}, or leave the cell blank",
    )
    return spread(numbers.mask(bad), codes, index)


def _whole_numbers(
    raw: pd.Series, decimal: str, low: int, high: int, zero_is_blank: bool
) -> tuple[pd.Series, pd.Series]:
    """(the number or <NA>, whether the cell is bad) of each cell of ``raw``."""
    blank = raw.str.strip().eq("")
    digits = integer_text(raw, decimal)
    looks_int = digits.str.fullmatch(r"[0-9]{1,9}")
    numbers = digits.where(looks_int & ~blank).astype("Int64")
    if zero_is_blank:
        # 0 is how lists write "unknown" (birth year) or "unrated": blank, whatever the range.
        zero = numbers.eq(0).fillna(False)
        blank = blank | zero
        numbers = numbers.mask(zero)
    bad = (~blank & (~looks_int | (numbers < low) | (numbers > high))).fillna(True)
    return numbers, bad


def parse_round(problems: ProblemList, table: RawTable, column: str = "round") -> pd.Series:
    """Round numbers as text in one spelling: blank (no round), a whole number from 1 to
    ``limits.MAX_ROUND``, or round.game (``3.12``, as PGN writes a match's games), each
    part written plainly, so ``01`` and ``1`` are one round (the paired-twice check compares the
    text); ``1.0`` (a spreadsheet's number) is round 1. ``-1``, ``1e308``, Arabic-Indic or
    full-width digits are reported. Each distinct spelling is parsed once (``spread``)."""
    if column not in table.frame.columns:
        return text(table, column)
    codes, distinct, index = distinct_cells(table, column)
    high = limits.MAX_ROUND
    parts = distinct.str.extract(r"^([0-9]{1,9})(?:\.([0-9]{1,9}))?$")  # ASCII digits only
    main = pd.to_numeric(parts[0]).astype("Int64")
    game = pd.to_numeric(parts[1]).astype("Int64")
    blank = distinct.eq("")
    bad = (~blank & (main.isna() | (main < 1) | (main > high))).fillna(True)
    report(
        problems,
        table,
        bad.to_numpy(dtype=bool)[codes],
        column,
        Code.BAD_VALUE,
        f"the round is not a whole number from 1 to {high} (or round.game, e.g. 3.12)",
        "write the round as a plain number (1, 2, ... in ASCII digits), or leave it blank",
    )
    plain = main.astype("string")
    with_game = game.gt(0).fillna(False)
    plain = plain.mask(with_game, plain + "." + game.astype("string"))
    plain = plain.mask(bad | blank, "").astype(str)
    return spread(plain, codes, index).astype(str)


def parse_rating(problems: ProblemList, table: RawTable, column: str) -> pd.Series:
    """Ratings: blank or 0 = unrated (<NA>); otherwise a whole number up to 3500."""
    return parse_int(
        problems,
        table,
        column,
        low=0,
        high=MAX_RATING,
        code=Code.BAD_RATING,
        what="a rating (whole number)",
        zero_is_blank=True,
    )


_TRUE = {"true", "yes", "y", "1", "x", "t", "wahr", "ja", "si", "oui"}
_FALSE = {"false", "no", "n", "0", "", "f", "falsch", "nein", "non"}


def parse_bool(problems: ProblemList, table: RawTable, column: str) -> pd.Series:
    raw = text(table, column).str.lower()
    is_true = raw.isin(_TRUE)
    bad = ~is_true & ~raw.isin(_FALSE)
    report(problems, table, bad.to_numpy(), column, *CELL_PROBLEMS["bool"])
    return is_true.astype(bool)


def parse_date(problems: ProblemList, table: RawTable, column: str) -> pd.Series:
    codes, distinct, index = distinct_cells(table, column)  # each date parsed once (``spread``)
    blank = distinct.eq("")
    parsed = pd.to_datetime(distinct.where(~blank), format="%Y-%m-%d", errors="coerce")
    bad = ~blank & parsed.isna()
    report(problems, table, bad.to_numpy(dtype=bool)[codes], column, *CELL_PROBLEMS["date"])
    years = parsed.dt.year
    far = (~bad & ~blank & ((years < EARLIEST_YEAR) | (years > LATEST_YEAR))).fillna(False)
    report(problems, table, far.to_numpy(dtype=bool)[codes], column, *CELL_PROBLEMS["far_date"])
    bad = bad | far
    # Valid cells are already in the canonical YYYY-MM-DD form; blanks and bad cells become <NA>.
    return spread(distinct.astype("string").where(~(bad | blank)), codes, index)


def parse_results(
    problems: ProblemList,
    table: RawTable,
    results: dict[str, GameResult] | dict[str, SideResult],
    default: str,
    spellings: str,
) -> list[np.ndarray]:
    """The ``result`` column looked up in ``results`` (one array per field of its tuples); a
    result not in it is reported (bad-result) and read as ``default``."""
    codes, distinct = factorize_text(text(table, "result"))  # each spelling once (``spread``)
    known, fields = lookup(normalize_tokens(distinct), results, default)
    known = known[codes]
    report(
        problems,
        table,
        ~known,
        "result",
        Code.BAD_RESULT,
        "not a result we know",
        f"write one of {spellings}",
    )
    return [_spread_field(field, codes) for field in fields]


def _spread_field(values: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """One field of the distinct results (an object array) over the rows by ``codes``, typed
    first: points and flags as numpy numbers, texts as a ``str`` array that Arrow's take fills
    (a gather of a million Python objects, then their conversion to text, cost ten times more).
    The same values as ``values[codes]``."""
    if not len(values):
        return values[codes]
    if all(isinstance(v, str) for v in values):
        return pd.array(values, dtype=str).take(codes)  # type: ignore[return-value]
    return np.asarray(values.tolist())[codes]


def starting_numbers(numbers: pd.Series) -> tuple[pd.Series, np.ndarray, np.ndarray]:
    """(starting number, not a number, repeats an earlier row's number) per row of an event's
    player list (TRF starting ranks, crosstable numbers); a bad one reads as 0. The caller
    reports both kinds of problem in its own words and keeps the rows that have neither."""
    bad = ~numbers.str.fullmatch(r"[0-9]+").to_numpy()
    sno = pd.to_numeric(numbers.where(~bad, "0")).astype(np.int64)
    repeated = ~bad & sno.duplicated(keep="first").to_numpy()
    return sno, bad, repeated
