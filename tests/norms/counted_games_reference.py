"""The counted games as main computed them before issue 35 (pandas objects: groupbys on the
ids, merges, a MultiIndex per count), kept as the oracle of
:func:`pipeline.norms.norm_games.counted_games`, which works on integer codes
(tests/norms/test_counted_games_codes.py compares the two on generated events)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from pipeline.norms.norm_games import EventFacts
from pipeline.norms.rules import NormRule


def _lookup(ids: pd.Series, values: pd.Series) -> pd.Series:
    """Each id's value ("" for an id without one)."""
    return ids.map(values).astype("string").fillna("").astype(str)


def counted_games(
    sides: pd.DataFrame,
    people: pd.DataFrame,
    rules: Sequence[NormRule],
    facts: Mapping[str, EventFacts] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(``entries``: one row per event and player; ``games``: the player's games played over
    the board, in round order, ``entry`` pointing at its row of ``entries``).

    Not counted (1.4.2b): in a round robin, the games against an unrated player who scored 0
    against the rated opponents; they leave the entry's scheduled games too (``excluded``)."""
    unrated_as = {r.unrated_as for r in rules}
    if len(unrated_as) != 1:
        raise ValueError("every norm rule must count unrated opponents alike")
    look = people.set_index("id")
    paired = sides[sides["opponent"].ne("")]
    entries = (
        sides[["event", "player"]]
        .drop_duplicates()
        .reset_index(drop=True)
        .assign(entry=lambda f: f.index)
    )
    entries = _round_robin(entries, paired)
    over_board = paired["played"].to_numpy(dtype=bool)
    played = paired[over_board].copy()
    rr_events = entries.loc[entries["round_robin"], "event"].unique()
    excluded = _zero_unrated_opponents(played, rr_events)
    played = played[~excluded]
    played["round_no"] = pd.to_numeric(played["round"], errors="coerce").fillna(0).astype(np.int64)
    played = played.merge(entries[["event", "player", "entry"]], on=["event", "player"])
    played = played.sort_values(["entry", "round_no"], kind="stable")
    rating = played["opponent_rating"].astype("Int64").fillna(unrated_as.pop())
    games = pd.DataFrame(
        {
            "entry": played["entry"].to_numpy(np.int64),
            "round_no": played["round_no"].to_numpy(np.int64),
            "opponent": played["opponent"].astype(str).to_numpy(),
            "opponent_rating": rating.to_numpy(np.int64),
            "unrated": played["opponent_rating"].isna().to_numpy(),
            "opponent_title": _lookup(played["opponent"], look["title"]).to_numpy(),
            "opponent_federation": _lookup(played["opponent"], look["federation"]).to_numpy(),
            "score_h": played["score_h"].to_numpy(np.int64),
        }
    )
    for column in ("name", "title", "federation", "sex"):
        entries[column] = _lookup(entries["player"], look[column])
    entries["order"] = entries["player"].map(pd.Series(np.arange(len(people)), index=people["id"]))
    entries["order"] = entries["order"].fillna(len(people)).astype(np.int64)
    entries["played"] = np.bincount(games["entry"], minlength=len(entries))
    entries["excluded"] = _per_entry(entries, paired[over_board][excluded])
    entries["scheduled"] -= entries["excluded"].where(entries["round_robin"], 0)
    # Forfeit wins (and wins in less than one move): unplayed, the full point to the player.
    won = paired[~over_board & paired["score_h"].eq(100).to_numpy()]
    entries["forfeit_wins"] = _per_entry(entries, won)
    facts = facts or {}
    entries["pairing_byes"] = [
        int(facts.get(e, EventFacts(e)).pairing_byes.get(p, 0))
        for e, p in zip(entries["event"], entries["player"], strict=True)
    ]
    entries["rounds"] = entries["event"].map(_rounds(sides)).fillna(0).astype(np.int64)
    return entries, games.reset_index(drop=True)


def _per_entry(entries: pd.DataFrame, rows: pd.DataFrame) -> np.ndarray:
    """How many of ``rows`` (sides) each entry has."""
    counts = rows.groupby(["event", "player"]).size()
    keys = pd.MultiIndex.from_frame(entries[["event", "player"]])
    return counts.reindex(keys).fillna(0).astype(np.int64).to_numpy()


def _rounds(sides: pd.DataFrame) -> pd.Series:
    """Each event's rounds so far: the highest round number its sides carry."""
    number = pd.to_numeric(sides["round"], errors="coerce").fillna(0).astype(np.int64)
    return number.groupby(sides["event"]).max()


def _zero_unrated_opponents(played: pd.DataFrame, rr_events: np.ndarray) -> np.ndarray:
    """Bool per played side: its opponent is, in a round robin, an unrated player who scored 0
    against the rated opponents (B.01 1.4.2b: such games are not included)."""
    theirs = played[
        played["event"].isin(rr_events).to_numpy()
        & played["player_rating"].isna().to_numpy()
        & played["opponent_rating"].notna().to_numpy()
    ]
    points = theirs.groupby(["event", "player"])["score_h"].sum()
    zero = points[points.eq(0)].index
    if not len(zero):
        return np.zeros(len(played), dtype=bool)
    keys = pd.MultiIndex.from_arrays([played["event"], played["opponent"]])
    return np.asarray(keys.isin(zero), dtype=bool)


def _round_robin(entries: pd.DataFrame, paired: pd.DataFrame) -> pd.DataFrame:
    """Flags all-play-all events, detected from the pairings: every player met every other
    player (each pair the same number of times). Then ``scheduled`` is each player's games."""
    pairs = paired.groupby(["event", "player", "opponent"], sort=False).size()
    per_event = paired.groupby("event")["player"].nunique()
    met = pairs.groupby(level=["event", "player"]).size()
    cycles = pairs.groupby(level="event").agg(["min", "max"])
    everyone = (
        (met == met.index.get_level_values("event").map(per_event) - 1).groupby(level="event").all()
    )
    rr = everyone & (cycles["min"] == cycles["max"]) & (per_event >= 3)
    entries["round_robin"] = entries["event"].map(rr).fillna(False).astype(bool)
    scheduled = (per_event - 1) * cycles["max"]
    entries["scheduled"] = entries["event"].map(scheduled).fillna(0).astype(np.int64)
    return entries
