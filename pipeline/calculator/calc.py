"""The calculator behind ``fiderate calc``: one player's games, rated by the real pipeline.

Nothing is computed here that the pipeline computes elsewhere: the games become a sides frame and
a one-page rating list, and go through ``pipeline.run.rate.rate_inputs`` (engine: 400-point rule and
PD; grouper: K precedence, the 700 rule, the exact change rounded once). The other method's
expectation, shown side by side, comes from the same engine. Each opponent is a separate player
on the list, so the opponent's change for the game comes out of the same grouper.

K: ``--k`` is the K on the player's card (the 700 rule still applies, as FIDE does); otherwise
the grouper's precedence decides from what the user said (``--junior``/``--birth-year``,
``--games``, ``--ever-2400``), which is 20 when nothing is said (10 for a rating of 2400+).
An opponent's K is ``--opp-k``, else the player's ``--k``, else the precedence on the opponent's
rating alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from pipeline.engine import SCALES, rate_sides
from pipeline.engine.sides import SIDE_COLUMNS, side_text
from pipeline.errors import RunError
from pipeline.model import PlayerList, RatedPeriod, RateOptions, SidesInput
from pipeline.rules.sets import get_rules
from pipeline.run.rate import rate_inputs, resolve_period

PLAYER_ID = "you"
RESULTS_H = {"win": 100, "draw": 50, "loss": 0}


@dataclass(frozen=True)
class KInput:
    """What the user said about K (all optional)."""

    k: int | None = None
    opp_k: int | None = None
    junior: bool = False
    birth_year: int | None = None
    games: int | None = None  # rated games completed before this period
    ever_2400: bool = False


@dataclass(frozen=True)
class CalcRequest:
    rating: int
    opponents: tuple[int, ...]
    scores_h: tuple[int, ...]  # 100 win, 50 draw, 0 loss, per opponent
    k: KInput = field(default_factory=KInput)
    rules: str = "standard"
    method: str = "fide"
    mode: str = "fide"
    period: str | None = None


@dataclass
class Calculation:
    request: CalcRequest
    result: RatedPeriod
    games: pd.DataFrame  # one row per game of the player (see ``_game_rows``)
    player: pd.Series  # the player's totals row (schema RatingList)

    @property
    def scale(self) -> int:
        return self.result.scale


def _check(request: CalcRequest) -> None:
    ratings = (request.rating, *request.opponents)
    bad = [r for r in ratings if not 1 <= r <= 3500]
    if bad:
        raise RunError(f"ratings must be whole numbers in 1..3500 (got {bad[0]!r})")
    if not request.opponents:
        raise RunError("give at least one game: --vs RATING:RESULT (e.g. --vs 1800:1)")
    if len(request.scores_h) != len(request.opponents):
        raise RunError("every --vs needs a result here (RATING:1, RATING:0.5 or RATING:0)")


def _sides(request: CalcRequest) -> pd.DataFrame:
    """Both sides of every game: the player's side, then the opponent's mirror."""
    n = len(request.opponents)
    opp_ids = [f"opp{i}" for i in range(1, n + 1)]
    mine_h = np.array(request.scores_h, dtype=np.int64)
    rounds = [str(i) for i in range(1, n + 1)]

    def half(
        player: list[str],
        opponent: list[str],
        own: list[int],
        other: list[int],
        h: np.ndarray,
        order: np.ndarray,
    ) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "player": pd.Series(player, dtype=str),
                "opponent": pd.Series(opponent, dtype=str),
                "event": "calc",
                "round": pd.Series(rounds, dtype=str),
                "date": pd.Series([pd.NA] * n, dtype="string"),
                "player_rating": pd.array(own, dtype="Int64"),
                "opponent_rating": pd.array(other, dtype="Int64"),
                "score_h": h,
                "played": np.ones(n, dtype=bool),
                "result": pd.Series(side_text(h, np.ones(n, dtype=bool)), dtype=str),
                "k": pd.array([pd.NA] * n, dtype="Int64"),
                "name": "",
                "source": "calc",
                "line": np.arange(1, n + 1, dtype=np.int64),
                "_order": order,
            }
        )

    order = np.arange(n) * 2
    mine = half(
        [PLAYER_ID] * n, opp_ids, [request.rating] * n, list(request.opponents), mine_h, order
    )
    theirs = half(
        opp_ids,
        [PLAYER_ID] * n,
        list(request.opponents),
        [request.rating] * n,
        100 - mine_h,
        order + 1,
    )
    sides = pd.concat([mine, theirs], ignore_index=True).sort_values("_order", kind="stable")
    return sides[SIDE_COLUMNS].reset_index(drop=True)


def _players(request: CalcRequest, period_year: int) -> PlayerList:
    n = len(request.opponents)
    kin = request.k
    rules = get_rules(request.rules)
    birth_year = kin.birth_year
    if birth_year is None and kin.junior:
        birth_year = period_year - rules.k.junior_max_age  # the last year that counts as junior
    opp_k = kin.opp_k if kin.opp_k is not None else kin.k
    players = pd.DataFrame(
        {
            "id": pd.Series([PLAYER_ID] + [f"opp{i}" for i in range(1, n + 1)], dtype=str),
            "name": pd.Series(["you"] + [f"opponent {i}" for i in range(1, n + 1)], dtype=str),
            "rating": pd.array([request.rating, *request.opponents], dtype="Int64"),
            "k": pd.array([kin.k] + [opp_k] * n, dtype="Int64"),
            "birth_year": pd.array([birth_year] + [None] * n, dtype="Int64"),
            "games": pd.array([kin.games] + [None] * n, dtype="Int64"),
            "ever_2400": np.array([kin.ever_2400] + [False] * n, dtype=bool),
            "federation": "",
            "title": "",
        }
    )
    return PlayerList("calc", players)


def calculate(request: CalcRequest) -> Calculation:
    _check(request)
    period = resolve_period(request.period)
    options = RateOptions(
        rules=request.rules, method=request.method, period=period, mode=request.mode
    )
    sides = _sides(request)
    result = rate_inputs([SidesInput("calc", sides)], _players(request, int(period[:4])), options)
    totals = result.totals.set_index("id")
    return Calculation(request, result, _game_rows(result, totals), totals.loc[PLAYER_ID])


def _game_rows(result: RatedPeriod, totals: pd.DataFrame) -> pd.DataFrame:
    """The player's games with both methods' expectations and each opponent's outcome."""
    rules = get_rules(result.options.rules)
    sides = result.sides
    mine = sides[sides["player"] == PLAYER_ID].reset_index(drop=True)
    used = mine["rating_used"] if "rating_used" in mine else mine["player_rating"]
    # The other method, from the same engine and the same rating the game was scored against.
    probe = mine.assign(player_rating=used)
    both = {
        m: rate_sides(probe, rules, m, result.options.cap)["pd_units"].to_numpy(
            dtype=np.int64, na_value=0
        )
        for m in SCALES
    }
    # A game the rules do not rate (e.g. rapid: gap 600+ with a player above 2600) carries no
    # gap, PD or deviation: zeros here, flagged by ``rated`` and explained by ``note``.
    rated = mine["rated"].to_numpy(dtype=bool)
    both[result.options.method] = mine["pd_units"].to_numpy(dtype=np.int64, na_value=0)
    k = int(totals.loc[PLAYER_ID, "k"])
    opp = totals.loc[mine["opponent"]]
    dev = mine["dev_units"].to_numpy(dtype=np.int64, na_value=0)
    return pd.DataFrame(
        {
            "round": mine["round"].astype(int),
            "rating_used": used.astype(int).to_numpy(),
            "opponent": mine["opponent_rating"].astype(int).to_numpy(),
            "score_h": mine["score_h"].to_numpy(dtype=np.int64),
            "rated": rated,
            "note": mine["note"].astype(str).to_numpy(),
            "gap": (used - mine["opponent_rating"]).astype(int).to_numpy(),
            "gap_used": mine["diff"].to_numpy(dtype=np.int64, na_value=0),
            "pd_fide_h": both["fide"] * rated,
            "e_formula_u": both["formula"] * rated,
            "dev_units": dev,
            "k_dev_units": k * dev,
            "opp_k": opp["k"].astype(int).to_numpy(),
            "opp_change_units": opp["change_units"].to_numpy(dtype=np.int64),
            "opp_change": opp["change"].to_numpy(dtype=np.int64),
            "opp_new": opp["new_rating"].astype(int).to_numpy(),
        }
    )


def every_result(request: CalcRequest) -> dict[str, Calculation]:
    """One opponent and no result: the outcome of a win, a draw and a loss."""
    if len(request.opponents) != 1:
        raise RunError("the every-possible-result table needs exactly one --vs without a result")
    return {
        name: calculate(
            CalcRequest(
                request.rating,
                request.opponents,
                (h,),
                request.k,
                request.rules,
                request.method,
                request.mode,
                request.period,
            )
        )
        for name, h in RESULTS_H.items()
    }
