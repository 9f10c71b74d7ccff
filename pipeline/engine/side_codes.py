"""The sides' codes from the games' own encoding (``GamesInput.codes``), when a run's sides are
exactly its games' sides: the match rules, the totals and games.csv then work on integers, and
the sides' text columns can be left as codes (``engine.sides.with_coded_texts``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from pipeline.keys.game_codes import (
    GAME_TEXTS,
    game_text_codes,
    side_game_codes,
    side_player_codes,
)
from pipeline.model import GamesInput, SidesInput


def _plain_games(inputs: Sequence[GamesInput | SidesInput]) -> list[GamesInput] | None:
    """The inputs when every one is a games file without byes: the sides are then exactly each
    game's white and black side, in order (``engine.sides``). None otherwise."""
    games = [i for i in inputs if isinstance(i, GamesInput) and (i.byes is None or not len(i.byes))]
    return games if inputs and len(games) == len(inputs) else None


def side_codes(
    inputs: Sequence[GamesInput | SidesInput],
) -> tuple[np.ndarray, pd.Series] | None:
    """The sides' player codes from the games' own encoding (``GamesInput.codes``) when the
    sides are the games' sides (``_plain_games``); None otherwise (the totals encode the ids
    themselves)."""
    games = _plain_games(inputs)
    return None if games is None else side_player_codes([i.codes() for i in games])


def side_texts(
    inputs: Sequence[GamesInput | SidesInput],
) -> dict[str, tuple[np.ndarray, pd.Series]] | None:
    """The sides' event, round, date and source as codes (``RatedPeriod.side_texts``) when the
    sides are the games' sides (``_plain_games``), from the games' own encoding; else None."""
    games = _plain_games(inputs)
    if games is None:
        return None
    files = [game_text_codes(i.games, i.codes()) for i in games]
    if any(f is None for f in files):
        return None
    return {name: side_game_codes([f[name] for f in files if f]) for name in GAME_TEXTS}


def side_codes_and_texts(
    inputs: Sequence[GamesInput | SidesInput],
) -> tuple[tuple[np.ndarray, pd.Series] | None, dict[str, tuple[np.ndarray, pd.Series]] | None]:
    """The games' own codes, when the sides are exactly their games' sides, and their texts: the
    match rules and games.csv work on them instead of hashing the sides' text."""
    codes = side_codes(inputs)
    return codes, side_texts(inputs) if codes is not None else None
