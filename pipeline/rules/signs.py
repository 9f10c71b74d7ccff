"""How a difference is shown, on every face: with its sign.

A rating change, a rating gap, S - PD and K x (S - PD) read ``+7``, ``+0.08``, ``0``, ``0.00``,
``-3`` in the console, report.html, the web pages, ``fiderate history`` and the rating site alike
(the CSV and XLSX files keep their plain exact decimals, which a program reads). ``signed`` is
the one-value form; :func:`pipeline.arrays.number_text.signed_text` applies the same pattern to
a table's column. Kept free of pandas: the small commands (``calc``, ``table``) use it.
"""

from __future__ import annotations

import re

# A positive plain decimal, as an exact sum's text or a whole number is written: not zero, no
# sign. Zero stays bare (``0``, ``0.00``), as the web pages have always shown it.
POSITIVE_DECIMAL = r"(?=[0-9.]*[1-9])[0-9]+(?:\.[0-9]+)?"
_POSITIVE = re.compile(POSITIVE_DECIMAL)


def signed(value: int | str) -> str:
    """A difference for reading, from a whole number or an exact decimal's text: ``+`` before a
    positive one; zero, negatives and anything else (a blank, words) as they are."""
    text = str(value)
    return "+" + text if _POSITIVE.fullmatch(text) else text
