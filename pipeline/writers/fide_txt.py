"""FIDE's fixed-width TXT layout for a single-type list (``standard_rating_list.txt``).

Layout (../shared/fide/RATING_LISTS.md): 136 characters a line, CRLF, one header line whose tokens
start at the field offsets; unrated is written as 0. The layout is data: (header, start, end,
column) per field. Values are left-aligned in their field and cut to fit, like FIDE's own files.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

LINE_WIDTH = 136

# (header token, start, end, column of the text table); the rating header is the month label.
SINGLE_TYPE_FIELDS: list[tuple[str, int, int, str]] = [
    ("ID Number", 0, 15, "id"),
    ("Name", 15, 76, "name"),
    ("Fed", 76, 80, "federation"),
    ("Sex", 80, 84, "sex"),
    ("Tit", 84, 89, "title"),
    ("WTit", 89, 94, "w_title"),
    ("OTit", 94, 109, "o_title"),
    ("FOA", 109, 113, "foa_title"),
    ("{month}", 113, 119, "rating"),
    ("Gms", 119, 123, "period_games"),
    ("K", 123, 126, "k"),
    ("B-day", 126, 132, "birth_year"),
    ("Flag", 132, 136, "flags"),
]

WOMEN_TITLES = {"WGM", "WIM", "WFM", "WCM", "WH"}


def _field(values: pd.Series, width: int) -> np.ndarray:
    return values.astype(str).str.slice(0, width - 1).str.ljust(width).to_numpy()


def fide_txt_lines(table: pd.DataFrame, month_label: str) -> list[str]:
    """The header and one line per player. ``table`` is the text table of the list
    (:func:`pipeline.publish.list_file.list_text_table`)."""
    t = table.copy()
    titles = t["title"].astype(str)
    women = titles.str.upper().isin(WOMEN_TITLES)
    # FIDE prints a women's title in WTit and the open title in Tit.
    t["w_title"] = titles.where(women, "")
    t["title"] = titles.where(~women, "")
    t["o_title"] = ""
    t["foa_title"] = ""
    sex = t["sex"].astype(str).str.lower()
    t["sex"] = np.select([sex.isin(["w", "f"]), sex.eq("m")], ["F", "M"], "")
    for column in ("rating", "period_games", "k", "birth_year"):
        t[column] = t[column].astype(str).replace("", "0")
    header = ""
    for token, start, _end, _ in SINGLE_TYPE_FIELDS:
        header = header.ljust(start) + token.format(month=month_label)
    header = header.ljust(LINE_WIDTH)
    if len(t) == 0:
        return [header]
    line = np.full(len(t), "", dtype=object)
    for _, start, end, column in SINGLE_TYPE_FIELDS:
        line = line + _field(t[column], end - start)
    return [header, *line.tolist()]


def write_fide_txt(table: pd.DataFrame, path: Path, month_label: str) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        fh.write("\r\n".join(fide_txt_lines(table, month_label)) + "\r\n")
