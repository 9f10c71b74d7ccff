"""Title norms of read events: the table behind ``fiderate norms`` (``pipeline.jobs.norms``)
and the norms sheet/section of report.xlsx and report.html.

The games come from the same sides frame the engine rates; nothing here reads or writes files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

import numpy as np
import pandas as pd

from pipeline.arrays.distinct_values import per_distinct
from pipeline.engine.sides import assemble_sides
from pipeline.errors import RunError
from pipeline.model import GamesInput, NormReport, PlayerList, SidesInput
from pipeline.norms.norm_games import (
    EventFacts,
    counted_games,
    event_facts,
    exceptions_by_event,
    has_norm_data,
    norm_people,
)
from pipeline.norms.requirements import REQUIREMENTS, evaluate_rules
from pipeline.norms.rules import NORM_ERAS, NORM_RULES, TO_CONFIRM, NormRule, norm_era_on

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
    "norm_games",
    *[c for name in REQUIREMENTS for c in (name, f"{name}_margin")],
    "missed",
    "to_confirm",
]


def _note(
    no_federation_given: bool,
    no_federation: int,
    unrated: int,
    unrated_as: int,
    length: int,
    played: int,
    round_robin: bool,
    federation_missed: bool,
    has_host: bool,
    counted: int,
    excluded: int,
) -> str:
    """What the file could not settle for one row, joined with '; '."""
    notes = []
    if no_federation_given:
        notes.append("player's federation not given")
    if no_federation > 0:
        notes.append(f"{no_federation} opponent(s) without a federation")
    if unrated > 0:
        notes.append(f"{unrated} unrated opponent(s) counted as {unrated_as}")
    if length < played and not round_robin:
        notes.append(f"judged on the first {length} of {played} games (extra games, 1.4.1)")
    if federation_missed and not has_host and not round_robin:
        notes.append("no host federation (TRF 032): the 1.4.3 Swiss exception was not checked")
    if round_robin and played > 13:
        notes.append("more than 13 rounds: the norm counts as 13 games (1.7)")
    if counted > length:
        notes.append(
            "8 games counted as 9 (1.4.1c: the 9th round a forfeit win or pairing-allocated "
            "bye; once per title application)"
        )
    if excluded > 0:
        notes.append(
            f"{excluded} game(s) against an unrated player who scored 0 against rated opponents "
            "not counted (1.4.2b)"
        )
    return "; ".join(notes)


def _notes(best: pd.DataFrame, facts: Mapping[str, EventFacts]) -> np.ndarray:
    """Per row, what the file could not settle (:func:`_note`, once per distinct case)."""
    # Whether the event names its host federation.
    hosts = {e: bool(f.host) for e, f in facts.items()}
    has_host = best["event"].map(lambda e: hosts.get(e, False)).astype(bool)
    fed_missed = best[["foreign_federations", "own_federation", "one_federation"]].eq("missed")
    return per_distinct(
        _note,
        best["federation"].isin(["", "FID"]),
        best["no_federation"],
        best["unrated"],
        best["unrated_as"],
        best["length"],
        best["played"],
        best["round_robin"],
        fed_missed.any(axis=1),
        has_host,
        best["counted"],
        best["excluded"],
    )


def _missed(*statuses: object) -> str:
    """The requirements a row missed, in order, joined with ', '."""
    return ", ".join(n for n, s in zip(REQUIREMENTS, statuses, strict=True) if s == "missed")


def _table(best: pd.DataFrame, facts: Mapping[str, EventFacts]) -> pd.DataFrame:
    """The norm table (``COLUMNS``); its texts made once per distinct value."""
    computed = {
        "id": best["player"].to_numpy(),
        "result": np.where(best["met"], "norm", "no norm"),
        "games": best["length"].to_numpy(),
        "rounds": per_distinct(
            lambda first, last, k: f"{first}-{last}" if k > 0 else "",
            best["first_round"],
            best["last_round"],
            best["length"],
        ),
        "score": per_distinct(lambda h: f"{h / 100:g}", best["score_h"]),
        "p": per_distinct(lambda h: f"{h / 100:.2f}", best["p_h"]),
        "missed": per_distinct(_missed, *(best[name] for name in REQUIREMENTS)),
        "to_confirm": _notes(best, facts),
    }
    return pd.DataFrame({c: computed[c] if c in computed else best[c].to_numpy() for c in COLUMNS})


def _event_day(event: str, sides: pd.DataFrame, facts: Mapping[str, EventFacts]) -> str:
    """The day the event started: TRF 042, else its first game date ("" when undated)."""
    start = facts.get(event, EventFacts(event)).start
    if start or "date" not in sides:
        return start
    dates = sides.loc[sides["event"] == event, "date"].dropna().astype(str)
    dates = dates[dates.ne("")]
    return str(dates.min()) if len(dates) else ""


def check_norms(
    sides: pd.DataFrame,
    people: pd.DataFrame,
    facts: Mapping[str, EventFacts],
    *,
    titles: Sequence[str] = (),
    player_ids: Sequence[str] = (),
) -> NormReport:
    """Every player of every event against every title's rules (or ``titles``), each event
    with the norm rules in force when it started (``NORM_ERAS``)."""
    if player_ids:
        missing = sorted(set(player_ids) - set(sides["player"]))
        if missing:
            raise RunError(
                f"--player {missing[0]!r} is not a player of these events "
                f"({len(missing)} unknown id(s)); use the FIDE ID, or file#rank for a player "
                "without one"
            )
    chosen = [t.upper() for t in titles] if titles else list(NORM_RULES)
    eras: dict[str, list[str]] = {}
    days = {}
    for event in sides["event"].unique():
        days[event] = _event_day(event, sides, facts)
        eras.setdefault(norm_era_on(days[event]).name, []).append(event)
    parts, summary_of = [], {}
    for name, events in eras.items():
        era = next(e for e in NORM_ERAS if e.name == name)
        rules = [era.rules()[t] for t in chosen]
        part = sides if len(eras) == 1 else sides[sides["event"].isin(events)]
        best, summary = _check_era(part, people, facts, rules, player_ids)
        parts.append(best)
        for row in summary:
            row.update(start=days[str(row["event"])], rules=name)
            summary_of[row["event"]] = row
    rank = {t: i for i, t in enumerate(NORM_RULES)}
    best = pd.concat(parts, ignore_index=True)
    event_order = {e: i for i, e in enumerate(sides["event"].unique())}
    best = best.assign(
        _event=best["event"].map(event_order), _rank=best["norm"].map(rank)
    ).sort_values(["_event", "order", "entry", "_rank"], kind="stable", ignore_index=True)
    ordered = [summary_of[e] for e in event_order if e in summary_of]
    return NormReport(_table(best, facts), ordered, TO_CONFIRM)


def _check_era(
    sides: pd.DataFrame,
    people: pd.DataFrame,
    facts: Mapping[str, EventFacts],
    rules: Sequence[NormRule],
    player_ids: Sequence[str],
) -> tuple[pd.DataFrame, list[dict[str, object]]]:
    """The best window of every candidate of these events (one era's rules), and each event's
    summary."""
    entries, games = counted_games(sides, people, rules, facts)
    if player_ids:
        entries = entries[entries["player"].isin(player_ids)]
    entries = entries[entries["played"] > 0]  # no game over the board: nothing to judge
    events = exceptions_by_event(sides, people, rules[0], facts)
    exception = {e: cast("bool | None", v["applies"]) for e, v in events.items()}
    best = evaluate_rules(entries, games, rules, exception)
    # Each era's entries are numbered from 0: keep them apart once the eras are put together.
    best["entry"] = best["entry"].astype(str) + "@" + best["event"].astype(str)
    rr = set(entries.loc[entries["round_robin"], "event"])
    # WGM and WIM are checked only for players known to be female: the others are counted, so
    # the report says whose sex was unknown instead of checking them.
    women = any(rule.women_only for rule in rules)
    unknown = entries[entries["sex"].eq("")] if women else entries.iloc[:0]
    summary: list[dict[str, object]] = [
        {
            "event": event,
            "host": facts.get(event, EventFacts(event)).host,
            "type": facts.get(event, EventFacts(event)).kind,
            "rounds": facts.get(event, EventFacts(event)).rounds,
            "round_robin": event in rr,
            "swiss_exception": info,
            "sex_unknown": unknown.loc[unknown["event"].eq(event), "player"].tolist(),
        }
        for event, info in events.items()
    ]
    return best, summary


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
