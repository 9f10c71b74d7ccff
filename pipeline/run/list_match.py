"""How the events of a ``rate`` run meet the list in force (``--players``): how many of the
events' players the list holds, and how many ratings printed on the event files differ from it
(the list's rating is the one used). Printed after the run and in ``rate --json``."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from pipeline.columnar.lookup import member
from pipeline.model import GamesInput, ListMatch, PlayerList, SidesInput


def _printed_ratings(inputs: Sequence[GamesInput | SidesInput]) -> pd.DataFrame:
    """(id, rating) for every rating an event file prints: its own players (TRF, crosstables)
    and the white_rating/black_rating columns of games files."""
    parts = []
    for item in inputs:
        if not isinstance(item, GamesInput):
            continue
        if item.players is not None:
            parts.append(item.players.players[["id", "rating"]])
        g = item.games
        for side in ("white", "black"):
            parts.append(pd.DataFrame({"id": g[side], "rating": g[f"{side}_rating"]}))
    if not parts:
        return pd.DataFrame(
            {"id": pd.Series([], dtype=str), "rating": pd.Series([], dtype="Int64")}
        )
    printed = pd.concat(parts, ignore_index=True)
    printed["rating"] = printed["rating"].astype("Int64")
    return printed[printed["rating"].notna().to_numpy()]


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
    return ids[ids.ne("")].drop_duplicates()


def list_match(in_force: PlayerList, inputs: Sequence[GamesInput | SidesInput]) -> ListMatch:
    listed = in_force.players.drop_duplicates("id").set_index("id")["rating"].astype("Int64")
    ids = _event_ids(inputs)
    printed = _printed_ratings(inputs)
    printed = printed[member(printed["id"], listed.index)]
    on_list = listed.reindex(printed["id"].to_numpy()).to_numpy()
    differ = pd.Series(on_list).isna() | (pd.Series(on_list) != printed["rating"].to_numpy())
    return ListMatch(
        event_players=len(ids),
        on_list=int(member(ids, listed.index).sum()),
        list_players=len(listed),
        ratings_differ=int(printed["id"][differ.fillna(True).to_numpy()].nunique()),
    )
