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


def _taken(values: pd.Series, rows: np.ndarray) -> np.ndarray:
    """``values`` at positions ``rows`` (-1: an id without one, ""), as an object array."""
    text = values.astype("string").fillna("").astype(str).to_numpy(dtype=object)
    return np.append(text, "")[rows]


def counted_games(
    sides: pd.DataFrame,
    people: pd.DataFrame,
    rules: Sequence[NormRule],
    facts: Mapping[str, EventFacts] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(``entries``: one row per event and player; ``games``: the player's games played over
    the board, in round order, ``entry`` pointing at its row of ``entries``).

    Not counted (1.4.2b): in a round robin, the games against an unrated player who scored 0
    against the rated opponents; they leave the entry's scheduled games too (``excluded``).

    On integer codes throughout: each side's entry (its event and player, numbered in order of
    first appearance) and its opponent's entry in the same event are found once, and every
    count per entry or event is a ``bincount`` of those codes."""
    unrated_as = {r.unrated_as for r in rules}
    if len(unrated_as) != 1:
        raise ValueError("every norm rule must count unrated opponents alike")
    codes = _SideCodes(sides)
    n = codes.entries
    paired = sides["opponent"].ne("").to_numpy()
    over_board = paired & sides["played"].to_numpy(dtype=bool)
    score_h = sides["score_h"].to_numpy(np.int64)
    round_robin, scheduled = _round_robin(codes, paired)
    excluded = over_board & _zero_unrated_opponents(sides, codes, over_board, round_robin)
    counted = over_board & ~excluded
    rows = np.flatnonzero(counted)
    rows = rows[np.lexsort((codes.round_no[rows], codes.entry[rows]))]
    ids = pd.Index(people["id"])
    opponent_person = ids.get_indexer(sides["opponent"].iloc[rows])
    rating = sides["opponent_rating"].iloc[rows]
    games = pd.DataFrame(
        {
            "entry": codes.entry[rows],
            "round_no": codes.round_no[rows],
            "opponent": sides["opponent"].iloc[rows].astype(str).to_numpy(),
            "opponent_rating": rating.fillna(unrated_as.pop()).to_numpy(np.int64),
            "unrated": rating.isna().to_numpy(),
            "opponent_title": _taken(people["title"], opponent_person),
            "opponent_federation": _taken(people["federation"], opponent_person),
            "score_h": score_h[rows],
        }
    )
    first = codes.first_side
    entries = pd.DataFrame(
        {
            "event": sides["event"].iloc[first].to_numpy(),
            "player": sides["player"].iloc[first].to_numpy(),
            "entry": np.arange(n, dtype=np.int64),
            "round_robin": round_robin[codes.event_of_entry],
            "scheduled": scheduled[codes.event_of_entry],
        }
    )
    person = ids.get_indexer(entries["player"])
    for column in ("name", "title", "federation", "sex"):
        entries[column] = _taken(people[column], person)
    entries["order"] = np.where(person >= 0, person, len(people)).astype(np.int64)
    entries["played"] = np.bincount(codes.entry[counted], minlength=n).astype(np.int64)
    entries["excluded"] = np.bincount(codes.entry[excluded], minlength=n).astype(np.int64)
    entries["scheduled"] -= np.where(entries["round_robin"], entries["excluded"], 0)
    # Forfeit wins (and wins in less than one move): unplayed, the full point to the player.
    won = paired & ~over_board & (score_h == 100)
    entries["forfeit_wins"] = np.bincount(codes.entry[won], minlength=n).astype(np.int64)
    entries["pairing_byes"] = _pairing_byes(entries, facts or {})
    entries["rounds"] = codes.rounds[codes.event_of_entry]
    return entries, games.reset_index(drop=True)


class _SideCodes:
    """Integer codes of the sides: each side's entry (event and player, numbered in order of
    first appearance), its opponent's entry in the same event (-1 when the opponent has no
    side there), its round as a number, and per event its rounds so far."""

    def __init__(self, sides: pd.DataFrame) -> None:
        event, events = pd.factorize(sides["event"])
        # Players and opponents share one numbering, so a side's opponent finds its own entry.
        people, _ = pd.factorize(pd.concat([sides["player"], sides["opponent"]]))
        player, opponent = people[: len(sides)], people[len(sides) :]
        width = int(people.max(initial=0)) + 1
        key = event.astype(np.int64) * width + player
        self.entry, first_key = pd.factorize(key)
        self.entries = len(first_key)
        _, self.first_side = np.unique(self.entry, return_index=True)
        self.opponent_person = opponent
        self.event = event
        self.events = len(events)
        self.event_of_entry = event[self.first_side]
        # The opponent's entry: its key among the entries' keys (sorted once, then searched).
        keys = np.asarray(first_key, dtype=np.int64)
        order = np.argsort(keys)
        wanted = event.astype(np.int64) * width + opponent
        at = np.minimum(np.searchsorted(keys[order], wanted), max(self.entries - 1, 0))
        found = self.entries > 0
        hit = found & (keys[order][at] == wanted) if found else np.zeros(len(sides), dtype=bool)
        self.opponent_entry = np.where(hit, order[at] if found else 0, -1)
        self.round_no = (
            pd.to_numeric(sides["round"], errors="coerce").fillna(0).astype(np.int64).to_numpy()
        )
        # Each event's rounds so far: the highest round number its sides carry.
        self.rounds = np.zeros(self.events, dtype=np.int64)
        np.maximum.at(self.rounds, event, self.round_no)


def _pairing_byes(entries: pd.DataFrame, facts: Mapping[str, EventFacts]) -> np.ndarray:
    """Each entry's pairing-allocated byes (TRF code U), from its event's facts."""
    byes = np.zeros(len(entries), dtype=np.int64)
    for event, fact in facts.items():
        if not fact.pairing_byes:
            continue
        mine = entries["event"].eq(event).to_numpy()
        counts = pd.Series(fact.pairing_byes, dtype=np.int64)
        byes[mine] = entries["player"][mine].map(counts).fillna(0).to_numpy(np.int64)
    return byes


def _zero_unrated_opponents(
    sides: pd.DataFrame, codes: _SideCodes, over_board: np.ndarray, round_robin: np.ndarray
) -> np.ndarray:
    """Bool per side: its opponent is, in a round robin, an unrated player who scored 0
    against the rated opponents (B.01 1.4.2b: such games are not included)."""
    theirs = (
        over_board
        & round_robin[codes.event]
        & sides["player_rating"].isna().to_numpy()
        & sides["opponent_rating"].notna().to_numpy()
    )
    if not theirs.any():
        return np.zeros(len(sides), dtype=bool)
    games = np.bincount(codes.entry[theirs], minlength=codes.entries)
    points = np.bincount(
        codes.entry[theirs],
        weights=sides["score_h"].to_numpy(np.int64)[theirs],
        minlength=codes.entries,
    )
    zero = (games > 0) & (points == 0)
    opponent = codes.opponent_entry
    return (opponent >= 0) & zero[np.maximum(opponent, 0)]


def _round_robin(codes: _SideCodes, paired: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per event: (all-play-all, each player's scheduled games), detected from the pairings:
    every player met every other player (each pair the same number of times) and at least 3
    played. Then the scheduled games are (players - 1) x meetings per pair."""
    entry, opponent = codes.entry[paired], codes.opponent_person[paired]
    event = codes.event[paired]
    players = np.bincount(np.unique(entry), minlength=codes.entries) > 0
    per_event = np.bincount(codes.event_of_entry[players], minlength=codes.events)
    # Each (player, opponent id) pair of the sides and how often it was paired.
    pair_key = entry.astype(np.int64) * (int(opponent.max(initial=0)) + 1) + opponent
    _, pair_first, times = np.unique(pair_key, return_index=True, return_counts=True)
    pair_event = event[pair_first]
    pair_entry = entry[pair_first]
    met = np.bincount(pair_entry, minlength=codes.entries)
    most = np.zeros(codes.events, dtype=np.int64)
    least = np.full(codes.events, np.iinfo(np.int64).max, dtype=np.int64)
    np.maximum.at(most, pair_event, times)
    np.minimum.at(least, pair_event, times)
    everyone = np.ones(codes.events, dtype=bool)
    short = players & (met != per_event[codes.event_of_entry] - 1)
    everyone[codes.event_of_entry[short]] = False
    has_pairs = per_event > 0
    round_robin = has_pairs & everyone & (least == most) & (per_event >= 3)
    scheduled = np.where(has_pairs, (per_event - 1) * most, 0).astype(np.int64)
    return round_robin, scheduled


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
    present = sides["player"][attended & sides["opponent"].ne("").to_numpy()].value_counts()
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
    # Only the columns the exception reads are cut per event (the sides carry a dozen more).
    needed = sides[["event", "player", "opponent", "player_rating", "round", "played", "score_h"]]
    events = needed["event"].unique()
    return {
        event: swiss_exception(
            needed if len(events) == 1 else needed[needed["event"] == event],
            people,
            rule,
            facts.get(event, EventFacts(event)),
        )
        for event in events
    }
