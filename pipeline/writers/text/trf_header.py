"""TRF header records given on the command line (``fiderate convert --name --city ...``), and
the TRF-to-TRF conversion that keeps every record it does not have to change.

A TRF converted to a TRF is written back record for record: header records (``XXR 9`` stays
``XXR 9`` after round 4), extensions and player records as read. Only what must change changes:
a header record given as an option, and the rating of a player whose rating in force (from
``--players``) is not the one the file prints (columns 49-52 of the 001 record).
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from pipeline.errors import RunError
from pipeline.readers.events.dates import find_date, trf_date

# Option name -> TRF tag (TRF.md, header records); dates are written YYYY/MM/DD.
HEADER_OPTIONS = {
    "name": "012",
    "city": "022",
    "federation": "032",
    "start": "042",
    "end": "052",
    "arbiter": "102",
    "time_control": "122",
}
DATE_TAGS = {"042", "052"}


def header_records(options: Mapping[str, str | None]) -> dict[str, str]:
    """tag -> the record text for each option given; a date that cannot be read is refused."""
    records = {}
    for option, value in options.items():
        if value is None or value == "":
            continue
        tag = HEADER_OPTIONS[option]
        if tag in DATE_TAGS:
            parsed = find_date(value)
            if parsed is None:
                raise RunError(
                    f"--{option} {value!r} is not a date: write it as YYYY-MM-DD, e.g. 2026-11-07"
                )
            value = trf_date(parsed)
        records[tag] = f"{tag} {value}"
    return records


def _tag_key(tag: str) -> int:
    return int(tag) if tag.isdigit() else 1000


def with_header(lines: list[str], records: Mapping[str, str]) -> list[str]:
    """``lines`` with each record of ``records`` replacing the line of its tag, or inserted
    among the numbered header records in tag order (before the first 001 record otherwise)."""
    out = list(lines)
    for tag, record in sorted(records.items()):
        at = next((i for i, line in enumerate(out) if line[:3] == tag), None)
        if at is not None:
            out[at] = record
            continue
        after = next(
            (
                i
                for i, line in enumerate(out)
                if line[:3] == "001" or (line[:3].isdigit() and _tag_key(line[:3]) > int(tag))
            ),
            len(out),
        )
        out.insert(after, record)
    return out


def _rating_text(value: object) -> str:
    return "" if pd.isna(value) else str(int(value))  # type: ignore[call-overload]


def keep_records(
    records: list[str], ratings: pd.Series, header: Mapping[str, str], newline: str = "\r\n"
) -> tuple[str, list[str]]:
    """The TRF read as ``records``, with the header options applied and each 001 record's
    rating set to ``ratings`` (starting rank -> rating in force) where it differs, its lines
    ended by ``newline`` (the input's own: a TRF converted to a TRF changes no line ending).
    Returns (text, notes)."""
    changed = 0
    out = []
    for line in records:
        if line[:3] == "001" and line[4:8].strip().isdigit():
            sno = int(line[4:8])
            printed = line[48:52].strip()
            printed = "" if printed in ("", "0") else printed
            if sno in ratings.index:
                wanted = _rating_text(ratings[sno])
                if wanted != printed:
                    padded = line.ljust(52)
                    line = padded[:48] + f"{wanted or '0':>4}" + padded[52:]
                    line = line.rstrip() if len(line.rstrip()) < 52 else line
                    changed += 1
        out.append(line)
    notes = (
        [f"{changed} rating(s) set from the list in force (columns 49-52); other records as read"]
        if changed
        else []
    )
    return newline.join(with_header(out, header)) + newline, notes
