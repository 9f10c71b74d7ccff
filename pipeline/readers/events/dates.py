"""Free-text dates as real event files hold them, e.g. ``2005/07/28``, ``28. 07. 2005``,
``24/09/2010``, ``May 29, 2020``. The accepted layouts are data: (pattern, order of the groups).
"""

from __future__ import annotations

import datetime as dt
import re

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january", "januar", "jänner", "enero", "ene", "janvier", "janv"),
            ("feb", "february", "februar", "febrero", "février", "fevrier", "févr"),
            ("mar", "march", "märz", "maerz", "marzo", "mars", "mär"),
            ("apr", "april", "abril", "avril", "abr", "avr"),
            ("may", "mai", "mayo"),
            ("jun", "june", "juni", "junio", "juin"),
            ("jul", "july", "juli", "julio", "juillet", "juil"),
            ("aug", "august", "agosto", "août", "aout", "ago"),
            ("sep", "sept", "september", "septiembre", "septembre", "set"),
            ("oct", "october", "oktober", "octubre", "octobre", "okt"),
            ("nov", "november", "noviembre", "novembre"),
            (
                "dec",
                "december",
                "dezember",
                "diciembre",
                "décembre",
                "decembre",
                "dez",
                "dic",
                "déc",
            ),
        ),
        start=1,
    )
    for name in names
}

# (pattern, group order): Y = year, M = month (number or name), D = day, y = two-digit year.
# Day-first comes before month-first: European files write 24/09/2010; 09/24/2010 is read as
# month-first only because 24 cannot be a month.
DATE_LAYOUTS: list[tuple[str, str]] = [
    (r"([0-9]{4})\s*[/.\-]\s*([0-9]{1,2})\s*[/.\-]\s*([0-9]{1,2})", "YMD"),
    (r"([0-9]{1,2})\s*[/.\-]\s*([0-9]{1,2})\s*[/.\-]\s*([0-9]{4})", "DMY"),
    (r"([0-9]{1,2})\s*[/.\-]\s*([0-9]{1,2})\s*[/.\-]\s*([0-9]{4})", "MDY"),
    (r"([^\W\d_]+)\.?\s+([0-9]{1,2})(?:st|nd|rd|th)?,?\s+([0-9]{4})", "MDY"),
    (r"([0-9]{1,2})\.?\s*([^\W\d_]+)\.?,?\s+([0-9]{4})", "DMY"),
    (r"([0-9]{2})/([0-9]{2})/([0-9]{2})", "yMD"),  # TRF 132 round dates
]


# The years an event's dates may fall in: FIDE's rating system began in 1970, and a year past
# 2099 is a typo (9999-12-31 is a spreadsheet's "no end"). 0001 or 9999 would otherwise pass as
# real dates and decide the rating period.
EARLIEST_YEAR = 1970
LATEST_YEAR = 2099
DATE_BOUNDS = f"{EARLIEST_YEAR}-01-01 to {LATEST_YEAR}-12-31"


def plausible(iso: str) -> bool:
    """Whether the date ``YYYY-MM-DD`` falls within ``DATE_BOUNDS``."""
    return EARLIEST_YEAR <= int(iso[:4]) <= LATEST_YEAR


def _month(text: str) -> int | None:
    if text.isascii() and text.isdigit():
        return int(text)
    return MONTHS.get(text.lower())


def parse_date(text: str) -> str | None:
    """``YYYY-MM-DD`` or None when ``text`` is in no layout we know (or not a real date)."""
    text = text.strip()
    for pattern, order in DATE_LAYOUTS:
        match = re.fullmatch(pattern, text)
        if not match:
            continue
        parts = dict(zip(order, match.groups(), strict=True))
        year = int(parts["Y"]) if "Y" in parts else 2000 + int(parts["y"])
        month = _month(parts["M"])
        if month is None:
            continue
        try:
            return dt.date(year, month, int(parts["D"])).isoformat()
        except ValueError:
            continue
    return None


def find_date(text: str) -> str | None:
    """:func:`parse_date`, or else the first date inside free text such as
    ``2010/09/24 - 2010/10/02`` or ``Start: 28.07.2005``."""
    exact = parse_date(text)
    if exact is not None:
        return exact
    for pattern, _ in DATE_LAYOUTS:
        for match in re.finditer(pattern, text):
            found = parse_date(match.group(0))
            if found is not None:
                return found
    return None


def birth_year(text: str) -> int | None:
    """The year of a birth date given as ``1978/04/23``, ``1978.04.23``, ``1978/00/00``, ``1978``,
    ``23.04.1978``; None when blank. Raises ValueError for anything else."""
    text = text.strip()
    if not text or re.fullmatch(r"0+([/.\-]0+[/.\-]0+)?", text):
        return None
    match = re.fullmatch(r"([0-9]{4})(?:\s*[/.\-]\s*[0-9]{1,2}\s*[/.\-]\s*[0-9]{1,2})?", text)
    if match:
        return int(match.group(1))
    full = parse_date(text)
    if full is not None:
        return int(full[:4])
    raise ValueError(text)


def trf_date(iso: str | None) -> str:
    """``YYYY/MM/DD`` as TRF26 writes dates (blank when unknown)."""
    return iso.replace("-", "/") if iso else ""
