"""Text from the input stays text in a spreadsheet: never a formula, never a broken file.

openpyxl stores any string that starts with ``=`` as a formula, so a player named
``=HYPERLINK("http://...","x")`` would become a live link in rating_list.xlsx. Such values (and
those starting with the other characters spreadsheets read as the start of a formula: ``+``,
``-``, ``@``, tab, CR) are written as explicit text cells with Excel's quote prefix, so that
editing the cell does not turn it into a formula either. Characters XML 1.0 cannot hold (control
characters such as NUL) are shown as U+FFFD instead of making openpyxl fail half-way through a
workbook. Numbers never pass through here: they are written as numbers.

CSV outputs keep every value exactly as given (see docs): a CSV file is data for programs, and
rewriting a name there (a leading quote, a dropped sign) would change the data; open a CSV in a
spreadsheet through its import dialog with the columns set to text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # openpyxl (0.3 s to import) only where an openpyxl sheet is written
    from openpyxl.worksheet.worksheet import Worksheet

# The characters XML 1.0 cannot hold (openpyxl's ILLEGAL_CHARACTERS_RE, and the two
# non-characters U+FFFE and U+FFFF).
# One character class: the same characters as openpyxl's four alternatives, matched without
# trying each alternative at every position.
ILLEGAL_CHARACTERS_RE = re.compile(r"[\000-\010\013\014\016-\037\ufffe\uffff]")

# First characters a spreadsheet may read as the start of a formula (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def is_risky(text: str) -> bool:
    return text.startswith(FORMULA_STARTS)


def xml_safe(text: str) -> str:
    """``text`` with the characters XML 1.0 cannot hold replaced by U+FFFD."""
    if ILLEGAL_CHARACTERS_RE.search(text) is None:  # nearly always: no copy made
        return text
    return ILLEGAL_CHARACTERS_RE.sub("\ufffd", text)


def text_cell(ws: Worksheet, text: str) -> object:
    """``text`` as a value ``ws.append`` stores as a text cell, whatever it starts with.

    Ordinary text is returned as is (openpyxl writes it as a string); risky text becomes a
    write-only cell typed as a string with the quote prefix set.
    """
    from openpyxl.cell import WriteOnlyCell

    text = xml_safe(text)
    if not is_risky(text):
        return text
    cell = WriteOnlyCell(ws, value=text)
    cell.data_type = "s"  # openpyxl typed a leading "=" as a formula: it is text
    cell.quotePrefix = True
    return cell
