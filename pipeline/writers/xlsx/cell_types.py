"""Which cells of a workbook are numbers, and how each number is shown: one rule for every
workbook (``rate``'s rating list, report and player workbooks, the Norms sheet, ``period``'s
list and report, ``convert``'s games file).

Tables reach the writers as text, the CSV outputs' own. A column named in ``NUMBER_COLUMNS``
holds numbers: a cell whose text is a plain decimal (``2712``, ``-6.60``) is written as that
number, the text itself being the file's value (the CSV's exact decimal, never a binary float's
``repr``), with a number format that shows as many decimals as the text has (``0.00`` for
hundredths), signed (``+0.00``) in the columns that hold differences. So the sheet shows what
the CSV says and Excel can sort and sum it. Text that is not a plain decimal (a blank, ``+``)
stays as it is.

Every other column is text, whatever it holds: ids (a FIDE id is a key, never a quantity; ``0042``
keeps its zeros), names (a newcomer without a name is listed under its id), dates, flags.
``ID_COLUMNS`` are text in every sheet, an opponent's too: a look-up from a player sheet into the
Summary needs the same type on both sides, and one column cannot mix a number (``4655850``)
with text (``karl-mala-2005#171``, an event's own id for a player without a FIDE id). The sheet
tells Excel those cells are text on purpose (``ignoredErrors``), so no "number stored as text"
flag. ``WHOLE_COLUMNS`` take whole numbers only: a round such as ``1.10`` is a name, not 1.1. A
game's result on a player sheet is the side's points (1, 0.5, 0), as the score total counts them;
the marks of unplayed games (+, -) stay text, as crosstables print them: they are no points of a
game.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from pipeline.rules.norm_labels import REQUIREMENTS

# Differences: shown with their sign.
SIGNED_COLUMNS = {
    "change_exact",
    "dev",
    "k_dev",
    "sum_dev",
    "k_x_sum_dev",
    # the Norms sheet: margins (+ spare, - short)
    *(f"{name}_margin" for name in REQUIREMENTS),
}
NUMBER_COLUMNS = {
    *SIGNED_COLUMNS,
    # ratings, K, counts (rate's report and list, period's report and list)
    "rating",
    "k",
    "games",
    "change",
    "new_rating",
    "published_rating",
    "next_k",
    "player_rating",
    "opponent_rating",
    "white_rating",
    "black_rating",
    "birth_year",
    "period_games",
    "diff",
    "round_no",
    "rank",
    "line",
    "gap",
    "gap_used",
    "performance",
    "rating_used",
    # scores and expected scores
    "score",
    "points",
    "expected",
    "pd",
    # first ratings: the pool, Ra (hundredths), Ru
    "pooled_games",
    "opponents_sum",
    "ra",
    "p",
    "dp",
    "ru",
    # the Norms sheet
    "played",
    "unrated",
    "lowest",
    "raised_to",
    "norm_games",
}
# Numbers only when whole: rounds (1.10 is a name) and the counts of a Summary or About sheet's
# ``value`` (beside text values).
WHOLE_COLUMNS = {"round", "value"}
# Players' ids, text in every workbook (a FIDE id, an event's own "karl-mala-2005#171"); the
# writer marks their cells as text on purpose (``Sheet.ignore_text_ids``).
ID_COLUMNS = {"id", "player", "opponent", "white", "black"}
SIDE_SCORES = {"1": "1", "½": "0.5", "0": "0"}

# A plain decimal as the CSV writes it: no leading zeros, no exponent, no plus sign.
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")
_WHOLE = re.compile(r"-?(?:0|[1-9][0-9]*)")
EXCEL_DIGITS = 15  # Excel keeps 15 significant digits: a longer number would not show as is


class Number(NamedTuple):
    """A number cell: ``text`` is the value written (a plain decimal), ``num_format`` the number
    format it is shown with ("" for General)."""

    text: str
    num_format: str


def number_format(decimals: int, signed: bool) -> str:
    """The format that shows ``decimals`` decimals (and the sign, if ``signed``)."""
    digits = "0." + "0" * decimals if decimals else "0"
    if signed:
        return f"+{digits};-{digits};{digits}"
    return digits if decimals else ""


def is_text_column(column: str) -> bool:
    """Whether every cell of ``column`` is text (a blank aside): :func:`cell_value` of a text
    ``t`` there is ``t`` itself, None for ``""``."""
    return column != "result" and column not in WHOLE_COLUMNS and column not in NUMBER_COLUMNS


@lru_cache(maxsize=1 << 16)
def cell_value(column: str, text: str) -> str | Number | None:
    """A table's cell as written: None (blank), a ``Number`` or text (see the module's rule).
    Cached: the same few texts (ratings, K, PD) fill most cells of a report."""
    if text == "":
        return None
    if column == "result" and text in SIDE_SCORES:
        return Number(SIDE_SCORES[text], "")
    if column in WHOLE_COLUMNS:
        pattern = _WHOLE
    elif column in NUMBER_COLUMNS:
        pattern = _DECIMAL
    else:
        return text
    digits = len(text) - text.startswith("-") - ("." in text)
    if not pattern.fullmatch(text) or digits > EXCEL_DIGITS:
        return text
    decimals = len(text.partition(".")[2])
    return Number(text, number_format(decimals, column in SIGNED_COLUMNS))
