"""The engine's stage: the events of a period turned into rated sides, in one call.

:func:`rate_events` is what ``fiderate rate`` asks of the engine (every event rated with one
list, the list in force), :func:`rate_with_event_lists` what ``fiderate period`` asks (each event
assembled with the list in force when it started, ``engine.assemble``); :func:`rate_assembled` is
the part both share: the
match rules on the games' own codes, the expected scores and the 400-point rule
(:mod:`pipeline.engine.rate_sides`), and the engine's boundary checked once. The grouper then
totals what this returns (:class:`pipeline.model.RatedGames`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from pipeline.engine.assemble import assemble_each, list_ratings, with_byes
from pipeline.engine.late_first_rating import late_first_ratings, unrated_at_start
from pipeline.engine.matches import SideKeys
from pipeline.engine.rate_sides import rate_sides_coded
from pipeline.engine.sequential import sequential_sides
from pipeline.engine.side_codes import side_codes_and_texts
from pipeline.engine.sides import assemble_sides, codable, side_text_codes
from pipeline.model import (
    GamesInput,
    PlayerList,
    RatedGames,
    RateOptions,
    RunPlan,
    SidesInput,
)
from schemas import RatedSides, validate
from schemas.sides import ENGINE_COLUMNS, EngineOutput


def rate_events(
    inputs: Sequence[GamesInput | SidesInput],
    players: PlayerList | None,
    options: RateOptions,
    plan: RunPlan,
) -> RatedGames:
    """Rate ``inputs`` as one period (``fiderate rate``): every event with ``players``, the list
    in force at the start of the period (the ratings the changes are added to)."""
    codes, texts = side_codes_and_texts(inputs)
    # The sides' text columns left as codes (``RatedPeriod.texts_coded``; the output stage
    # builds them for the outputs that read them) when nothing before the writers reads them:
    # not the sequential mode, the once-per-event cap of old eras, nor 8.2.4's look-up of the
    # players an event began without.
    started = started_unrated(inputs, plan.period)
    late = players is not None and len(started) > 0
    coded = (
        texts is not None
        and options.mode == "fide"
        and not plan.rules.cap_once_per_event
        and not late
        and all(isinstance(i, GamesInput) and codable(i) for i in inputs)
    )
    sides = assemble_sides(with_byes(list(inputs), players), players, coded=coded)
    # 8.2.4: an event begun under an older list.
    if late and players is not None:
        blank = unrated_at_start(sides, started)
        sides = late_first_ratings(blank, list_ratings(blank["player"], players))
    return rate_assembled(inputs, sides, options, plan, codes, texts)


def rate_with_event_lists(
    inputs: Sequence[GamesInput | SidesInput],
    players: PlayerList | None,
    event_players: Sequence[PlayerList | None],
    options: RateOptions,
    plan: RunPlan,
) -> RatedGames:
    """What ``fiderate period`` asks of the engine: ``inputs`` rated as one period, the sides of
    ``inputs[i]`` with the ratings of ``event_players[i]`` (the list in force when that event
    started, RULES.md section 6); ``players`` is the list in force at the start of the period."""
    codes, texts = side_codes_and_texts(inputs)
    sides = assemble_each(inputs, event_players)
    # 8.2.4: first ratings published since an event started. Not needed when every event is a
    # games file assembled with ``players`` itself: a side's rating is then its printed one or
    # that list's, so no side is unrated where that list rates its player.
    same_list = all(
        p is players and isinstance(i, GamesInput)
        for i, p in zip(inputs, event_players, strict=True)
    )
    if players is not None and not same_list:
        sides = late_first_ratings(sides, list_ratings(sides["player"], players))
    # The sides' texts built with them (coded=False): the period's report and history read them.
    return rate_assembled(inputs, sides, options, plan, codes, texts)


def rate_assembled(
    inputs: Sequence[GamesInput | SidesInput],
    sides: pd.DataFrame,
    options: RateOptions,
    plan: RunPlan,
    codes: tuple[np.ndarray, pd.Series] | None,
    texts: dict[str, tuple[np.ndarray, pd.Series]] | None,
) -> RatedGames:
    """The assembled ``sides`` of ``inputs`` rated: the step every job that rates shares,
    whichever list each side's rating was taken from. ``codes``/``texts``: the games' own codes
    (``engine.side_codes``), or None."""
    keys = None
    if codes is not None and texts is not None:
        keys = SideKeys.of_games(codes, texts["source"], texts["event"])
        # games.csv's opponent, result and note by code too: the opponent is the other side's
        # player, the result the side's points and whether it was played (``engine.sides``),
        # the note the engine's own code (``rate_sides_coded``).
        result_codes = side_text_codes(
            sides["score_h"].to_numpy(dtype=np.int64), sides["played"].to_numpy(dtype=bool)
        )
        texts = {**texts, "opponent": (keys.opponent, codes[1]), "result": result_codes}
    rated, note_codes = rate_sides_coded(sides, plan.rules, options.method, options.cap, keys=keys)
    rated = check_rated(rated, whole=any(isinstance(i, SidesInput) for i in inputs))
    if texts is not None:
        texts["note"] = note_codes
    return RatedGames(rated, [i.source for i in inputs], codes, texts)


def rate_in_order(
    games: RatedGames, k_by_player: pd.Series, options: RateOptions, plan: RunPlan
) -> RatedGames:
    """``games`` re-rated game by game against the running rating (the sequential mode, not the
    FIDE method: see :mod:`pipeline.engine.sequential`), with the K each player's period used.
    The sides were re-rated: their ids are encoded afresh by the totals."""
    rated = sequential_sides(games.sides, k_by_player, plan.rules, options.method, options.cap)
    return RatedGames(rated, games.sources)


def check_rated(rated: pd.DataFrame, whole: bool) -> pd.DataFrame:
    """The engine's boundary, validated once on the narrowest frame: sides assembled from games
    files were checked as Games and Players when read, so only the engine's own columns are
    checked; sides read from individual files (``whole``) are checked whole (RatedSides)."""
    if whole:
        return validate(rated, RatedSides, internal=True)
    validate(rated[ENGINE_COLUMNS], EngineOutput, internal=True)
    return rated


def started_unrated(inputs: Sequence[GamesInput | SidesInput], period: str) -> pd.DataFrame:
    """(source, player) of the players an event file gives no rating, in the event files that
    started before ``period`` (their ratings are those of an earlier list: B.02 8.2.4)."""
    parts = [
        pd.DataFrame({"source": item.source, "player": ids.to_numpy(dtype=str)})
        for item in inputs
        if isinstance(item, GamesInput)
        and item.players is not None
        and item.info is not None
        and item.info.start is not None
        and item.info.start[:7] < period
        and len(ids := item.players.players.loc[item.players.players["rating"].isna(), "id"])
    ]
    return pd.concat(parts) if parts else pd.DataFrame({"source": [], "player": []})
