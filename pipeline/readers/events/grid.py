"""Round-robin grids: one row per player, one column per opponent (headed by the opponent's
number), cells holding the row player's score against that opponent: ``1``, ``½``, ``0``, ``+``,
``-``; a double round robin writes two results in one cell (``1½``, ``0 1``). The diagonal is
blank or ``x``/``*``. A grid gives no rounds and no colours: games get a blank round, the k-th
result of a cell is the k-th cycle, and the lower number is listed as white.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.errors import Code
from pipeline.model import EventInfo, GamesInput
from pipeline.problem_list import ProblemList
from pipeline.readers.events.crosstable import CELL_RESULTS, roster, usable
from pipeline.readers.events.crosstable_columns import Layout
from pipeline.readers.events.pairing import CELL_COLUMNS, build_event
from pipeline.readers.tables import cells as cellparse
from pipeline.readers.tables.tabular import RawTable

GRID_TOKEN = re.compile(r"1/2|0[.,]5|½|=|1|0|\+|-")
DIAGONAL_MARKS = {"", "x", "xx", "*", "**", "-", "–", "—", "#", "/"}
GRID_HELP = "1, ½ (or =, 0.5, 1/2), 0, + or - (forfeits); two results for a double round robin"


def _tokens(value: pd.Series) -> tuple[pd.Series, np.ndarray]:
    tokens = value.str.findall(GRID_TOKEN)
    whole = (tokens.str.join("") == value).to_numpy(dtype=bool)
    return tokens, whole


def looks_like_grid(table: RawTable, layout: Layout) -> bool:
    """Opponent columns 1..n for n players, and every cell off the diagonal holds results only."""
    n = len(table.frame)
    if n < 2 or sorted(layout.rounds.values()) != list(range(1, n + 1)):
        return False
    for column, opp in layout.rounds.items():
        value = cellparse.text(table, column).str.lower().str.replace(r"\s+", "", regex=True)
        off = np.arange(1, n + 1) != opp
        _, whole = _tokens(value)
        if not (whole | value.eq("").to_numpy())[off].all():
            return False
    return True


def grid_cells(
    table: RawTable, layout: Layout, sno: pd.Series, problems: ProblemList
) -> pd.DataFrame:
    parts = []
    for column, opp in layout.rounds.items():
        raw = cellparse.text(table, column)
        value = raw.str.lower().str.replace(r"\s+", "", regex=True)
        diagonal = (sno == opp).to_numpy()
        tokens, whole = _tokens(value)
        blank = value.eq("").to_numpy()
        bad = ~diagonal & ~whole & ~blank
        cellparse.report(
            problems,
            table,
            bad,
            column,
            Code.BAD_RESULT,
            "not a round-robin result",
            f"write one of {GRID_HELP}",
        )
        bad_diagonal = diagonal & ~value.isin(DIAGONAL_MARKS).to_numpy()
        cellparse.report(
            problems,
            table,
            bad_diagonal,
            column,
            Code.SELF_PAIRING,
            "a result on the diagonal (the player against themselves)",
            "leave the diagonal blank or write x",
        )
        keep = ~diagonal & whole & ~blank
        if not keep.any():
            continue
        frame = pd.DataFrame(
            {
                "sno": sno.to_numpy()[keep],
                "tokens": tokens[keep].to_numpy(),
                "line": table.rows[keep],
                "value": raw.to_numpy(dtype=str)[keep],
            }
        )
        frame = frame.explode("tokens")
        frame["round"] = frame.groupby(level=0).cumcount() + 1  # k-th result = k-th cycle
        parts.append(
            pd.DataFrame(
                {
                    "sno": frame["sno"].astype(np.int64).to_numpy(),
                    "round": frame["round"].astype(np.int64).to_numpy(),
                    "opp": opp,
                    "colour": "",
                    "code": frame["tokens"].map(CELL_RESULTS).astype(str).to_numpy(),
                    "line": frame["line"].astype(np.int64).to_numpy(),
                    "column": column,
                    "value": frame["value"].astype(str).to_numpy(),
                }
            )
        )
    if not parts:
        return pd.DataFrame(columns=CELL_COLUMNS)
    return pd.concat(parts, ignore_index=True)[CELL_COLUMNS]


def parse_grid(table: RawTable, layout: Layout, problems: ProblemList) -> GamesInput:
    players = roster(table, layout, problems)
    cells = grid_cells(table, layout, players["sno"], problems)
    players, cells = usable(players, cells)
    event = build_event(
        table.source, players, cells, EventInfo(name=Path(table.source).stem), problems
    )
    # Cycles are not rounds: a grid does not say in which round a game was played.
    event.games["round"] = ""
    if event.byes is not None:
        event.byes["round"] = ""
    return event
