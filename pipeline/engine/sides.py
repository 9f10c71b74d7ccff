"""Turn games into sides: one row per player per game, with the ratings each side is rated from.

A games row gives both players' ids; the rating used for each is the row's own override
(``white_rating``/``black_rating``) if present, else the players list. A player found in neither
is an ``unknown-player`` error (every such cell is reported), unless the row names the player
(``white_name``/``black_name``): a named player with no rating is a known unrated player.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.arrays.arrow_text import STR_DTYPE, arrow_text, str_series
from pipeline.errors import PLAYERS_FILE, Code, Problem
from pipeline.keys.game_codes import GameCodes
from pipeline.model import GamesInput, PlayerList, RatedPeriod, SidesInput
from pipeline.problem_list import ProblemList
from pipeline.readers.events.results import SIDE_TEXT, UNPLAYED_TEXT

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


# Each side's result text by code: played 0 / 50 / 100, then unplayed 0 / 50 / 100.
_SIDE_TEXTS = [
    SIDE_TEXT[0],
    SIDE_TEXT[50],
    SIDE_TEXT[100],
    UNPLAYED_TEXT[0],
    UNPLAYED_TEXT[50],
    UNPLAYED_TEXT[100],
]


def side_text_series(score_h: np.ndarray, played: np.ndarray) -> pd.Series:
    """``side_text`` as a str Series, built from codes (no per-cell text work)."""
    code, texts = side_text_codes(score_h, played)
    return pd.Series(texts.array.take(code))


def side_text_codes(score_h: np.ndarray, played: np.ndarray) -> tuple[np.ndarray, pd.Series]:
    """(each side's code, the texts): ``side_text`` as codes into its six texts."""
    code = np.asarray(score_h, dtype=np.int64) // 50 + np.where(played, 0, 3)
    return code, pd.Series(_SIDE_TEXTS, dtype=str)


def side_text(score_h: np.ndarray, played: np.ndarray) -> np.ndarray:
    played_text = np.select(
        [score_h == 100, score_h == 50], [SIDE_TEXT[100], SIDE_TEXT[50]], SIDE_TEXT[0]
    )
    unplayed_text = np.select(
        [score_h == 100, score_h == 50], [UNPLAYED_TEXT[100], UNPLAYED_TEXT[50]], UNPLAYED_TEXT[0]
    )
    return np.where(played, played_text, unplayed_text)


def list_positions(ids: pd.Series, players: PlayerList | None) -> np.ndarray:
    """Each id's row on the players list, -1 when it is not there."""
    if players is None:
        return np.full(len(ids), -1, dtype=np.int64)
    return players.positions(ids)  # one look-up per list, reused by every event


def game_positions(games: GamesInput, players: PlayerList | None) -> dict[str, np.ndarray]:
    """Each game's white and black row on the players list (-1: not there), looked up once for
    both the unknown-player check and the sides: each distinct id once (the games' codes),
    spread back over the games by code."""
    codes = games.codes()
    found = list_positions(codes.players, players)
    return {"white": found[codes.white], "black": found[codes.black]}


def _list_ratings(
    ids: pd.Series, players: PlayerList | None, positions: np.ndarray | None = None
) -> tuple[pd.Series, np.ndarray]:
    """(rating from the list or <NA>, whether the id is on the list)."""
    if positions is None:
        positions = list_positions(ids, players)
    if players is None:
        return pd.Series(pd.NA, index=ids.index, dtype="Int64"), positions >= 0
    rating = players.players["rating"].astype("Int64").array.take(positions, allow_fill=True)
    return pd.Series(rating, index=ids.index), positions >= 0


def _interleave(white: pd.Series, black: pd.Series) -> pd.Series:
    """white[0], black[0], white[1], black[1], ...: the two sides of each game, in game order.
    Numpy and nullable integer columns are interleaved as arrays (no concat, no take)."""
    if white.dtype == black.dtype == "Int64":
        data = [c.to_numpy(dtype=np.int64, na_value=0) for c in (white, black)]
        mask = [c.isna().to_numpy(dtype=bool) for c in (white, black)]
        return pd.Series(pd.arrays.IntegerArray(_pairs(*data), _pairs(*mask)), copy=False)
    if isinstance(white.dtype, np.dtype) and white.dtype == black.dtype:
        return pd.Series(_pairs(white.to_numpy(), black.to_numpy()), copy=False)
    n = len(white)
    both = pd.concat([white, black], ignore_index=True)
    return pd.Series(both.array.take(_pairs(np.arange(n), np.arange(n, 2 * n))))


# Series made here take their new arrays with copy=False: pandas 3 copies an array given to the
# constructor by default (2 M sides: 16 MB of fresh memory per column, copied for nothing).


def _pairs(white: np.ndarray, black: np.ndarray) -> np.ndarray:
    """white[0], black[0], white[1], black[1], ... of two arrays of one dtype."""
    both = np.empty(2 * len(white), dtype=white.dtype)
    both[0::2], both[1::2] = white, black
    return both


def _twice(column: pd.Series) -> pd.Series:
    """Each game's value on both of its sides."""
    if isinstance(column.dtype, np.dtype):
        return pd.Series(np.repeat(column.to_numpy(), 2), copy=False)
    return pd.Series(column.array.take(np.repeat(np.arange(len(column)), 2)), copy=False)


def _plain(column: pd.Series) -> bool:
    """Plain ``str`` cells without nulls: the cells a games code's dictionary holds as they are
    (``encode_together`` makes its dictionary with nulls read as "")."""
    return column.dtype == STR_DTYPE and not arrow_text(column).null_count


# The sides' text columns a run may leave as codes (``sides_from_games(..., coded=True)``):
# neither the engine nor the totals read them, and games.csv takes their text by code. The
# player's first (its codes are ``RatedPeriod.side_players``), then ``side_texts``' names.
CODED_COLUMNS = ("player", "opponent", "event", "date", "result", "source")


def _taken(codes: np.ndarray, texts: pd.Series) -> pd.Series:
    """``texts[codes]`` as a str Series: each cell copied from the small dictionary of distinct
    texts, instead of concatenating and taking the games' million cells."""
    return str_series(arrow_text(texts).take(pa.array(codes)))


def _game_texts(g: pd.DataFrame, codes: GameCodes, names: tuple[str, ...]) -> dict[str, pd.Series]:
    """The sides' ``names`` among player, opponent, event and round: from the games' codes
    (``GamesInput.codes``) where the cells are ``_plain``, else from the cells; the same Series
    either way."""
    texts = {}
    ids_plain = _plain(g["white"]) and _plain(g["black"])
    for name, me, other in (("player", "white", "black"), ("opponent", "black", "white")):
        if name not in names:
            continue
        if ids_plain:
            texts[name] = _taken(_pairs(getattr(codes, me), getattr(codes, other)), codes.players)
        else:
            texts[name] = _interleave(g[me], g[other])
    for name, code, distinct in (
        ("event", codes.event, codes.events),
        ("round", codes.round, codes.rounds),
    ):
        if name not in names:
            continue
        if distinct is not None and _plain(g[name]):
            texts[name] = _taken(np.repeat(code, 2), distinct)
        else:
            texts[name] = _twice(g[name])
    return texts


def _side_names(g: pd.DataFrame) -> pd.Series:
    """Each side's name as the games row gives it ("" when it gives none)."""
    if "white_name" in g.columns and "black_name" in g.columns:
        return _interleave(g["white_name"].fillna(""), g["black_name"].fillna("")).astype(str)
    return pd.Series(pd.array([""], dtype=str).take(np.zeros(2 * len(g), dtype=np.int64)))


def unknown_players(
    games: GamesInput, players: PlayerList | None, found: dict[str, np.ndarray] | None = None
) -> list[Problem]:
    """Every white/black cell whose player is neither on the list nor given a rating or a name
    on the row (a name without a rating: a known unrated player, as a TRF's rating 0 is).
    ``found``: ``game_positions`` when the caller has it."""
    problems = ProblemList()
    g = games.games
    found = found or game_positions(games, players)
    for me, rating_col in (("white", "white_rating"), ("black", "black_rating")):
        on_list = found[me] >= 0
        unknown = ~on_list & g[rating_col].isna().to_numpy() & g[me].ne("").to_numpy()
        if f"{me}_name" in g.columns:
            unknown &= g[f"{me}_name"].fillna("").eq("").to_numpy()
        where = "on the players list" if players is not None else f"given (no {PLAYERS_FILE.cli})"
        at = np.flatnonzero(unknown)
        # Only the bad rows are visited, from plain arrays (a million of them take a second).
        ids = g[me].iloc[at].tolist()
        lines = g["line"].to_numpy()[at].tolist()
        for player, line in zip(ids, lines, strict=True):
            problems.add(
                Code.UNKNOWN_PLAYER,
                f"player {player!r} is not {where} and the row has no {rating_col}",
                file=games.source,
                row=int(line),
                column=me,
                value=player,
                fix="add the player to the players file (rating blank if unrated) "
                f"or fill {rating_col}",
            )
    return problems.problems


def sides_from_games(
    games: GamesInput,
    players: PlayerList | None,
    found: dict[str, np.ndarray] | None = None,
    *,
    coded: bool = False,
) -> pd.DataFrame:
    """The sides of ``games`` (``SIDE_COLUMNS``). ``coded``: without the ``CODED_COLUMNS``, which
    the caller holds as codes (``with_coded_texts`` adds them back, exactly)."""
    g = games.games
    found = found or game_positions(games, players)
    ratings = {}
    for me, rating_col in (("white", "white_rating"), ("black", "black_rating")):
        list_rating, _ = _list_ratings(g[me], players, found[me])
        ratings[me] = g[rating_col].astype("Int64").fillna(list_rating)
    # Both sides of game i are rows 2i (white) and 2i+1 (black): built column by column.
    score_h = _interleave(g["white_h"], g["black_h"])
    played = _twice(g["played"])
    texts = ("round",) if coded else ("player", "opponent", "event", "round")
    columns = {
        **_game_texts(g, games.codes(), texts),
        "player_rating": _interleave(ratings["white"], ratings["black"]),
        "opponent_rating": _interleave(ratings["black"], ratings["white"]),
        "score_h": score_h,
        "played": played,
        # Games files carry no K (the players list does), and names only when they have
        # ``white_name``/``black_name`` (for a player the list lacks).
        "k": pd.Series(
            pd.arrays.IntegerArray(np.zeros(2 * len(g), np.int64), np.ones(2 * len(g), bool)),
            copy=False,
        ),
        "name": _side_names(g),
        "line": _twice(g["line"]),
    }
    if not coded:
        columns["date"] = _twice(g["date"])
        columns["result"] = side_text_series(score_h.to_numpy(), played.to_numpy())
        columns["source"] = _twice(g["source"])
    # Every column is a new array: no copy, nor one block per dtype stacked.
    sides = pd.DataFrame(columns, copy=False)
    return sides[[c for c in SIDE_COLUMNS if c in columns]]


def codable(games: GamesInput) -> bool:
    """Whether ``sides_from_games(..., coded=True)`` may leave this file's text columns as codes:
    its ids, events and source are plain text (no nulls), so the codes' dictionaries, where a
    null would read as "", hold exactly the cells."""
    g = games.games
    return all(_plain(g[c]) for c in ("white", "black", "event", "source"))


def with_coded_texts(
    frame: pd.DataFrame,
    players: tuple[np.ndarray, pd.Series],
    texts: dict[str, tuple[np.ndarray, pd.Series]],
) -> pd.DataFrame:
    """``frame`` (sides made with ``coded=True``, perhaps rated) with its ``CODED_COLUMNS``
    taken from codes: the player's from ``players`` (each side's code, the ids), the others
    from ``texts`` (``RatedPeriod.side_texts``), in the column order and dtypes
    ``sides_from_games`` gives without ``coded``. A blank date is "" among the codes' texts and
    <NA> in the frame."""
    taken = {"player": _taken(*players)}
    for name in CODED_COLUMNS[1:]:
        code, distinct = texts[name]
        taken[name] = _taken(code, distinct)
    taken["date"] = taken["date"].astype("string").where(taken["date"].ne(""))
    order = [*SIDE_COLUMNS, *(c for c in frame.columns if c not in SIDE_COLUMNS)]
    columns = {c: taken[c] if c in taken else frame[c] for c in order}
    return pd.DataFrame(columns, index=frame.index, copy=False)


def sides_from_individual(individual: SidesInput) -> pd.DataFrame:
    return individual.sides[SIDE_COLUMNS].reset_index(drop=True)


def assemble_sides(
    inputs: list[GamesInput | SidesInput], players: PlayerList | None, *, coded: bool = False
) -> pd.DataFrame:
    """All sides of all inputs, in input order. Raises InputError listing every problem.
    ``coded``: every input is a games file and ``codable``; see ``sides_from_games``."""
    problems = ProblemList()
    parts = []
    for item in inputs:
        if isinstance(item, GamesInput):
            found = game_positions(item, players)
            problems.extend(unknown_players(item, players, found))
            parts.append(sides_from_games(item, players, found, coded=coded))
        else:
            parts.append(sides_from_individual(item))
    problems.raise_if_any()
    if not parts:
        return pd.DataFrame(columns=SIDE_COLUMNS)
    if len(parts) == 1:  # one file: no copy through concat
        return parts[0].reset_index(drop=True)
    return pd.concat(parts, ignore_index=True)


def with_side_texts(result: RatedPeriod) -> RatedPeriod:
    """``result`` with the sides' text columns built from their codes (the same period when
    they were never left as codes): for the outputs that show them (the output stage)."""
    if not result.texts_coded:
        return result
    if result.side_players is None or result.side_texts is None:
        raise ValueError("the sides' texts were left as codes without their codes")
    sides = with_coded_texts(result.sides, players=result.side_players, texts=result.side_texts)
    return replace(result, sides=sides)
