"""The ``--period`` option's value: ``YYYY-MM``, the current month when not given (no pandas
here: the calculator reads it too)."""

from __future__ import annotations

import datetime as dt
import re

from pipeline.errors import RunError


def resolve_period(period: str | None, today: dt.date | None = None) -> str:
    """``YYYY-MM``; the current month when not given."""
    if period is None:
        today = today or dt.date.today()
        return f"{today.year:04d}-{today.month:02d}"
    if not re.fullmatch(r"[0-9]{4}-(0[1-9]|1[0-2])", period):
        shape = re.fullmatch(r"([0-9]{4})-([0-9]{1,2})", period)
        if shape and len(shape[2]) == 2:
            why = f": month {shape[2]} is not a month (01 to 12)"
        elif shape and 1 <= int(shape[2]) <= 9:
            why = f": the month takes two digits, {shape[1]}-{int(shape[2]):02d}"
        else:
            why = ""
        raise RunError(f"--period must be YYYY-MM, e.g. 2026-11 (got {period!r}{why})")
    return period
