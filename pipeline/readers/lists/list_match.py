"""How the events of a ``rate`` run meet the list in force (``--players``): how many of the
events' players the list holds, and how many ratings printed on the event files differ from it
(the list's rating is the one used). Printed after the run and in ``rate --json``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from pipeline.model import GamesInput, ListMatch, PlayerList, SidesInput


def _printed_ratings(inputs: Sequence[GamesInput | SidesInput]) -> pd.DataFrame:
    """(id, rating) for every rating an event file prints: its own players (TRF, crosstables)
    and the white_rating/black_rating columns of games files. Each part is cut to its printed
    ratings before the parts are put together (a games file usually prints none: two million
    ids are then never copied)."""
    parts = []
    for item in inputs:
        if not isinstance(item, GamesInput):
            continue
        if item.players is not None:
            parts.append(_printed(item.players.players["id"], item.players.players["rating"]))
        g = item.games
        for side in ("white", "black"):
            parts.append(_printed(g[side], g[f"{side}_rating"]))
    if not parts:
        return pd.DataFrame(
            {"id": pd.Series([], dtype=str), "rating": pd.Series([], dtype="Int64")}
        )
    return pd.concat(parts, ignore_index=True)


def _printed(ids: pd.Series, ratings: pd.Series) -> pd.DataFrame:
    rating = ratings.astype("Int64")
    at = np.flatnonzero(rating.notna().to_numpy())
    return pd.DataFrame(
        {
            "id": ids.iloc[at].reset_index(drop=True),
            "rating": rating.iloc[at].reset_index(drop=True),
        }
    )


def _event_ids(inputs: Sequence[GamesInput | SidesInput]) -> pd.Series:
    parts = []
    for item in inputs:
        if isinstance(item, GamesInput):
            parts.append(item.codes().players)  # the distinct ids of both colours
            if item.players is not None:
                parts.append(item.players.players["id"])
        else:
            parts.append(item.sides["player"])
    if not parts:
        return pd.Series([], dtype=str)
    ids = pd.concat(parts, ignore_index=True).astype(str)
    ids = ids[ids.ne("")]
    # One games file's codes hold each id once already: nothing to drop.
    alone = len(parts) == 1 and isinstance(inputs[0], GamesInput)
    return ids if alone else ids.drop_duplicates()


def list_match(in_force: PlayerList, inputs: Sequence[GamesInput | SidesInput]) -> ListMatch:
    """Through the list's one id look-up (``PlayerList.positions``: an id's first row, as
    ``drop_duplicates("id")`` keeps it), which the run's sides reuse."""
    ids = _event_ids(inputs)
    printed = _printed_ratings(inputs)
    rows = in_force.positions(printed["id"])
    listed = rows >= 0
    rating = in_force.players["rating"].astype("Int64").array.take(rows[listed], allow_fill=True)
    given = printed["rating"].to_numpy(dtype=np.int64)[listed]
    differ = rating.isna() | (rating.to_numpy(dtype=np.int64, na_value=0) != given)
    return ListMatch(
        event_players=len(ids),
        on_list=int((in_force.positions(ids) >= 0).sum()),
        list_players=in_force.lookup().distinct(),  # the sorted ids, not a new hash
        ratings_differ=int(printed["id"][listed][differ].nunique()),
    )
