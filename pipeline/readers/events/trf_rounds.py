"""TRF round cells: every round cell of every 001 line at once. The lines become a matrix of
characters and the cells are cut out by column (round r at 92 + 10(r - 1), TRF.md), checked,
and kept when not blank."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from pipeline.errors import Code
from pipeline.problem_list import ProblemList
from pipeline.readers.events.event_codes import ALL_CODES, CODE_HELP
from pipeline.readers.events.pairing import CELL_COLUMNS
from pipeline.readers.events.trf_players import ROUND_START, ROUND_WIDTH, cut_field


@dataclass
class Cells:
    """One entry per (round, line), round-major: the cell's parts as cut from the text."""

    value: np.ndarray  # the 8 characters of the cell
    opp_text: np.ndarray
    colour: np.ndarray  # lower case
    code: np.ndarray  # upper case
    round_no: np.ndarray
    line: np.ndarray
    player: np.ndarray  # the starting rank of the line
    columns: np.ndarray  # where the cell is, as a person reads it


def _empty() -> pd.DataFrame:
    return pd.DataFrame(
        {
            c: pd.Series(dtype=np.int64 if c in ("sno", "round", "opp", "line") else str)
            for c in CELL_COLUMNS
        }
    )


def _cut(raw: pd.Series, numbers: np.ndarray, sno: np.ndarray, rounds: int) -> Cells:
    """The cells of ``rounds`` rounds, cut from a (line, character) matrix without a loop."""
    full = ROUND_START + ROUND_WIDTH * rounds
    text = raw.str.slice(0, full).str.pad(full, side="right").to_numpy(dtype=f"<U{full}")
    chars = text.view("<U1").reshape(len(raw), full)
    at = ROUND_START + ROUND_WIDTH * np.arange(rounds)[:, None] + np.arange(8)[None, :]
    block = np.ascontiguousarray(chars[:, at].transpose(1, 0, 2))  # (round, player, 8)
    round_no = np.repeat(np.arange(1, rounds + 1), len(raw))
    columns = np.array(
        [
            f"round {r} (columns {92 + 10 * (r - 1)}-{99 + 10 * (r - 1)})"
            for r in range(1, rounds + 1)
        ]
    )[round_no - 1]
    return Cells(
        value=block.view("<U8").reshape(-1),
        opp_text=np.strings.strip(np.ascontiguousarray(block[:, :, :4]).view("<U4").reshape(-1)),
        colour=np.strings.lower(block[:, :, 5].reshape(-1)),
        code=np.strings.upper(block[:, :, 7].reshape(-1)),
        round_no=round_no,
        line=np.tile(numbers, rounds),
        player=np.tile(sno, rounds),
        columns=columns,
    )


def round_cells(
    raw: pd.Series, numbers: np.ndarray, valid_sno: pd.Series, source: str, problems: ProblemList
) -> pd.DataFrame:
    """The usable cells (schema: ``pairing.CELL_COLUMNS``); the bad ones are reported."""
    sno_text = cut_field(raw, "sno")
    sno = pd.to_numeric(sno_text.where(sno_text.str.fullmatch(r"[0-9]+"), "0")).astype(np.int64)
    width = int(raw.str.rstrip().str.len().max())
    rounds = max(0, -(-(width - ROUND_START) // ROUND_WIDTH))
    if rounds == 0:
        return _empty()
    c = _cut(raw, numbers, sno.to_numpy(), rounds)
    present = (c.opp_text != "") | (c.colour != " ") | (c.code != " ")
    opp_ok = np.strings.lstrip(c.opp_text, "0123456789") == ""  # ASCII digits or blank
    colour_ok = np.isin(c.colour, ["w", "b", "-", " "])
    opp = np.where(opp_ok & (c.opp_text != ""), c.opp_text, "0").astype(np.int64)
    missing = present & (opp > 0) & (c.code == " ")
    code_ok = np.isin(c.code, sorted(ALL_CODES)) | (c.code == " ")
    checks = [
        (
            present & ~opp_ok,
            Code.BAD_VALUE,
            "the opponent's starting rank is not a number",
            "write the opponent's starting rank, or 0000 for a bye",
        ),
        (
            present & ~colour_ok,
            Code.BAD_VALUE,
            "the colour is not w, b or -",
            "write w (white), b (black) or - (no game)",
        ),
        (
            missing,
            Code.BAD_RESULT,
            "the game has no result",
            f"enter the result ({CODE_HELP}) or remove the pairing",
        ),
        (present & ~code_ok, Code.BAD_RESULT, "not a TRF result code", f"write one of {CODE_HELP}"),
    ]
    for bad, code_name, message, fix in checks:
        for pos in problems.within_room(np.flatnonzero(bad), source):
            problems.add(
                code_name,
                message,
                file=source,
                row=int(c.line[pos]),
                column=str(c.columns[pos]),
                value=str(c.value[pos]),
                fix=fix,
            )
    keep = present & opp_ok & colour_ok & code_ok & ~missing & np.isin(c.player, valid_sno)
    code = np.where(c.code == " ", "Z", c.code)  # 0000 and no result: a known absence (TRF.md)
    # The legacy half-point bye "0000 - =" (no opponent, no colour, a draw), TRF16's H: so
    # bbpPairings and the Irish federation's tools read it.
    code = np.where((opp == 0) & np.isin(c.colour, ["-", " "]) & (c.code == "="), "H", code)
    return pd.DataFrame(
        {
            "sno": c.player[keep],
            "round": c.round_no[keep],
            "opp": opp[keep],
            "colour": np.where(np.isin(c.colour[keep], ["-", " "]), "", c.colour[keep]).astype(str),
            "code": code[keep].astype(str),
            "line": c.line[keep],
            "column": c.columns[keep].astype(str),
            "value": c.value[keep].astype(str),
        }
    )[CELL_COLUMNS]
