"""Sides from the events and the lists they are rated with: each event's byes as an input of
its own, the list's ratings by the list's id look-up, and (``fiderate period``) each event with
the list in force when it started.

The games files of consecutive events rated with the same list are assembled as one table
(``assemble_each``): the sides are made game by game, so they are the same rows as assembling
the files one by one, and the fixed cost of an assembly (a list look-up, some twenty pandas
calls) is paid once instead of once per file (200 files in a FIDE month). When that finds a
problem (a player on no list), the files are assembled one by one again, so every problem names
its own file, as before.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from pipeline.engine.sides import assemble_sides
from pipeline.errors import InputError, Problem
from pipeline.model import GamesInput, PlayerList, SidesInput


def with_byes(
    inputs: list[GamesInput | SidesInput], players: PlayerList | None
) -> list[GamesInput | SidesInput]:
    """Each event's byes as an extra individual input: shown in games.csv, never rated."""
    expanded: list[GamesInput | SidesInput] = []
    for item in inputs:
        expanded.append(item)
        if isinstance(item, GamesInput) and item.byes is not None and len(item.byes):
            byes = item.byes.copy()
            if players is not None:
                byes["player_rating"] = list_ratings(byes["player"], players)
            expanded.append(SidesInput(item.source, byes))
    return expanded


def list_ratings(ids: pd.Series, players: PlayerList) -> pd.Series:
    """Each id's rating on ``players`` (<NA>: unrated or not on it), by the list's own id
    look-up (built once per list, reused by every event): no hash of the whole list per call."""
    rating = players.players["rating"].astype("Int64").array
    return pd.Series(rating.take(players.positions(ids), allow_fill=True), index=ids.index)


def assemble_each(
    inputs: Sequence[GamesInput | SidesInput], lists: Sequence[PlayerList | None]
) -> pd.DataFrame:
    """Sides of each input assembled with its own list (the list in force when the event started),
    every problem of every input reported at once."""
    problems: list[Problem] = []
    parts = []
    for group, players in _same_list_runs(inputs, lists):
        try:
            parts.append(_assemble_group(group, players))
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return pd.concat(parts, ignore_index=True) if parts else assemble_sides([], None)


def _plain(item: GamesInput | SidesInput) -> bool:
    """A games file without byes: its sides are its games' two sides, nothing else."""
    return isinstance(item, GamesInput) and (item.byes is None or not len(item.byes))


def _same_list_runs(
    inputs: Sequence[GamesInput | SidesInput], lists: Sequence[PlayerList | None]
) -> list[tuple[list[GamesInput | SidesInput], PlayerList | None]]:
    """Consecutive inputs rated with the very same list (object), plain games files together."""
    runs: list[tuple[list[GamesInput | SidesInput], PlayerList | None]] = []
    for item, players in zip(inputs, lists, strict=True):
        last = runs[-1] if runs else None
        if last is not None and last[1] is players and _plain(item) and _plain(last[0][-1]):
            last[0].append(item)
        else:
            runs.append(([item], players))
    return runs


def _assemble_group(
    group: list[GamesInput | SidesInput], players: PlayerList | None
) -> pd.DataFrame:
    """The sides of ``group`` (one input, or plain games files rated with ``players``)."""
    if len(group) > 1:
        games = [item.games for item in group if isinstance(item, GamesInput)]
        together = GamesInput(group[0].source, pd.concat(games, ignore_index=True))
        try:
            return assemble_sides([together], players)
        except InputError:
            pass  # found one by one below, each problem naming its own file
    problems: list[Problem] = []
    parts = []
    for item in group:
        try:
            parts.append(assemble_sides(with_byes([item], players), players))
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
