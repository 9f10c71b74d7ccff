"""The calculator behind ``fiderate calc``: one player's games, rated by the pipeline's own parts.

Nothing is computed here that the pipeline computes elsewhere: the games become both sides of each
game as plain arrays and go through the engine (``rate_arrays``: 400-point rule and PD), the
grouper's K precedence (``k_precedence``) and 700 rule, the sequential mode's own array function,
and the one rounding rule (the exact change rounded once). Arrays, not frames: a calculator must
answer at once, and pandas alone takes longer to import than the whole answer (issue 13). A test
rates random requests through ``jobs.rate.stages.rate_inputs`` as well and compares every number.
The other method's expectation, shown side by side, comes from the same engine. Each opponent is
a separate player, so the opponent's change for the game comes from the same grouper rules.

K: ``--k`` is the K on the player's card (the 700 rule still applies, as FIDE does); otherwise
the grouper's precedence decides from what the user said (``--junior``/``--birth-year``,
``--games``, ``--ever-2400``), which is 20 when nothing is said (10 for a rating of 2400+).
An opponent's K is ``--opp-k``, else the player's ``--k``, else the precedence on the opponent's
rating alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline.calculator.calc_input import RATING, check_game_count
from pipeline.engine.average_opponent_method import event_expectations, group_averages
from pipeline.engine.expected import SCALES
from pipeline.engine.rate_sides import notes, rate_arrays
from pipeline.engine.sequential import sequential_arrays
from pipeline.errors import UsageError
from pipeline.grouper.kfactor import RULE_700_SUFFIX, apply_700_rule, k_precedence
from pipeline.rules.counted_words import (
    COUNTED_AS_PLAYED,
    COUNTED_AVERAGE,
    counted_words,
    rules_as_used,
)
from pipeline.rules.modes import MODES
from pipeline.rules.periods import resolve_period
from pipeline.rules.rounding import round_half_away
from pipeline.rules.select import select_rules
from pipeline.rules.sets import RuleSet

RESULTS_H = {"win": 100, "draw": 50, "loss": 0}
NOT_KNOWN_YEAR = -10_000  # a birth year that makes nobody a junior (as a blank one does)


@dataclass(frozen=True)
class KInput:
    """What the user said about K (all optional)."""

    k: int | None = None
    opp_k: int | None = None
    junior: bool = False
    birth_year: int | None = None
    games: int | None = None  # rated games completed before this period
    ever_2400: bool = False
    # What the given ``k`` is, in words ("" : the K on the player's card, FIDE's published K);
    # the web names a custom K or a US Chess K so, never "published".
    k_words: str = ""


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


@dataclass(frozen=True)
class GameRow:
    """One game of the player, with both methods' expectations and the opponent's outcome
    (units of 1/scale unless the name says otherwise; zeros where the game is not rated)."""

    round: int
    rating_used: int
    opponent: int
    score_h: int
    rated: bool
    note: str
    gap: int
    gap_used: int
    pd_fide_h: int
    e_formula_u: int
    dev_units: int
    k_dev_units: int
    opp_k: int
    opp_change_units: int
    opp_change: int
    opp_new: int
    counted: str = ""  # why gap_used counts for gap (rules.counted_words), "" as played


@dataclass
class Calculation:
    request: CalcRequest
    scale: int
    games: list[GameRow]
    # The player's totals, named as in the rating list (schema RatingList): k, k_base, k_rule,
    # games, score_h, expected_units, dev_units, change_units, change, new_rating.
    player: dict[str, int | str]
    # The era used: ``--rules``' family in force for the FIDE list the period was rated for
    # (as ``fiderate rate`` chooses it), and why.
    rules: RuleSet
    rules_reason: str


def _check(request: CalcRequest) -> None:
    ratings = (request.rating, *request.opponents)
    bad = [r for r in ratings if not RATING.low <= r <= RATING.high]
    if bad:
        raise UsageError(
            f"ratings must be whole numbers in {RATING.low}..{RATING.high} (got {bad[0]!r})"
        )
    check_game_count(len(request.opponents))
    if not request.opponents:
        raise UsageError("give at least one game: --vs RATING:RESULT (e.g. --vs 1800:1)")
    if len(request.scores_h) != len(request.opponents):
        raise UsageError("every --vs needs a result here (RATING:1, RATING:0.5 or RATING:0)")
    if request.method not in SCALES:
        raise UsageError(f"--method must be one of {', '.join(SCALES)} (got {request.method!r})")
    if request.mode not in MODES:
        raise UsageError(f"--mode must be one of {', '.join(MODES)} (got {request.mode!r})")


@dataclass(frozen=True)
class _Sides:
    """Both sides of every game: the player's n sides (rows 0..n-1), then each opponent's
    mirror (rows n..2n-1). Player code 0 is the player, code i the i-th opponent."""

    own: np.ndarray
    opp: np.ndarray
    score_h: np.ndarray
    codes: np.ndarray

    @classmethod
    def of(cls, request: CalcRequest) -> _Sides:
        n = len(request.opponents)
        you = np.full(n, request.rating, dtype=np.int64)
        them = np.array(request.opponents, dtype=np.int64)
        mine_h = np.array(request.scores_h, dtype=np.int64)
        return cls(
            np.concatenate([you, them]),
            np.concatenate([them, you]),
            np.concatenate([mine_h, 100 - mine_h]),
            np.concatenate([np.zeros(n, dtype=np.int64), np.arange(1, n + 1, dtype=np.int64)]),
        )


def _k_base(
    request: CalcRequest, rules: RuleSet, period_year: int
) -> tuple[np.ndarray, np.ndarray]:
    """(K before the 700 rule, its rule) for the player (index 0) and each opponent."""
    n = len(request.opponents)
    kin = request.k
    birth_year = kin.birth_year
    if birth_year is None and kin.junior:
        birth_year = period_year - rules.k.junior_max_age  # the last year that counts as junior
    opp_k = kin.opp_k if kin.opp_k is not None else kin.k
    established = rules.k.new_player_games_below  # a blank games count means established
    k_base, k_rule = k_precedence(
        np.array([request.rating, *request.opponents], dtype=np.int64),
        np.array([kin.k or 0] + [opp_k or 0] * n, dtype=np.int64),
        np.array([kin.k is not None] + [opp_k is not None] * n, dtype=bool),
        np.array([kin.ever_2400] + [False] * n, dtype=bool),
        np.array([NOT_KNOWN_YEAR if birth_year is None else birth_year] + [NOT_KNOWN_YEAR] * n),
        np.array([established if kin.games is None else kin.games] + [established] * n),
        rules.k,
        period_year,
    )
    if kin.k is not None and kin.k_words:
        k_rule = np.array([kin.k_words, *k_rule[1:].tolist()])  # a new array: wider text fits
    return k_base, k_rule


def _sum_by(codes: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    total = np.zeros(size, dtype=np.int64)
    np.add.at(total, codes, values)
    return total


def _expectations(
    own: np.ndarray, opp: np.ndarray, score_h: np.ndarray, rules: RuleSet
) -> dict[str, np.ndarray]:
    """Each method's expectation (units of its scale; 0 where not rated) from the engine."""
    both = {}
    for method in SCALES:
        other = rate_arrays(own, opp, np.ones(len(own), dtype=bool), score_h, rules, method)
        pd_units = other.pd_units
        # The player's games are one event: before the July 2008 list one D against their
        # average.
        group = np.zeros(len(own), dtype=np.int64)
        averaged = event_expectations(own, opp, other.rated, score_h, group, rules, method)
        if averaged is not None:
            pd_units = averaged[1]
        both[method] = np.where(other.rated, pd_units, 0).astype(np.int64)
    return both


def _rated_sides(
    sides: _Sides, n: int, rules: RuleSet, method: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(rated?, difference used, PD, S - PD, note code, why the difference counted so) of every
    side, 0 where not rated: the engine's arrays, game by game or (lists before July 2008) one D
    per player against the average."""
    engine = rate_arrays(
        sides.own, sides.opp, np.ones(2 * n, dtype=bool), sides.score_h, rules, method
    )
    rated = engine.rated
    diff, pd_units, dev_units = engine.diff, engine.pd_units, engine.dev_units
    counted_why = engine.counted_why
    # One event: the player's games (code 0) and each opponent's one game (its own code).
    averaged = event_expectations(
        sides.own, sides.opp, rated, sides.score_h, sides.codes, rules, method
    )
    if averaged is not None:  # lists before July 2008: one D per player against the average
        diff, pd_units, dev_units = averaged
        counted_why = np.full(len(diff), COUNTED_AVERAGE, dtype=np.int8)
    diff = np.where(rated, diff, 0)
    pd_units = np.where(rated, pd_units, 0).astype(np.int64)
    dev_units = np.where(rated, dev_units, 0).astype(np.int64)
    counted_why = np.where(rated, counted_why, COUNTED_AS_PLAYED).astype(np.int8)
    return rated, diff, pd_units, dev_units, engine.note_code, counted_why


def calculate(request: CalcRequest) -> Calculation:
    _check(request)
    period = resolve_period(request.period)
    chosen = select_rules(request.rules, period)  # the era of the list, as ``rate`` picks it
    rules = chosen.rules
    method, scale = request.method, SCALES[request.method]
    n = len(request.opponents)
    sides = _Sides.of(request)
    rated, diff, pd_units, dev_units, note_code, counted_why = _rated_sides(sides, n, rules, method)

    size = n + 1
    games = _sum_by(sides.codes, rated.astype(np.int64), size)
    k_base, k_rule = _k_base(request, rules, int(period[:4]))
    k_used = apply_700_rule(k_base, games, rules.k.period_cap)
    k_rule = np.where(k_used != k_base, np.char.add(k_rule, RULE_700_SUFFIX), k_rule)
    rating_used = sides.own
    if request.mode == "sequential":  # not the FIDE method: see pipeline.engine.sequential
        rating_used, diff, pd_units, dev_units, counted_why = sequential_arrays(
            sides.codes, rated, sides.own, sides.opp, sides.score_h, k_used[sides.codes],
            diff, pd_units, dev_units, rules, method,
        )  # fmt: skip

    score_sum = _sum_by(sides.codes, np.where(rated, sides.score_h, 0), size)
    dev_sum = _sum_by(sides.codes, dev_units, size)
    change_units = k_used * dev_sum
    change = round_half_away(change_units, scale)
    new_rating = np.array([request.rating, *request.opponents], dtype=np.int64) + change
    player: dict[str, int | str] = {
        "k": int(k_used[0]),
        "k_base": int(k_base[0]),
        "k_rule": str(k_rule[0]),
        "games": int(games[0]),
        "score_h": int(score_sum[0]),
        # PD + (S - PD) = S on every rated side: the sum of PD, as the grouper works it out.
        "expected_units": int(score_sum[0]) * (scale // 100) - int(dev_sum[0]),
        "dev_units": int(dev_sum[0]),
        "change_units": int(change_units[0]),
        "change": int(change[0]),
        "new_rating": int(new_rating[0]),
    }

    # The player's games, with the other method's expectation from the same engine and the
    # same rating each game was scored against.
    mine = slice(0, n)
    used = rating_used[mine]
    both = _expectations(used, sides.opp[mine], sides.score_h[mine], rules)
    # A game the rules do not rate (e.g. rapid: gap 600+ with a player above 2600) carries no
    # gap, PD or deviation: zeros here, flagged by ``rated`` and explained by ``note``.
    both[method] = pd_units[mine]
    mine_rated = rated[mine]
    k = int(k_used[0])
    note_codes = note_code[mine]
    note_texts = notes(rules)
    counted = _counted_notes(
        used, sides.opp[mine], diff[mine], mine_rated, counted_why[mine], rules, method
    )
    rows = [
        GameRow(
            round=i + 1,
            rating_used=int(used[i]),
            opponent=int(sides.opp[i]),
            score_h=int(sides.score_h[i]),
            rated=bool(mine_rated[i]),
            note=note_texts[int(note_codes[i])],
            gap=int(used[i] - sides.opp[i]),
            gap_used=int(diff[i]),
            pd_fide_h=int(both["fide"][i]) * bool(mine_rated[i]),
            e_formula_u=int(both["formula"][i]) * bool(mine_rated[i]),
            dev_units=int(dev_units[i]),
            k_dev_units=k * int(dev_units[i]),
            opp_k=int(k_used[i + 1]),
            opp_change_units=int(change_units[i + 1]),
            opp_change=int(change[i + 1]),
            opp_new=int(new_rating[i + 1]),
            counted=counted[i],
        )
        for i in range(n)  # one row per typed game: a handful, never a hot path
    ]
    return Calculation(request, scale, rows, player, rules, chosen.reason)


def _counted_notes(
    used: np.ndarray,
    opp: np.ndarray,
    diff: np.ndarray,
    rated: np.ndarray,
    why: np.ndarray,
    rules: RuleSet,
    method: str,
) -> list[str]:
    """Why each of the player's rated games counted ``diff``: the engine's ``why`` in the era's
    words (rules.counted_words); the games are one event, so the average method's Rc is the
    average of their rated opponents."""
    rc = group_averages(opp, rated, np.zeros(len(opp), dtype=np.int64))[0][0]
    counted_rules = rules_as_used(rules, method, None)
    rcs = np.full(len(opp), rc, dtype=np.int64)
    return [str(w) for w in counted_words(why, used - opp, diff, used, rcs, counted_rules)]


def every_result(request: CalcRequest) -> dict[str, Calculation]:
    """One opponent and no result: the outcome of a win, a draw and a loss."""
    if len(request.opponents) != 1:
        raise UsageError("the every-possible-result table needs exactly one --vs without a result")
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
