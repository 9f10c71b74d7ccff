"""The norm check, vectorized: every (event, player, title, window of games) is one row, and
each requirement of the title's rule table is one column operation over all rows at once.

Exact arithmetic throughout: counts and shares are compared as integers (``count * den`` against
``num * games``), Ra is rounded .5 up on integers and p in hundredths (RULES.md section 8, the
same code as ``fiderate performance``), so a requirement met "by the smallest margin" is decided
exactly. Rp = Ra + dp is a whole number, so "Rp >= 2599.5 before rounding" is ``2 Rp >= 5199``.

Windows: in a Swiss event a norm may be judged on the first k games (k = 9..13, the extra-games
rule and the 13-game maximum); in a round robin on all games. The reported window is the longest
one that meets every requirement, else the longest one.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from pipeline.norms.rules import FEMALE, NO_FEDERATION, TITLED, NormRule
from pipeline.rules.norm_labels import REQUIREMENTS
from pipeline.rules.performance_rating import fide_performance

# Requirement names in report order; each becomes a status column and a margin column.
FEDERATION_REQUIREMENTS = ("foreign_federations", "own_federation", "one_federation")
# A requirement's status, stored as a category (codes into STATUSES).
STATUSES = ["met", "missed", "waived", "n/a"]
MET, MISSED, WAIVED, NOT_APPLICABLE = range(4)


def _ceil_div(a: np.ndarray | int, b: np.ndarray | int) -> np.ndarray:
    return -(-np.asarray(a, dtype=np.int64) // np.asarray(b, dtype=np.int64))


def windows(entries: pd.DataFrame, rule: NormRule) -> pd.DataFrame:
    """(entry, length): the windows of games each entry is judged on."""
    played = entries["played"].to_numpy(np.int64)
    whole = entries["round_robin"].to_numpy(bool) | (played < rule.games_min)
    single = pd.DataFrame({"entry": entries["entry"].to_numpy()[whole], "length": played[whole]})
    lengths = np.arange(rule.games_min, rule.games_max + 1)
    swiss = entries.loc[~whole, ["entry", "played"]]
    grid = pd.DataFrame(
        {
            "entry": np.repeat(swiss["entry"].to_numpy(), len(lengths)),
            "length": np.tile(lengths, len(swiss)),
            "played": np.repeat(swiss["played"].to_numpy(), len(lengths)),
        }
    )
    grid = grid[grid["length"] <= grid["played"]].drop(columns="played")
    return pd.concat([single, grid], ignore_index=True).sort_values(
        ["entry", "length"], kind="stable", ignore_index=True
    )


def _prefix_sums(values: np.ndarray, starts: np.ndarray, lasts: np.ndarray) -> np.ndarray:
    """Sum of ``values[start..last]`` per window, from one running sum (exact on integers)."""
    running = np.concatenate([[0], np.cumsum(np.asarray(values, dtype=np.int64))])
    return running[lasts + 1] - running[starts]


def window_sums(
    games: pd.DataFrame, wins: pd.DataFrame, entries: pd.DataFrame, rule: NormRule
) -> pd.DataFrame:
    """Per window: the counts and sums the requirements need.

    Every window is a prefix of its entry's games (``games`` is sorted by entry, then round), so
    each figure is read off one running total per column: a sum is the difference of two running
    sums, the lowest rating a running minimum, the distinct foreign federations a running count
    of first meetings, the most opponents from one federation a running maximum of per-federation
    counts. No window is materialised game by game.
    """
    entry = games["entry"].to_numpy(np.int64)
    first_game = np.searchsorted(entry, wins["entry"].to_numpy(np.int64))
    length = wins["length"].to_numpy(np.int64)
    some = length > 0
    starts = np.where(some, first_game, 0)
    lasts = np.where(some, first_game + length - 1, 0)
    own_of = entries.set_index("entry")["federation"]
    own = games["entry"].map(own_of).astype("string").fillna("").astype(str)
    fed = games["opponent_federation"]
    has_fed = ~fed.isin(NO_FEDERATION)
    foreign = has_fed & fed.ne(own)
    first_meeting = foreign & ~games.duplicated(["entry", "opponent_federation"])
    same_fed = games.groupby(["entry", "opponent_federation"]).cumcount() + 1
    most_from_one = same_fed.where(has_fed, 0).groupby(games["entry"]).cummax()
    lowest = games.groupby("entry")["opponent_rating"].cummin()
    rounds = games["round_no"].to_numpy(np.int64)

    def total(values: pd.Series | np.ndarray) -> np.ndarray:
        return np.where(some, _prefix_sums(np.asarray(values), starts, lasts), 0)

    def at_last(values: pd.Series | np.ndarray) -> np.ndarray | int:
        return np.where(some, np.asarray(values, dtype=np.int64)[lasts], 0) if len(games) else 0

    sums = {
        "rating_sum": total(games["opponent_rating"]),
        "lowest": at_last(lowest),
        "score_h": total(games["score_h"]),
        "unrated": total(games["unrated"]),
        "n_titled": total(games["opponent_title"].isin(TITLED)),
        "n_holders": total(games["opponent_title"].isin(rule.holders)),
        "n_own": total(has_fed & fed.eq(own)),
        "no_federation": total(~has_fed),
        "n_federations": total(first_meeting),
        "n_one_federation": at_last(most_from_one),
        "first_round": np.where(some, rounds[starts], 0) if len(games) else 0,
        "last_round": at_last(rounds),
    }
    return wins.assign(**{k: np.asarray(v, dtype=np.int64) for k, v in sums.items()})


def evaluate(
    entries: pd.DataFrame,
    games: pd.DataFrame,
    rule: NormRule,
    exception: Mapping[str, bool | None],
) -> pd.DataFrame:
    """Every window of every candidate entry against ``rule``; ``exception``: per event whether
    the 1.4.3 Swiss exception applies (None: cannot tell)."""
    candidates = entries[~entries["title"].isin(rule.held_by)]
    if rule.women_only:  # a woman's title: only players known to be female
        candidates = candidates[candidates["sex"].str.lower().isin(FEMALE)]
    wins = windows(candidates, rule)
    w = window_sums(games, wins, candidates, rule)
    w = w.join(candidates.set_index("entry"), on="entry")
    k = w["length"].to_numpy(np.int64)
    raised = w["lowest"].to_numpy(np.int64) < rule.floor
    adjusted = w["rating_sum"].to_numpy(np.int64) + np.where(
        raised & (k > 0), rule.floor - w["lowest"].to_numpy(np.int64), 0
    )
    ra, p_h, rp = fide_performance(adjusted, k, w["score_h"].to_numpy(np.int64))
    w["raised_to"] = np.where(raised & (k > 0), rule.floor, 0)
    w["ra"], w["p_h"], w["dp"], w["performance"] = ra, p_h, rp - ra, rp

    score_h = w["score_h"].to_numpy(np.int64)
    s_num, s_den = rule.score_min.numerator, rule.score_min.denominator
    t_num, t_den = rule.titled_share.numerator, rule.titled_share.denominator
    h_num, h_den = rule.holders_share.numerator, rule.holders_share.denominator
    o_num, o_den = rule.own_federation_max.numerator, rule.own_federation_max.denominator
    f_num, f_den = rule.one_federation_max.numerator, rule.one_federation_max.denominator
    perf_x2 = int(rule.performance_min * 2)
    titled_need = _ceil_div(t_num * k, t_den)
    holders_need = np.maximum(rule.holders_min, _ceil_div(h_num * k, h_den))
    rr = w["round_robin"].to_numpy(bool)
    # 1.4.1c: "In a 9-round tournament, 8 played games can count as a 9-game norm if the
    # missing game is due to forfeit win or pairing-allocated bye" (the other requirements are
    # judged on the 8 games; once per title application: to confirm).
    missing_ok = (w["forfeit_wins"] + w["pairing_byes"]).to_numpy(np.int64) > 0
    eight_as_nine = (
        (k == rule.games_min - 1) & (k == w["played"].to_numpy(np.int64)) & missing_ok
    ) & (w["rounds"].to_numpy(np.int64) == rule.games_min)
    counted = k + eight_as_nine
    w["counted"] = counted
    # margin >= 0 means met. Units: games, rating points, points (score), opponents.
    margins = {
        "min_games": counted - rule.games_min,
        "all_rounds": np.where(rr, w["played"] + eight_as_nine - w["scheduled"], 0),
        "min_performance": (2 * rp - perf_x2) / 2,
        "min_average": ra - rule.average_min,
        "min_score": (score_h * s_den - s_num * 100 * k) / (100 * s_den),
        "titled": w["n_titled"].to_numpy(np.int64) - titled_need,
        "holders": w["n_holders"].to_numpy(np.int64) - holders_need,
        "foreign_federations": w["n_federations"].to_numpy(np.int64) - rule.foreign_federations_min,
        "own_federation": (o_num * k) // o_den - w["n_own"].to_numpy(np.int64),
        "one_federation": (f_num * k) // f_den - w["n_one_federation"].to_numpy(np.int64),
    }
    waived = w["event"].map(exception).eq(True).to_numpy() & ~rr
    missed_any = np.zeros(len(w), dtype=bool)
    columns = {}
    for name in REQUIREMENTS:
        margin = np.asarray(margins[name])
        code = np.where(margin >= 0, MET, MISSED)
        if name == "all_rounds":
            code = np.where(rr, code, NOT_APPLICABLE)
        if name in FEDERATION_REQUIREMENTS:
            code = np.where(waived, WAIVED, code)
        missed_any |= code == MISSED
        columns[name] = pd.Categorical.from_codes(code, categories=STATUSES)
        columns[f"{name}_margin"] = margin
    w["norm_games"] = np.where(
        missed_any, 0, norm_games(adjusted, k, score_h, counted, w["rounds"], rule)
    )
    return w.assign(**columns, norm=rule.title, met=~missed_any, unrated_as=rule.unrated_as)


def required_score_h(adjusted: np.ndarray, k: np.ndarray, rule: NormRule) -> np.ndarray:
    """The least score (hundredths, in half points) that meets the title performance and the
    35% with these opponents and games: one pass per possible score, not per row."""
    k = np.asarray(k, dtype=np.int64)
    need = np.full(len(k), -1, dtype=np.int64)
    perf_x2 = int(rule.performance_min * 2)
    s_num, s_den = rule.score_min.numerator, rule.score_min.denominator
    for half_points in range(2 * int(k.max(initial=0)) + 1):
        score = np.full(len(k), 50 * half_points, dtype=np.int64)
        _, _, rp = fide_performance(adjusted, k, score)
        enough = (2 * rp >= perf_x2) & (score * s_den >= s_num * 100 * k) & (score <= 100 * k)
        need = np.where((need < 0) & enough, score, need)
    return need


def norm_games(
    adjusted: np.ndarray,
    k: np.ndarray,
    score_h: np.ndarray,
    counted: np.ndarray,
    rounds: pd.Series,
    rule: NormRule,
) -> np.ndarray:
    """The games the norm counts for a title (B.01 1.5.1's 27): "Each full point above the norm
    requirement counts as one extra game" (1.4.1d), and "Norms achieved in a tournament with
    more than 13 rounds count only as 13 games" (1.7)."""
    need = required_score_h(adjusted, k, rule)
    extra = np.where(need >= 0, (np.asarray(score_h, dtype=np.int64) - need) // 100, 0)
    total = np.asarray(counted, dtype=np.int64) + np.maximum(extra, 0)
    over_13 = rounds.to_numpy(np.int64) > rule.games_max
    return np.where(over_13, np.minimum(total, rule.games_max), total)


def best_windows(w: pd.DataFrame) -> pd.DataFrame:
    """One window per entry: the longest that meets everything, else the longest."""
    order = w.sort_values(["entry", "met", "length"], ascending=[True, False, False], kind="stable")
    return order.drop_duplicates("entry").sort_values("entry", kind="stable")
