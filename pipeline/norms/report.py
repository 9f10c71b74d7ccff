"""Title norms of read events: the table behind ``fiderate norms`` (``pipeline.jobs.norms``)
and the norms sheet/section of report.xlsx and report.html.

The games come from the same sides frame the engine rates; nothing here reads or writes files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

import numpy as np
import pandas as pd

from pipeline.engine.sides import assemble_sides
from pipeline.errors import RunError
from pipeline.model import GamesInput, NormReport, PlayerList, SidesInput
from pipeline.norms.games import (
    EventFacts,
    counted_games,
    event_facts,
    exceptions_by_event,
    has_norm_data,
    norm_people,
)
from pipeline.norms.requirements import REQUIREMENTS, best_windows, evaluate
from pipeline.norms.rules import NORM_RULES, TO_CONFIRM

# The columns of the norm table, in order (numbers typed; text as text).
COLUMNS = [
    "event",
    "id",
    "name",
    "federation",
    "title",
    "norm",
    "result",
    "games",
    "played",
    "rounds",
    "unrated",
    "lowest",
    "raised_to",
    "ra",
    "score",
    "p",
    "dp",
    "performance",
    *[c for name in REQUIREMENTS for c in (name, f"{name}_margin")],
    "missed",
    "to_confirm",
]


def _notes(best: pd.DataFrame, facts: Mapping[str, EventFacts]) -> pd.Series:
    """Per row, what the file could not settle: joined with '; '."""
    # Whether the event names its host federation (a bool per row: mapping the hosts themselves
    # gave a float column when no event of the run has one, which fillna("") warns about).
    hosts = {e: bool(f.host) for e, f in facts.items()}
    has_host = best["event"].map(lambda e: hosts.get(e, False)).astype(bool)
    fed_missed = best[["foreign_federations", "own_federation", "one_federation"]].eq("missed")
    parts = [
        (best["federation"].isin(["", "FID"]), "player's federation not given"),
        (
            best["no_federation"] > 0,
            best["no_federation"].astype(str) + " opponent(s) without a federation",
        ),
        (best["unrated"] > 0, best["unrated"].astype(str) + " unrated opponent(s) counted as 1400"),
        (
            (best["length"] < best["played"]) & ~best["round_robin"],
            "judged on the first "
            + best["length"].astype(str)
            + " of "
            + best["played"].astype(str)
            + " games (extra games, 1.4.1)",
        ),
        (
            fed_missed.any(axis=1) & ~has_host & ~best["round_robin"],
            "no host federation (TRF 032): the 1.4.3 Swiss exception was not checked",
        ),
        (best["round_robin"] & (best["played"] > 13), "round robin of more than 13 games"),
        (best["sex"].eq("") & best["norm"].isin(["WGM", "WIM"]), "sex not given"),
    ]
    text = pd.Series("", index=best.index)
    for mask, note in parts:
        note = note if isinstance(note, pd.Series) else pd.Series(note, index=best.index)
        text = text.where(~mask, text + np.where(text.eq(""), "", "; ") + note)
    return text


def _table(best: pd.DataFrame, facts: Mapping[str, EventFacts]) -> pd.DataFrame:
    missed = pd.Series("", index=best.index)
    for name in REQUIREMENTS:
        hit = best[name].eq("missed")
        missed = missed.where(~hit, missed + np.where(missed.eq(""), "", ", ") + name)
    rounds = best["first_round"].astype(str) + "-" + best["last_round"].astype(str)
    table = best.assign(
        id=best["player"],
        result=np.where(best["met"], "norm", "no norm"),
        games=best["length"],
        rounds=rounds.where(best["length"] > 0, ""),
        score=(best["score_h"] / 100).map("{:g}".format),
        p=(best["p_h"] / 100).map("{:.2f}".format),
        missed=missed,
        to_confirm=_notes(best, facts),
    )
    return table[COLUMNS].reset_index(drop=True)


def check_norms(
    sides: pd.DataFrame,
    people: pd.DataFrame,
    facts: Mapping[str, EventFacts],
    *,
    titles: Sequence[str] = (),
    player_ids: Sequence[str] = (),
) -> NormReport:
    """Every player of every event against every title's rules (or ``titles``)."""
    rules = [NORM_RULES[t.upper()] for t in titles] if titles else list(NORM_RULES.values())
    entries, games = counted_games(sides, people, rules)
    if player_ids:
        missing = sorted(set(player_ids) - set(entries["player"]))
        if missing:
            raise RunError(
                f"--player {missing[0]!r} is not a player of these events "
                f"({len(missing)} unknown id(s)); use the FIDE ID, or file#rank for a player "
                "without one"
            )
        entries = entries[entries["player"].isin(player_ids)]
    entries = entries[entries["played"] > 0]  # no game over the board: nothing to judge
    events = exceptions_by_event(sides, people, rules[0], facts)
    exception = {e: cast("bool | None", v["applies"]) for e, v in events.items()}
    parts = [best_windows(evaluate(entries, games, rule, exception)) for rule in rules]
    rank = {t: i for i, t in enumerate(NORM_RULES)}
    best = pd.concat(parts, ignore_index=True)
    event_order = {e: i for i, e in enumerate(sides["event"].unique())}
    best = best.assign(
        _event=best["event"].map(event_order), _rank=best["norm"].map(rank)
    ).sort_values(["_event", "order", "entry", "_rank"], kind="stable", ignore_index=True)
    rr = entries.groupby("event")["round_robin"].any()
    summary: list[dict[str, object]] = [
        {
            "event": event,
            "host": facts.get(event, EventFacts(event)).host,
            "type": facts.get(event, EventFacts(event)).kind,
            "rounds": facts.get(event, EventFacts(event)).rounds,
            "round_robin": bool(rr.get(event, False)),
            "swiss_exception": info,
        }
        for event, info in events.items()
    ]
    return NormReport(_table(best, facts), summary, TO_CONFIRM)


def norm_inputs(
    inputs: Sequence[GamesInput | SidesInput],
    players: PlayerList | None,
    sides: pd.DataFrame | None = None,
    *,
    titles: Sequence[str] = (),
    player_ids: Sequence[str] = (),
) -> NormReport | None:
    """Norms of read inputs (None when the players carry neither titles nor federations)."""
    people = norm_people(players, inputs)
    if not has_norm_data(people):
        return None
    if sides is None:
        sides = assemble_sides(list(inputs), players)  # byes are no games: not needed here
    return check_norms(sides, people, event_facts(inputs), titles=titles, player_ids=player_ids)
