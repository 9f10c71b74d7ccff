"""The games a norm is judged on: per event and player, the games played over the board, in
round order, with each opponent's rating (unrated = 1400), title and federation.

Everything comes from the sides frame (``pipeline.engine.sides``: one row per player per game,
forfeits and byes marked not played) and the players of the event; nothing is read twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from pipeline.model import EventInfo, GamesInput, PlayerList, SidesInput
from pipeline.norms.rules import NO_FEDERATION, NORM_TITLES, NormRule

PEOPLE_COLUMNS = ["id", "name", "title", "federation", "sex"]


@dataclass(frozen=True)
class EventFacts:
    """What the event file says that the norm rules need (TRF 012, 032, 092, XXR)."""

    name: str
    host: str = ""  # host federation (TRF 032); "" = not given
    kind: str = ""  # type of tournament as written (TRF 092), shown only
    rounds: int | None = None
    start: str = ""  # YYYY-MM-DD (TRF 042): the norm rules in force are those of this day
    # Pairing-allocated byes (TRF code U) per player: a round the player did not miss (1.4.1c,
    # 1.4.3d).
    pairing_byes: Mapping[str, int] = field(default_factory=dict)


def event_facts(inputs: Sequence[GamesInput | SidesInput]) -> dict[str, EventFacts]:
    """Each event's facts by the event name its games carry."""
    facts = {}
    for item in inputs:
        if not isinstance(item, GamesInput) or item.info is None or not len(item.games):
            continue
        info: EventInfo = item.info
        kept = {line[:3]: line[4:].strip() for _, line in info.kept}
        name = str(item.games["event"].iat[0])
        byes = item.byes
        pairing_byes = (
            {}
            if byes is None or "code" not in byes
            else byes.loc[byes["code"].eq("U"), "player"].astype(str).value_counts().to_dict()
        )
        facts[name] = EventFacts(
            name,
            kept.get("032", "").upper(),
            kept.get("092", ""),
            info.rounds,
            info.start or "",
            pairing_byes,
        )
    return facts


def _text(frame: pd.DataFrame, column: str) -> pd.Series:
    if column not in frame:
        return pd.Series("", index=frame.index, dtype=str)
    return frame[column].astype("string").fillna("").str.strip().astype(str)


def norm_people(
    players: PlayerList | None, inputs: Sequence[GamesInput | SidesInput]
) -> pd.DataFrame:
    """id, name, title, federation, sex of every player: the list in force where it says, else
    the event file's own record (a CSV list often has no titles or federations)."""
    frames = [] if players is None else [players.players]
    frames += [i.players.players for i in inputs if isinstance(i, GamesInput) and i.players]
    if not frames:
        return pd.DataFrame({c: pd.Series([], dtype=str) for c in PEOPLE_COLUMNS})
    parts = [pd.DataFrame({c: _text(f, c) for c in PEOPLE_COLUMNS}) for f in frames]
    every = pd.concat(parts, ignore_index=True)
    every["title"] = every["title"].str.upper()
    every["federation"] = every["federation"].str.upper()
    # First non-blank value per id and field, in the order list in force, then events.
    blank_na = every.replace("", np.nan)
    people = blank_na.groupby("id", sort=False).first().fillna("").reset_index()
    return people[PEOPLE_COLUMNS]


def has_norm_data(people: pd.DataFrame) -> bool:
    """Norms need titles and federations: a games file with a bare players list has neither."""
    return bool(people["federation"].ne("").any() or people["title"].ne("").any())


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


def swiss_exception(
    sides: pd.DataFrame, people: pd.DataFrame, rule: NormRule, facts: EventFacts
) -> dict[str, int | bool | None]:
    """The 1.4.3d Swiss exception for one event: rated players not of the host federation
    (``FID`` is no federation), their federations and how many hold GM/IM/WGM/WIM, counting
    only players who "miss at most one round (excluding pairing-allocated byes)": a round is
    missed unless the player played it over the board, won it by forfeit, or had a pairing bye.
    ``applies`` is None without a host."""
    host = facts.host
    ids = pd.Index(pd.concat([sides["player"], sides["opponent"]]).unique()).difference([""])
    field_ = people.set_index("id").reindex(ids)
    rated = pd.Index(sides.loc[sides["player_rating"].notna(), "player"].unique())
    fed = field_["federation"].fillna("").astype(str)
    numbers = pd.to_numeric(sides["round"], errors="coerce").fillna(0)
    rounds = int(numbers.max()) if len(sides) else 0
    attended = sides["played"].to_numpy(dtype=bool) | sides["score_h"].eq(100).to_numpy()
    present = sides[attended & sides["opponent"].ne("").to_numpy()].groupby("player").size()
    present = present.reindex(ids).fillna(0) + pd.Series(facts.pairing_byes).reindex(ids).fillna(0)
    stayed = (rounds - present <= 1).to_numpy()
    foreign = (
        ids.isin(rated) & ~fed.isin(NO_FEDERATION).to_numpy() & (fed != host).to_numpy() & stayed
    )
    count = int(foreign.sum())
    federations = int(fed[foreign].nunique())
    titled = int(field_["title"].fillna("").astype(str)[foreign].isin(NORM_TITLES).sum())
    applies = (
        None
        if not host
        else bool(
            count >= rule.exception_foreign_rated
            and federations >= rule.exception_federations
            and titled >= rule.exception_titled
        )
    )
    return {
        "foreign_rated": count,
        "federations": federations,
        "titled": titled,
        "applies": applies,
    }


def exceptions_by_event(
    sides: pd.DataFrame, people: pd.DataFrame, rule: NormRule, facts: Mapping[str, EventFacts]
) -> dict[str, dict[str, int | bool | None]]:
    return {
        event: swiss_exception(
            sides[sides["event"] == event], people, rule, facts.get(event, EventFacts(event))
        )
        for event in sides["event"].unique()
    }
