"""Swiss crosstables (CSV/XLSX): one row per player, one column per round, cells like ``12w1``.

Cell spellings are data (``CELL_RESULTS``, ``CELL_BYES``). The players' own columns (number,
name, rating, id, federation, birth year, title, sex, points) are read here for the Swiss table
and the round-robin grid alike (:func:`roster`).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.errors import Code
from pipeline.model import EventInfo, GamesInput
from pipeline.problem_list import ProblemList
from pipeline.readers.events import dates
from pipeline.readers.events.crosstable_columns import Layout
from pipeline.readers.events.event_codes import SEXES, TITLES
from pipeline.readers.events.pairing import CELL_COLUMNS, build_event
from pipeline.readers.tables import cells as cellparse
from pipeline.readers.tables.tabular import RawTable

# A result as crosstables write it (after lower-casing and removing spaces) -> TRF code.
CELL_RESULTS: dict[str, str] = {
    "1": "1",
    "0": "0",
    "½": "=",
    "=": "=",
    "0.5": "=",
    "0,5": "=",
    ".5": "=",
    ",5": "=",
    "1/2": "=",
    "+": "+",
    "-": "-",
    "1f": "+",
    "0f": "-",
    "1k": "+",
    "0k": "-",
}
# A whole cell that is a bye or absence -> TRF code.
CELL_BYES: dict[str, str] = {
    "-": "Z",
    "+": "F",
    "bye": "U",
    "bye1": "F",
    "bye+": "F",
    "bye½": "H",
    "bye=": "H",
    "bye0.5": "H",
    "bye0,5": "H",
    "½bye": "H",
    "h": "H",
    "f": "F",
    "u": "U",
    "z": "Z",
    "spielfrei": "U",
    "frei": "U",
    "libre": "U",
    "exento": "U",
    "abs": "Z",
    "absent": "Z",
}
# Colour letters: w/b (English), s (German schwarz), also written in capitals.
CELL_COLOURS = {"w": "w", "b": "b", "s": "b", "": ""}
_RESULT_RE = "|".join(re.escape(r) for r in sorted(CELL_RESULTS, key=len, reverse=True))
GAME_CELL = re.compile(rf"^(?P<opp>[0-9]+)(?P<colour>[wbs]?)(?P<res>{_RESULT_RE})$")
CELL_HELP = "12w1, 5b½, 5b0.5, 7w=, 3b0, 8w+ / 8b- (forfeit); - , bye, + (byes); blank (absent)"


def _points_h(text: pd.Series) -> pd.Series:
    """'4.5', '4,5', '4½', '½' -> hundredths; '' -> <NA>; anything else -> -1 (reported)."""
    t = text.str.replace(" ", "").str.replace(",", ".").str.replace("½", ".5")
    t = t.str.replace(r"^\.5$", "0.5", regex=True).str.replace(
        r"^([0-9]+)\.\.5$", r"\1.5", regex=True
    )
    ok = t.str.fullmatch(r"[0-9]{1,3}(\.(0+|50*))?") | t.eq("")
    value = pd.to_numeric(t.where(ok & t.ne(""), None))
    halves = (value * 2).round().astype("Int64") * 50  # exact: only .0 and .5 pass the pattern
    return halves.where(ok, -1)


def _numbers(
    table: RawTable, role: dict[str, str], problems: ProblemList
) -> tuple[pd.Series, np.ndarray]:
    """(starting number, usable) per row: the number column, or the row order when there is
    none (players numbered as printed)."""
    n = len(table.frame)
    if "number" not in role:
        return pd.Series(np.arange(1, n + 1), dtype=np.int64), np.ones(n, dtype=bool)
    number_text = cellparse.text(table, role["number"]).str.replace(
        r"^([0-9]+)\.0*$", r"\1", regex=True
    )
    sno, bad, dup = cellparse.starting_numbers(number_text)
    cellparse.report(
        problems,
        table,
        bad,
        role["number"],
        Code.BAD_ID,
        "the starting number is not a whole number",
        "number the players 1, 2, 3, ... as in the round cells",
    )
    cellparse.report(
        problems,
        table,
        dup,
        role["number"],
        Code.DUPLICATE_PLAYER,
        "two players have this number",
        "give every player their own number",
    )
    return sno, ~bad & ~dup


def _text_or_blank(table: RawTable, role: dict[str, str], name: str) -> pd.Series:
    """The text of the column with role ``name``; blank cells when the table has none."""
    if name in role:
        return cellparse.text(table, role[name])
    return pd.Series([""] * len(table.frame), dtype=str)


def roster(table: RawTable, layout: Layout, problems: ProblemList) -> pd.DataFrame:
    frame = table.frame
    role = layout.roles
    n = len(frame)
    sno, ok = _numbers(table, role, problems)
    ids = (
        cellparse.parse_ids(problems, table, role["id"], required=False)
        if "id" in role
        else pd.Series([""] * n, dtype=str)
    )
    ratings = (
        cellparse.parse_rating(problems, table, role["rating"])
        if "rating" in role
        else pd.Series(pd.NA, index=frame.index, dtype="Int64")
    )
    birth = _birth_years(table, role.get("birth_year"), problems)
    points_text = _text_or_blank(table, role, "points")
    points_h = _points_h(points_text)
    if "points" in role:
        cellparse.report(
            problems,
            table,
            points_h.eq(-1).fillna(False).to_numpy(),
            role["points"],
            Code.BAD_VALUE,
            "the points are not a number of half points",
            "write the points as e.g. 4.5 or 4½",
        )
    title = _text_or_blank(table, role, "title").str.lower()
    sex = _text_or_blank(table, role, "sex").str.lower()
    return pd.DataFrame(
        {
            "sno": sno.to_numpy(),
            "id": ids.astype(str).to_numpy(),
            "name": cellparse.text(table, role["name"]).astype(str).to_numpy(),
            "rating": ratings.to_numpy(),
            "birth_year": birth.to_numpy(),
            "federation": _text_or_blank(table, role, "federation")
            .str.upper()
            .astype(str)
            .to_numpy(),
            "title": title.map(TITLES).fillna(title.str.upper()).astype(str).to_numpy(),
            "sex": sex.map(SEXES).fillna("").astype(str).to_numpy(),
            "points_h": points_h.where(points_h.ne(-1)).astype("Int64").to_numpy(),
            "points_value": points_text.astype(str).to_numpy(),
            "points_column": role.get("points", ""),
            "line": table.rows.astype(np.int64),
            "ok": ok,
        }
    )


def _birth_years(table: RawTable, column: str | None, problems: ProblemList) -> pd.Series:
    n = len(table.frame)
    if column is None:
        return pd.Series([pd.NA] * n, dtype="Int64")
    text = cellparse.text(table, column)
    years, bad = [], np.zeros(n, dtype=bool)
    for pos, value in enumerate(text):
        try:
            year = dates.birth_year(value.removesuffix(".0"))
        except ValueError:
            year = None
            bad[pos] = True
        if year is not None and not 1850 <= year <= 2100:
            year, bad[pos] = None, True
        years.append(year)
    cellparse.report(
        problems,
        table,
        bad,
        column,
        Code.BAD_VALUE,
        "not a birth year or birth date",
        "write the year of birth (e.g. 1990), or leave it blank",
    )
    return pd.Series(years, dtype="Int64")


def _normalized(raw: pd.Series) -> pd.Series:
    """Lower case, no spaces: '12 W 1' -> '12w1' (Arrow kernels: one pass over all cells)."""
    arr = pa.array(raw.to_numpy(dtype=object), type=pa.string())
    arr = pc.replace_substring_regex(pc.utf8_lower(arr), r"\s+", "")
    return pd.Series(arr.to_numpy(zero_copy_only=False), index=raw.index, dtype=object)


def _game_parts(value: pd.Series) -> pd.DataFrame:
    """GAME_CELL's groups (opp, colour, res) per cell; <NA> where the cell is not a game."""
    arr = pa.array(value.to_numpy(dtype=object), type=pa.string())
    found = pc.extract_regex(arr, GAME_CELL.pattern)
    matched = pc.is_valid(found).to_numpy(zero_copy_only=False)
    return pd.DataFrame(
        {
            name: pd.Series(found.field(name).to_numpy(zero_copy_only=False), dtype=object).where(
                matched
            )
            for name in ("opp", "colour", "res")
        },
        index=value.index,
    )


def swiss_cells(
    table: RawTable, layout: Layout, sno: pd.Series, problems: ProblemList
) -> pd.DataFrame:
    columns = list(layout.rounds)
    if not columns:
        return pd.DataFrame(columns=CELL_COLUMNS)
    n = len(table.frame)
    # All round columns stacked into one long column, parsed in one go.
    raw = pd.concat([cellparse.text(table, c) for c in columns], ignore_index=True)
    which = np.repeat(np.arange(len(columns)), n)
    value = _normalized(raw)
    game = _game_parts(value)
    is_game = game["opp"].notna().to_numpy()
    bye_code = value.map(CELL_BYES)
    is_bye = ~is_game & bye_code.notna().to_numpy()
    bad = ~(is_game | is_bye | value.eq("").to_numpy())
    for k, column in enumerate(columns):
        cellparse.report(
            problems,
            table,
            bad[which == k],
            column,
            Code.BAD_RESULT,
            "not a crosstable result",
            f"write the cell as one of {CELL_HELP}",
        )
    keep = is_game | is_bye
    opp = pd.to_numeric(game["opp"].where(is_game, "0")).astype(np.int64)
    code = game["res"].map(CELL_RESULTS).where(is_game, bye_code)
    return pd.DataFrame(
        {
            "sno": np.tile(sno.to_numpy(), len(columns))[keep],
            "round": np.array([layout.rounds[c] for c in columns], dtype=np.int64)[which][keep],
            "opp": opp.to_numpy()[keep],
            "colour": game["colour"].fillna("").map(CELL_COLOURS).to_numpy(dtype=str)[keep],
            "code": code.to_numpy(dtype=str)[keep],
            "line": np.tile(table.rows, len(columns))[keep],
            "column": np.array(columns, dtype=object)[which][keep].astype(str),
            "value": raw.to_numpy(dtype=str)[keep],
        }
    )[CELL_COLUMNS]


def parse_crosstable(table: RawTable, layout: Layout, problems: ProblemList) -> GamesInput:
    players = roster(table, layout, problems)
    cells = swiss_cells(table, layout, players["sno"], problems)
    players, cells = usable(players, cells)
    info = EventInfo(name=Path(table.source).stem, rounds=max(layout.rounds.values(), default=0))
    return build_event(table.source, players, cells, info, problems)


def usable(players: pd.DataFrame, cells: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Rows whose number is unusable (already reported) are left out of pairing."""
    ok = players["ok"].to_numpy()
    good_lines = players.loc[ok, "line"]
    return players[ok].drop(columns="ok"), cells[cells["line"].isin(good_lines)]
