"""Games files: one row per game (white, black, result; optional event, round, date, ratings and
the players' names).

A row that names a player (``white_name``/``black_name``) and gives no rating says the player is
known and unrated (``pipeline.engine.sides.unknown_players``): the way a games file holds an
unrated player without a players list, as ``fiderate convert --to csv`` writes one."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.errors import Code, InputError, Problem
from pipeline.keys.game_codes import GameCodes
from pipeline.model import GamesInput
from pipeline.problem_list import ProblemList
from pipeline.readers.events.results import GAME_RESULT_HELP, GAME_RESULTS
from pipeline.readers.tables import cells
from pipeline.readers.tables.raw import RawTable, concat_tables

# The players' names a games file may give, one per side (read as text, "" when blank).
NAME_COLUMNS = ("white_name", "black_name")


def parse_games(table: RawTable, problems: ProblemList) -> GamesInput:
    white = cells.parse_ids(problems, table, "white")
    black = cells.parse_ids(problems, table, "black")

    white_h, black_h, played, canonical = cells.parse_results(
        problems, table, GAME_RESULTS, "--", GAME_RESULT_HELP
    )
    white_h = white_h.astype(np.int64)
    black_h = black_h.astype(np.int64)
    played = played.astype(bool)

    self_paired = white.ne("") & white.eq(black)
    cells.report(
        problems,
        table,
        self_paired.to_numpy(),
        "black",
        Code.SELF_PAIRING,
        "a player is paired against themselves",
        "correct the white or black id of this game",
    )

    event = _events(table)
    games = pd.DataFrame(
        {
            "event": event.astype(str),
            "round": cells.parse_round(problems, table),
            "date": cells.parse_date(problems, table, "date"),
            "white": white.astype(str),
            "black": black.astype(str),
            "result": pd.Series(canonical, dtype=str),
            "white_h": white_h,
            "black_h": black_h,
            "played": played,
            "white_rating": cells.parse_rating(problems, table, "white_rating"),
            "black_rating": cells.parse_rating(problems, table, "black_rating"),
            "source": table.source if table.parts is None else table.row_sources(),
            "line": table.rows.astype(np.int64),
        },
        copy=False,  # no block of the int64 columns stacked (copied) together
    )
    for name in NAME_COLUMNS:
        if name in table.frame.columns:  # only when given: a million blank names cost memory
            games[name] = cells.text(table, name)
    item = GamesInput(table.source, games)
    _check_duplicates(item, table, problems)
    return item


def _events(table: RawTable) -> pd.Series:
    """The event column; a blank cell names the event after its file (``event_1.csv``: event_1)."""
    event = cells.text(table, "event")
    if table.parts is None:
        return event.replace("", Path(table.source).stem)
    stems = table.row_sources(lambda source: Path(source).stem)
    return event.where(event.ne(""), stems.set_axis(event.index))


def parse_games_of_files(tables: list[RawTable]) -> list[GamesInput | InputError]:
    """``parse_games`` of several files' games tables (the same columns and decimal mark) in one
    pass over all their cells: each file's games, or an InputError with that file's problems
    (and its games as far as they could be read, ``partial``), in the order given."""
    table = concat_tables(tables)
    problems = ProblemList()
    together = parse_games(table, problems)
    games, codes = together.games, together.codes()  # the codes the duplicate check built
    by_file: dict[str, list[Problem]] = {}
    for problem in problems.problems:
        by_file.setdefault(problem.file, []).append(problem)
    out: list[GamesInput | InputError] = []
    start = 0
    for part in tables:
        end = start + len(part.frame)
        item = GamesInput(part.source, games.iloc[start:end].reset_index(drop=True))
        # One file: its games are all the games, and ``codes`` are already those of its
        # games alone (``GameCodes.part`` of all the rows renumbers nothing).
        item.keep_codes(codes if len(tables) == 1 else codes.part(start, end))
        found = by_file.get(part.source)
        out.append(item if not found else InputError(found, partial=item))
        start = end
    return out


def _check_duplicates(item: GamesInput, table: RawTable, problems: ProblemList) -> None:
    """The same two players twice in one round of one event: a copy-paste error
    (``duplicate-game``) when both rows say the same, ``result-mismatch`` when they disagree
    (``A-B 1-0`` and ``B-A 1-0`` cannot both be true)."""
    games = item.games
    with_round = games["round"].ne("").to_numpy()
    if not with_round.any():
        return
    # One integer per (event, round, unordered pair of players), from the games' integer codes
    # (shared with the later stages): hashing four text columns row by row costs far more.
    code = pd.Series(_game_codes(_by_file(item.codes(), table)))
    dup = code.duplicated(keep="first").to_numpy() & with_round
    if not dup.any():
        return
    # Only the rows of repeated games are looked at from here on (few, in a real file).
    involved = np.flatnonzero(code.duplicated(keep=False).to_numpy() & with_round)
    games = games.iloc[involved].reset_index(drop=True)
    white_first = (games["white"] <= games["black"]).to_numpy()
    low = games["white"].where(white_first, games["black"])
    high = games["black"].where(white_first, games["white"])
    key = pd.DataFrame({"e": games["event"], "r": games["round"], "a": low, "b": high})
    dup = pd.Series(dup[involved])
    rows = table.rows[involved]
    files = table.sources_at(involved)
    # The outcome seen from the lower id, so that A-B 1-0 and B-A 0-1 compare equal.
    white_is_low = games["white"].eq(low).to_numpy()
    low_h = np.where(white_is_low, games["white_h"], games["black_h"])
    high_h = np.where(white_is_low, games["black_h"], games["white_h"])
    outcome = pd.Series(low_h * 1000 + high_h * 2 + games["played"].to_numpy(dtype=np.int64))
    groups = [games["source"], key["e"], key["r"], key["a"], key["b"]]
    first_pos = pd.Series(np.arange(len(games))).groupby(groups).transform("first").to_numpy()
    lines = games["line"].to_numpy()
    results = games["result"].to_numpy()
    for pos in np.flatnonzero(dup.to_numpy()):
        first = first_pos[pos]
        game = (
            f"round {games['round'].iat[pos]}: {games['white'].iat[pos]} - "
            f"{games['black'].iat[pos]}"
        )
        if outcome.iat[pos] == outcome.iat[first]:
            problems.add(
                Code.DUPLICATE_GAME,
                f"the same game ({game}) already appears at row {lines[first]}",
                file=files[pos],
                row=int(rows[pos]),
                column="white",
                value=str(games["white"].iat[pos]),
                fix="delete one of the two rows",
            )
        else:
            problems.add(
                Code.RESULT_MISMATCH,
                f"the game ({game}) is also at row {lines[first]} with a result that disagrees "
                f"({results[first]} with {games['white'].iat[first]} as white)",
                file=files[pos],
                row=int(rows[pos]),
                column="result",
                value=str(results[pos]),
                fix=f"keep one row for this game, with the right result (see row {lines[first]})",
            )


def _by_file(codes: GameCodes, table: RawTable) -> GameCodes:
    """The codes with each event told apart by its file: games of two files are never the same
    game, whatever their events are called (a table of several files, ``concat_tables``)."""
    if table.parts is None or len(table.parts) < 2:
        return codes
    file = np.repeat(np.arange(len(table.parts)), [n for _, n in table.parts])
    event = file * codes.n_event + codes.event
    return replace(codes, event=event, n_event=codes.n_event * len(table.parts), events=None)


def _game_codes(codes: GameCodes) -> np.ndarray:
    """A code per game, equal exactly when event, round and the (unordered) pair are equal."""
    low, high = np.minimum(codes.white, codes.black), np.maximum(codes.white, codes.black)
    if not codes.fits():  # the combined code would not fit
        frame = pd.DataFrame({"e": codes.event, "r": codes.round, "a": low, "b": high})
        return pd.MultiIndex.from_frame(frame).factorize()[0]
    code = codes.event * codes.n_round + codes.round
    code = code * codes.n_player + low
    return code * codes.n_player + high
