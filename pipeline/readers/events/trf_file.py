"""FIDE TRF (TRF16, and the TRF26 player record): header records, 001 player lines, round cells.

Layout in ../shared/fide/TRF.md. Real files bend it: lowercase titles, free-text dates, lines
ending in CR alone, ``###`` comments, XX*/BB*/013/2xx/3xx records (kept in ``EventInfo.kept``,
never a failure). Fields are cut by column; each bad field is reported with its line, columns
and text. Pairing both sides of every game happens in :mod:`.pairing`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.errors import Code, InputError, Omitted, Problem, split_omitted
from pipeline.file_names import shown_name
from pipeline.model import EventInfo, GamesInput, InputFile
from pipeline.problem_list import ProblemList
from pipeline.readers import limits
from pipeline.readers.events import dates, trf_players
from pipeline.readers.events.pairing import build_event
from pipeline.readers.events.trf_players import ROUND_START, ROUND_WIDTH
from pipeline.readers.events.trf_rounds import round_cells
from pipeline.readers.limits import Source

# A problem that explains the rest (a file cut short) is listed with this many of them.
FOLLOW_UPS = 10
HEADER_TAGS = {"012": "name", "042": "start", "052": "end", "XXR": "rounds", "142": "rounds"}
KEPT_TAG = re.compile(r"^(0[0-9][0-9]|1[0-9][0-9]|[23][0-9][0-9]|XX.|BB.)$")
# Records of TRF16 and its successors that we keep unread: header records end in 2 (022 city,
# 102 arbiter, TRF26's 142 ... 232), 013 and 2xx/3xx are team and pairing-engine records,
# XX*/BB* extensions. Any other line (``101``, text) is kept too, with a warning.
KNOWN_KEPT = re.compile(r"^([01][0-9]2|013|[23][0-9][0-9]|XX.|BB.)$")
# How many unknown records a warning quotes.
QUOTED = 3


def decode(path: Source, data: bytes) -> str:
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


def read_trf(path: Path | str | InputFile, dates_needed: bool = True) -> GamesInput:
    """The event of the TRF ``path``; raises InputError listing every problem found.
    ``dates_needed``: see :attr:`pipeline.model.ReadOptions.dates_needed`."""
    path = limits.as_source(path)
    data = limits.read_input(path)
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
    text = decode(path, data)
    event = parse_trf(text, str(path), problems, dates_needed)
    if problems:
        cut = truncation(text, str(path))
        found = problems.problems if cut is None else root_cause_first(cut, problems.problems)
        raise InputError(found, warnings=event.info.warnings if event.info else ())
    return event


def truncation(text: str, source: str) -> Problem | None:
    """The problem a file cut short shows (a broken download): fewer 001 records than its 062
    record announces, or a last line that ends mid-record without a line break. Asked only when
    the file has other problems: then they mostly follow from the cut, and this one says so."""
    lines = re.split(r"\r\n|\r|\n", text)
    found = sum(1 for line in lines if line.startswith("001"))
    announced = next((line[4:].strip() for line in lines if line.startswith("062")), "")
    short = announced.isascii() and announced.isdigit() and found < int(announced)
    last = len(lines)
    # Cut mid-record: no line break after the last 001 line, and it is shorter than every
    # other one (records are padded to the same columns; the last one lost its tail).
    others = [len(line) for line in lines[:-1] if line.startswith("001")]
    cut = (
        not text.endswith(("\n", "\r"))
        and lines[-1].startswith("001")
        and bool(others)
        and len(lines[-1]) < min(others)
    )
    if not short and not cut:
        return None
    said = []
    if short:
        said.append(
            f"record 062 announces {int(announced)} players, but only {found} player "
            "records (001) are in the file"
        )
    if cut:
        said.append(f"the last line (row {last}) ends mid-record, without a line break")
    return Problem(
        Code.TRUNCATED_FILE,
        f"the file looks cut short: {'; '.join(said)}; the problems below follow from it",
        file=source,
        row=last if cut else None,
        column="062" if short and not cut else "",
        fix="get the whole file again (an interrupted download or copy), or correct the "
        "062 record if players were removed on purpose",
    )


def root_cause_first(cause: Problem, rest: list[Problem]) -> list[Problem]:
    """``cause``, then the first :data:`FOLLOW_UPS` of the problems it explains, then a count
    of the others: a file cut after 20 of its 52 players gives dozens of unknown opponents."""
    kept, omitted = split_omitted(rest)
    more = len(kept) - FOLLOW_UPS + omitted
    tail = [Omitted.of(more, cause.file)] if more > 0 else []
    return [cause, *kept[:FOLLOW_UPS], *tail]


def parse_trf(
    text: str, source: str, problems: ProblemList, dates_needed: bool = True
) -> GamesInput:
    lines = re.split(r"\r\n|\r|\n", text)
    _refuse_long_lines(lines, source)
    info = EventInfo(records=lines[:-1] if lines and lines[-1] == "" else list(lines))
    ending = re.search(r"\r\n|\r|\n", text)
    if ending is not None:
        info.newline = ending.group(0)
    players: list[tuple[int, str]] = []
    # Where the number of rounds was announced (tag, line), for the rounds check below.
    announced: tuple[str, int] | None = None
    for number, line in enumerate(lines, start=1):
        tag = line[:3]
        if tag == "001":
            players.append((number, line))
        elif tag in HEADER_TAGS:
            header = Header(info, line, number, source, problems, dates_needed)
            _header(header, HEADER_TAGS[tag])
            if HEADER_TAGS[tag] == "rounds" and info.rounds is not None:
                announced = (tag, number)
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
    _unknown_records(info, source)
    _starting_rank_gaps(info, roster["sno"], source)
    cells = round_cells(raw, numbers, roster["sno"], source, problems)
    if announced is not None:
        _past_the_rounds(info, cells, announced, source)
    if info.rounds is None and len(cells):
        info.rounds = int(cells["round"].max())
    return build_event(source, roster.drop(columns="ok"), cells, info, problems)


def _refuse_long_lines(lines: list[str], source: str) -> None:
    """Refuse a line longer than any record (``limits.MAX_TRF_LINE``) before a field is cut:
    the round cells of all lines are cut as one matrix as wide as the longest line, and one
    100 MB line made that matrix tens of gigabytes."""
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    long = np.flatnonzero(lengths > limits.MAX_TRF_LINE)
    if not len(long):
        return
    problems = ProblemList()
    for at in problems.within_room(long, source):
        problems.add(
            Code.TOO_LARGE,
            f"line {at + 1} is {int(lengths[at]):,} characters long; no TRF record is longer "
            f"than {limits.MAX_TRF_LINE:,} ({limits.MAX_TRF_ROUNDS} rounds): refused unread",
            file=source,
            row=int(at) + 1,
            value=lines[at][:40],
            fix="check the file: a record may have lost its line breaks, or this is not a TRF",
        )
    raise InputError(problems.problems)


@dataclass(frozen=True)
class Header:
    """One header record being read, with where its problems and warnings go."""

    info: EventInfo
    line: str
    number: int
    source: str
    problems: ProblemList
    dates_needed: bool

    def bad_date(self, message: str, fix: str) -> None:
        """A start or end date that cannot be used: a problem when the events' dates choose
        the period, else (``--period`` given) a warning: nothing else needs it."""
        value = self.line[4:].strip()
        if not self.dates_needed:
            self.info.warnings.append(
                f"{shown_name(self.source)}, line {self.number} ({self.line[:3]}): {message} "
                f"({value!r}): not used, as --period gives the period"
            )
            return
        self.problems.add(
            Code.BAD_VALUE,
            message,
            file=self.source,
            row=self.number,
            column=f"{self.line[:3]} (columns 5-)",
            value=value,
            fix=fix,
        )


def _header(header: Header, field: str) -> None:
    info, line, number, source = header.info, header.line, header.number, header.source
    value = line[4:].strip()
    if field == "name":
        info.name = value
    elif field == "rounds":
        if value.isascii() and value.isdigit():
            info.rounds = int(value)
        elif value:
            header.problems.add(
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
            header.bad_date(
                f"the {field} date is in no layout we know",
                "write the date as YYYY/MM/DD, e.g. 2026/11/07",
            )
        elif not dates.plausible(parsed):
            header.bad_date(
                f"the {field} date {parsed} is outside the dates we rate ({dates.DATE_BOUNDS})",
                "correct the year, e.g. 2026/11/07",
            )
            parsed = None
        setattr(info, field, parsed)


def _unknown_records(info: EventInfo, source: str) -> None:
    """Warn of lines that are no record we know (kept as read, never a failure: real files hold
    vendors' records), quoting the first :data:`QUOTED`."""
    unknown = [(row, line) for row, line in info.kept if not KNOWN_KEPT.match(line[:3])]
    if not unknown:
        return
    quoted = ", ".join(f"line {row} ({line[:3]!r})" for row, line in unknown[:QUOTED])
    more = f" and {len(unknown) - QUOTED} more" if len(unknown) > QUOTED else ""
    info.warnings.append(
        f"{shown_name(source)}: {quoted}{more}: no TRF record we know; kept as read, not used "
        "(a TRF record starts with its three-character tag: 001, 012, 042, XXR, ...)"
    )


def _starting_rank_gaps(info: EventInfo, sno: pd.Series, source: str) -> None:
    """Warn when the starting ranks are not 1 to the number of players: a player removed
    (by hand, or by a tool that did not renumber) whose games may be missing."""
    ranks = np.unique(sno.to_numpy(dtype=np.int64))
    if not len(ranks) or (ranks[0] == 1 and ranks[-1] == len(ranks)):
        return
    expected = np.arange(1, int(ranks[-1]) + 1)
    missing = np.setdiff1d(expected, ranks)
    shown = ", ".join(str(int(n)) for n in missing[:QUOTED])
    more = f" and {len(missing) - QUOTED} more" if len(missing) > QUOTED else ""
    info.warnings.append(
        f"{shown_name(source)}: the starting ranks run to {int(ranks[-1])} for "
        f"{len(ranks)} players: no player has {shown}{more}; check that no player was left "
        "out of the file"
    )


def _past_the_rounds(
    info: EventInfo, cells: pd.DataFrame, announced: tuple[str, int], source: str
) -> None:
    """Warn when games are given past the number of rounds the file announces (``XXR``/142):
    they are read and rated as bbpPairings and FIDE's server read them, and the rounds counted
    are those played."""
    declared = info.rounds or 0
    past = cells[(cells["opp"] > 0).to_numpy() & (cells["round"] > declared).to_numpy()]
    if not len(past):
        return
    last = int(past["round"].max())
    first = past.sort_values(["line", "round"], kind="stable").iloc[0]
    tag, row = announced
    info.warnings.append(
        f"{shown_name(source)}: {tag} (line {row}) announces {declared} round(s), but games "
        f"are given up to round {last} (first at line {int(first['line'])}, round "
        f"{int(first['round'])}): all {last} rounds are read and rated; correct the {tag} "
        "record if they belong to the event"
    )
    info.rounds = last


def _round_dates(info: EventInfo, line: str) -> None:
    for r, start in enumerate(range(ROUND_START, len(line), ROUND_WIDTH), start=1):
        parsed = dates.parse_date(line[start : start + 8])
        if parsed:
            info.round_dates[r] = parsed
