"""The ``--period`` option's value: ``YYYY-MM``, the current month when not given (no pandas
here: the calculator reads it too)."""

from __future__ import annotations

import datetime as dt
import re

from pipeline.errors import UsageError

# FIDE published its first rating list in 1971: no rating period comes before it. (The oldest era
# of docs/rules-by-era.md, standard-2006, stands in for every period before 2006.)
FIRST_YEAR = 1971
# A period more than a year ahead holds no game yet: 2062-11 is a typo for 2026-11.
YEARS_AHEAD = 1


def resolve_period(period: str | None, today: dt.date | None = None) -> str:
    """``YYYY-MM``; the current month when not given. A bad value is a usage error (exit 2)."""
    today = today or dt.date.today()
    if period is None:
        return f"{today.year:04d}-{today.month:02d}"
    if not re.fullmatch(r"[0-9]{4}-(0[1-9]|1[0-2])", period):
        shape = re.fullmatch(r"([0-9]{4})-([0-9]{1,2})", period)
        if shape and len(shape[2]) == 2:
            why = f": month {shape[2]} is not a month (01 to 12)"
        elif shape and 1 <= int(shape[2]) <= 9:
            why = f": the month takes two digits, {shape[1]}-{int(shape[2]):02d}"
        else:
            why = ""
        raise UsageError(f"--period must be YYYY-MM, e.g. 2026-11 (got {period!r}{why})")
    last = today.year + YEARS_AHEAD
    if not FIRST_YEAR <= int(period[:4]) <= last:
        raise UsageError(
            f"--period {period!r} is not a plausible rating period: periods run from "
            f"{FIRST_YEAR}-01 (FIDE's first rating list was published in {FIRST_YEAR}) to "
            f"{last}-12 (next year); check the year"
        )
    return period
