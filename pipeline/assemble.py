"""Turn games into sides: one row per player per game, with the ratings each side is rated from.

A games row gives both players' ids; the rating used for each is the row's own override
(``white_rating``/``black_rating``) if present, else the players list. A player found in neither
is an ``unknown-player`` error (every such cell is reported).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.errors import Problem, ProblemList
from pipeline.model import GamesInput, PlayerList, SidesInput
from pipeline.readers.results import SIDE_TEXT, UNPLAYED_TEXT

SIDE_COLUMNS = [
    "player",
    "opponent",
    "event",
    "round",
    "date",
    "player_rating",
    "opponent_rating",
    "score_h",
    "played",
    "result",
    "k",
    "name",
    "source",
    "line",
]


def side_text(score_h: np.ndarray, played: np.ndarray) -> np.ndarray:
    played_text = np.select([score_h == 100, score_h == 50], [SIDE_TEXT[100], SIDE_TEXT[50]], SIDE_TEXT[0])
    unplayed_text = np.select(
        [score_h == 100, score_h == 50], [UNPLAYED_TEXT[100], UNPLAYED_TEXT[50]], UNPLAYED_TEXT[0]
    )
    return np.where(played, played_text, unplayed_text)


def _list_ratings(ids: pd.Series, players: PlayerList | None) -> tuple[pd.Series, np.ndarray]:
    """(rating from the list or <NA>, whether the id is on the list)."""
    if players is None:
        return pd.Series(pd.NA, index=ids.index, dtype="Int64"), np.zeros(len(ids), dtype=bool)
    # A hash look-up (get_indexer): Series.isin/map on str columns is far slower (pipeline.frames).
    listed = pd.Index(players.players["id"])
    pos = listed.get_indexer(ids)
    on_list = pos >= 0
    ratings = players.players["rating"].astype("Int64").array
    rating = pd.Series(ratings.take(pos, allow_fill=True), index=ids.index, dtype="Int64")
    return rating, on_list


def unknown_players(games: GamesInput, players: PlayerList | None) -> list[Problem]:
    """Every white/black cell whose player is neither on the list nor given a rating on the row."""
    problems = ProblemList()
    g = games.games
    for me, rating_col in (("white", "white_rating"), ("black", "black_rating")):
        _, on_list = _list_ratings(g[me], players)
        unknown = ~on_list & g[rating_col].isna().to_numpy() & g[me].ne("").to_numpy()
        where = "on the players list" if players is not None else "given (no --players file)"
        for pos in np.flatnonzero(unknown):
            problems.add(
                "unknown-player",
                f"player {g[me].iat[pos]!r} is not {where} and the row has no {rating_col}",
                file=games.source,
                row=int(g["line"].iat[pos]),
                column=me,
                value=g[me].iat[pos],
                fix=f"add the player to the players file (rating blank if unrated) or fill {rating_col}",
            )
    return problems.problems


def sides_from_games(games: GamesInput, players: PlayerList | None) -> pd.DataFrame:
    g = games.games
    halves = []
    for me, other, my_h, rating_col in (
        ("white", "black", "white_h", "white_rating"),
        ("black", "white", "black_h", "black_rating"),
    ):
        list_rating, _ = _list_ratings(g[me], players)
        override = g[rating_col]
        halves.append(
            pd.DataFrame(
                {
                    "player": g[me],
                    "opponent": g[other],
                    "event": g["event"],
                    "round": g["round"],
                    "date": g["date"],
                    "player_rating": override.fillna(list_rating),
                    "score_h": g[my_h],
                    "played": g["played"],
                    "source": g["source"],
                    "line": g["line"],
                    "_order": np.arange(len(g)) * 2 + (me == "black"),
                }
            )
        )
    white, black = halves
    white["opponent_rating"] = black["player_rating"].array
    black["opponent_rating"] = white["player_rating"].array
    sides = pd.concat([white, black], ignore_index=True).sort_values("_order", kind="stable")
    sides["result"] = side_text(sides["score_h"].to_numpy(), sides["played"].to_numpy())
    sides["k"] = pd.Series(pd.NA, index=sides.index, dtype="Int64")
    sides["name"] = ""
    return sides[SIDE_COLUMNS].reset_index(drop=True)


def sides_from_individual(individual: SidesInput) -> pd.DataFrame:
    return individual.sides[SIDE_COLUMNS].reset_index(drop=True)


def assemble_sides(
    inputs: list[GamesInput | SidesInput], players: PlayerList | None
) -> pd.DataFrame:
    """All sides of all inputs, in input order. Raises InputError listing every problem."""
    problems = ProblemList()
    parts = []
    for item in inputs:
        if isinstance(item, GamesInput):
            problems.extend(unknown_players(item, players))
            parts.append(sides_from_games(item, players))
        else:
            parts.append(sides_from_individual(item))
    problems.raise_if_any()
    if not parts:
        return pd.DataFrame(columns=SIDE_COLUMNS)
    return pd.concat(parts, ignore_index=True)
