"""Games files: one row per game (white, black, result; optional event, round, date, ratings)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.columns import factorize_text
from pipeline.errors import ProblemList
from pipeline.model import GamesInput
from pipeline.readers import cells
from pipeline.readers.results import GAME_RESULT_HELP, GAME_RESULTS, normalize_token
from pipeline.readers.tabular import RawTable


def parse_games(table: RawTable, problems: ProblemList) -> GamesInput:
    white = cells.parse_ids(problems, table, "white")
    black = cells.parse_ids(problems, table, "black")

    # Results are read on the distinct spellings (a handful) and spread back with their codes.
    raw_result = cells.text(table, "result")
    codes, spellings = cells.distinct(raw_result)
    tokens = spellings.map(normalize_token)
    known = tokens.isin(GAME_RESULTS.keys())
    cells.report(
        problems,
        table,
        (~known).to_numpy()[codes],
        "result",
        "bad-result",
        "not a result we know",
        f"write one of {GAME_RESULT_HELP}",
    )
    parsed = [GAME_RESULTS[t] for t in tokens.where(known, "--")]
    white_h = np.array([r.white_h for r in parsed], dtype=np.int64)[codes]
    black_h = np.array([r.black_h for r in parsed], dtype=np.int64)[codes]
    played = np.array([r.played for r in parsed], dtype=bool)[codes]
    canonical = cells.spread(pd.Series([r.canonical for r in parsed], dtype=str), codes, raw_result)

    self_paired = white.ne("") & white.eq(black)
    cells.report(
        problems,
        table,
        self_paired.to_numpy(),
        "black",
        "self-pairing",
        "a player is paired against themselves",
        "correct the white or black id of this game",
    )

    event_default = Path(table.source).stem
    event = cells.text(table, "event").replace("", event_default)
    games = pd.DataFrame(
        {
            "event": event.astype(str),
            "round": cells.text(table, "round").astype(str),
            "date": cells.parse_date(problems, table, "date"),
            "white": white.astype(str),
            "black": black.astype(str),
            "result": canonical,
            "white_h": white_h,
            "black_h": black_h,
            "played": played,
            "white_rating": cells.parse_rating(problems, table, "white_rating"),
            "black_rating": cells.parse_rating(problems, table, "black_rating"),
            "source": table.source,
            "line": table.rows.astype(np.int64),
        }
    )
    _check_duplicates(games, table, problems)
    return GamesInput(table.source, games)


def _check_duplicates(games: pd.DataFrame, table: RawTable, problems: ProblemList) -> None:
    """The same two players in the same round of the same event twice is a copy-paste error."""
    with_round = games["round"].ne("")
    if not with_round.any():
        return
    # The same pair in either colour order: compare players by integer codes, not as text.
    ids, _ = factorize_text(pd.concat([games["white"], games["black"]], ignore_index=True))
    white, black = ids[: len(games)], ids[len(games) :]
    key = pd.DataFrame(
        {
            "e": factorize_text(games["event"])[0],
            "r": factorize_text(games["round"])[0],
            "a": np.minimum(white, black),
            "b": np.maximum(white, black),
        }
    )
    dup = key.duplicated(keep="first").to_numpy() & with_round.to_numpy()
    if not dup.any():
        return
    first_line = (
        pd.Series(games["line"].to_numpy())
        .groupby([key["e"], key["r"], key["a"], key["b"]])
        .transform("first")
        .to_numpy()
    )
    for pos in np.flatnonzero(dup):
        problems.add(
            "duplicate-game",
            f"the same game (round {games['round'].iat[pos]}: {games['white'].iat[pos]} - "
            f"{games['black'].iat[pos]}) already appears at row {first_line[pos]}",
            file=table.source,
            row=int(table.rows[pos]),
            column="white",
            value=str(games["white"].iat[pos]),
            fix="delete one of the two rows",
        )
