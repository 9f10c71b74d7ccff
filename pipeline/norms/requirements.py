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

from collections.abc import Mapping, Sequence

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
# Their dtype, made once: ``from_codes(categories=...)`` builds and checks the categories on
# every call (a run makes a status column per requirement and title: ~30 of them).
STATUS_DTYPE = pd.CategoricalDtype(STATUSES)


def _ceil_div(a: np.ndarray | int, b: np.ndarray | int) -> np.ndarray:
    return -(-np.asarray(a, dtype=np.int64) // np.asarray(b, dtype=np.int64))


def _window_rows(
    entry: np.ndarray, played: np.ndarray, round_robin: np.ndarray, rule: NormRule
) -> tuple[np.ndarray, np.ndarray]:
    """(row of ``entry``, length) of every window, sorted by entry, then length: a round robin
    or an entry with fewer than ``games_min`` games has one window (all its games), a Swiss
    entry one per length from ``games_min`` to ``games_max`` that it played."""
    whole = round_robin | (played < rule.games_min)
    lengths = np.arange(rule.games_min, rule.games_max + 1, dtype=np.int64)
    swiss = np.flatnonzero(~whole)
    grid_row = np.repeat(swiss, len(lengths))
    grid_length = np.tile(lengths, len(swiss))
    kept = grid_length <= played[grid_row]
    rows = np.concatenate([np.flatnonzero(whole), grid_row[kept]])
    length = np.concatenate([played[whole], grid_length[kept]])
    order = np.lexsort((length, entry[rows]))
    return rows[order], length[order]


def windows(entries: pd.DataFrame, rule: NormRule) -> pd.DataFrame:
    """(entry, length): the windows of games each entry is judged on."""
    entry = entries["entry"].to_numpy(np.int64)
    rows, length = _window_rows(
        entry, entries["played"].to_numpy(np.int64), entries["round_robin"].to_numpy(bool), rule
    )
    return pd.DataFrame({"entry": entry[rows], "length": length})


def _prefix_sums(values: np.ndarray, starts: np.ndarray, lasts: np.ndarray) -> np.ndarray:
    """Sum of ``values[start..last]`` per window, from one running sum (exact on integers)."""
    running = np.concatenate([[0], np.cumsum(np.asarray(values, dtype=np.int64))])
    return running[lasts + 1] - running[starts]


def window_sums(
    games: pd.DataFrame,
    entry: np.ndarray,
    length: np.ndarray,
    federation: pd.Series,
    holders: Sequence[frozenset[str]],
) -> dict[str, np.ndarray]:
    """Per window (``entry``, ``length``): the counts and sums the requirements need, with
    ``n_holders`` once per set of ``holders`` titles (``n_holders:0``, ``n_holders:1``, ...).
    ``federation``: each entry's own, by entry.

    Every window is a prefix of its entry's games (``games`` is sorted by entry, then round), so
    each figure is read off one running total per column: a sum is the difference of two running
    sums, the lowest rating a running minimum, the distinct foreign federations a running count
    of first meetings, the most opponents from one federation a running maximum of per-federation
    counts. No window is materialised game by game.
    """
    game_entry = games["entry"].to_numpy(np.int64)
    first_game = np.searchsorted(game_entry, entry)
    some = length > 0
    starts = np.where(some, first_game, 0)
    lasts = np.where(some, first_game + length - 1, 0)
    own = games["entry"].map(federation).astype("string").fillna("").astype(str)
    fed = games["opponent_federation"]
    has_fed = ~fed.isin(NO_FEDERATION)
    foreign = has_fed & fed.ne(own)
    first_meeting = foreign & ~games.duplicated(["entry", "opponent_federation"])
    same_fed = games.groupby(["entry", "opponent_federation"]).cumcount() + 1
    most_from_one = same_fed.where(has_fed, 0).groupby(games["entry"]).cummax()
    lowest = games.groupby("entry")["opponent_rating"].cummin()
    rounds = games["round_no"].to_numpy(np.int64)
    titles = games["opponent_title"]
    empty = not len(games)

    def total(values: pd.Series | np.ndarray) -> np.ndarray:
        return np.where(some, _prefix_sums(np.asarray(values), starts, lasts), 0)

    def at_last(values: pd.Series | np.ndarray) -> np.ndarray:
        if empty:
            return np.zeros(len(entry), dtype=np.int64)
        return np.where(some, np.asarray(values, dtype=np.int64)[lasts], 0)

    sums = {
        "rating_sum": total(games["opponent_rating"]),
        "lowest": at_last(lowest),
        "score_h": total(games["score_h"]),
        "unrated": total(games["unrated"]),
        "n_titled": total(titles.isin(TITLED)),
        **{f"n_holders:{i}": total(titles.isin(h)) for i, h in enumerate(holders)},
        "n_own": total(has_fed & fed.eq(own)),
        "no_federation": total(~has_fed),
        "n_federations": total(first_meeting),
        "n_one_federation": at_last(most_from_one),
        "first_round": at_last(np.zeros(0)) if empty else np.where(some, rounds[starts], 0),
        "last_round": at_last(rounds),
    }
    return {k: np.asarray(v, dtype=np.int64) for k, v in sums.items()}


def _candidates(entries: pd.DataFrame, rule: NormRule) -> np.ndarray:
    """Bool per entry: a candidate for ``rule``'s title (not held; a woman's title: known to be
    female)."""
    wanted = ~entries["title"].isin(rule.held_by).to_numpy()
    if rule.women_only:
        wanted &= entries["sex"].str.lower().isin(FEMALE).to_numpy()
    return np.asarray(wanted, dtype=bool)


def evaluate(
    entries: pd.DataFrame,
    games: pd.DataFrame,
    rule: NormRule,
    exception: Mapping[str, bool | None],
) -> pd.DataFrame:
    """Every window of every candidate entry against ``rule``; ``exception``: per event whether
    the 1.4.3 Swiss exception applies (None: cannot tell)."""
    return evaluate_rules(entries, games, [rule], exception, best=False)


def evaluate_rules(
    entries: pd.DataFrame,
    games: pd.DataFrame,
    rules: Sequence[NormRule],
    exception: Mapping[str, bool | None],
    *,
    best: bool = True,
) -> pd.DataFrame:
    """Every candidate entry against each of ``rules`` (in that order), one frame: with
    ``best`` the best window of each (the longest that meets everything, else the longest),
    else every window.

    The windows and their sums are worked out once for the rules that share the games a norm
    needs (all titles do), on arrays; each rule then only selects its candidates' windows and
    compares. One frame is built at the end, not one per column."""
    entry_ids = entries["entry"].to_numpy(np.int64)
    played = entries["played"].to_numpy(np.int64)
    round_robin = entries["round_robin"].to_numpy(bool)
    federation = pd.Series(entries["federation"].to_numpy(), index=entry_ids)
    wanted = {rule.title: _candidates(entries, rule) for rule in rules}
    # The windows of every entry a rule of the same games_min..games_max wants, summed once.
    shared: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]] = {}
    holders = list(dict.fromkeys(rule.holders for rule in rules))
    for rule in rules:
        span = (rule.games_min, rule.games_max)
        if span in shared:
            continue
        alike = [wanted[r.title] for r in rules if (r.games_min, r.games_max) == span]
        some = np.flatnonzero(np.logical_or.reduce(alike))
        rows, length = _window_rows(entry_ids[some], played[some], round_robin[some], rule)
        rows = some[rows]
        sums = window_sums(games, entry_ids[rows], length, federation, holders)
        shared[span] = rows, length, sums
    carried = {c: entries[c].to_numpy() for c in entries.columns}
    parts = []
    for rule in rules:
        rows, length, sums = shared[(rule.games_min, rule.games_max)]
        mine = wanted[rule.title][rows]
        figures = {k: v[mine] for k, v in sums.items() if not k.startswith("n_holders:")}
        figures["n_holders"] = sums[f"n_holders:{holders.index(rule.holders)}"][mine]
        on = {c: v[rows[mine]] for c, v in carried.items()}
        part = _judge(rule, length[mine], figures, on, exception)
        if best:
            chosen = _best_rows(part["entry"], part["met"], part["length"])
            part = {c: v[chosen] for c, v in part.items()}
        parts.append(part)
    columns = parts[0].keys()
    return pd.DataFrame({c: _joined([p[c] for p in parts]) for c in columns})


def _joined(arrays: list[np.ndarray | pd.Categorical]) -> np.ndarray | pd.Categorical:
    """The rules' parts of one column, one after the other (statuses stay categorical)."""
    if isinstance(arrays[0], pd.Categorical):
        codes = np.concatenate(
            [np.asarray(a.codes) for a in arrays if isinstance(a, pd.Categorical)]
        )
        return pd.Categorical.from_codes(codes, dtype=STATUS_DTYPE)
    return np.concatenate([np.asarray(a) for a in arrays])


def _judge(
    rule: NormRule,
    k: np.ndarray,
    w: dict[str, np.ndarray],
    on: dict[str, np.ndarray],
    exception: Mapping[str, bool | None],
) -> dict[str, np.ndarray | pd.Categorical]:
    """The windows (``k`` games each, their sums ``w``, their entries' columns ``on``) judged
    against ``rule``: every requirement's status and margin, and the norm's figures."""
    raised = w["lowest"] < rule.floor
    adjusted = w["rating_sum"] + np.where(raised & (k > 0), rule.floor - w["lowest"], 0)
    ra, p_h, rp = fide_performance(adjusted, k, w["score_h"])
    score_h = w["score_h"]
    s_num, s_den = rule.score_min.numerator, rule.score_min.denominator
    t_num, t_den = rule.titled_share.numerator, rule.titled_share.denominator
    h_num, h_den = rule.holders_share.numerator, rule.holders_share.denominator
    o_num, o_den = rule.own_federation_max.numerator, rule.own_federation_max.denominator
    f_num, f_den = rule.one_federation_max.numerator, rule.one_federation_max.denominator
    perf_x2 = int(rule.performance_min * 2)
    titled_need = _ceil_div(t_num * k, t_den)
    holders_need = np.maximum(rule.holders_min, _ceil_div(h_num * k, h_den))
    rr = on["round_robin"].astype(bool)
    played = on["played"].astype(np.int64)
    rounds = on["rounds"].astype(np.int64)
    # 1.4.1c: "In a 9-round tournament, 8 played games can count as a 9-game norm if the
    # missing game is due to forfeit win or pairing-allocated bye" (the other requirements are
    # judged on the 8 games; once per title application: to confirm).
    missing_ok = (on["forfeit_wins"] + on["pairing_byes"]).astype(np.int64) > 0
    eight_as_nine = (
        (k == rule.games_min - 1) & (k == played) & missing_ok & (rounds == rule.games_min)
    )
    counted = k + eight_as_nine
    # margin >= 0 means met. Units: games, rating points, points (score), opponents.
    margins = {
        "min_games": counted - rule.games_min,
        "all_rounds": np.where(rr, played + eight_as_nine - on["scheduled"].astype(np.int64), 0),
        "min_performance": (2 * rp - perf_x2) / 2,
        "min_average": ra - rule.average_min,
        "min_score": (score_h * s_den - s_num * 100 * k) / (100 * s_den),
        "titled": w["n_titled"] - titled_need,
        "holders": w["n_holders"] - holders_need,
        "foreign_federations": w["n_federations"] - rule.foreign_federations_min,
        "own_federation": (o_num * k) // o_den - w["n_own"],
        "one_federation": (f_num * k) // f_den - w["n_one_federation"],
    }
    # Per event (a few), then taken to its windows.
    codes, events = pd.factorize(on["event"])
    applies = np.array([exception.get(e) is True for e in events], dtype=bool)
    waived = (applies[codes] if len(events) else np.zeros(len(k), dtype=bool)) & ~rr
    columns, missed_any = _statuses(margins, rr, waived)
    # The games a norm counts, for the windows that make one (a few of thousands).
    norm = np.zeros(len(k), dtype=np.int64)
    made = ~missed_any
    if made.any():
        norm[made] = norm_games(
            adjusted[made], k[made], score_h[made], counted[made], rounds[made], rule
        )
    n = len(k)
    return {
        "entry": on["entry"],
        "length": k,
        **w,
        **{c: v for c, v in on.items() if c != "entry"},
        "raised_to": np.where(raised & (k > 0), rule.floor, 0),
        "ra": ra,
        "p_h": p_h,
        "dp": rp - ra,
        "performance": rp,
        "counted": counted,
        "norm_games": norm,
        **columns,
        "norm": np.full(n, rule.title, dtype=object),
        "met": ~missed_any,
        "unrated_as": np.full(n, rule.unrated_as, dtype=np.int64),
    }


def _statuses(
    margins: Mapping[str, np.ndarray], rr: np.ndarray, waived: np.ndarray
) -> tuple[dict[str, np.ndarray | pd.Categorical], np.ndarray]:
    """(each requirement's status and margin columns, whether a row missed any): met when the
    margin is >= 0; all_rounds applies to round robins only; the federation mix is waived where
    the 1.4.3 exception applies."""
    missed_any = np.zeros(len(rr), dtype=bool)
    columns: dict[str, np.ndarray | pd.Categorical] = {}
    for name in REQUIREMENTS:
        margin = np.asarray(margins[name])
        code = np.where(margin >= 0, MET, MISSED)
        if name == "all_rounds":
            code = np.where(rr, code, NOT_APPLICABLE)
        if name in FEDERATION_REQUIREMENTS:
            code = np.where(waived, WAIVED, code)
        missed_any |= code == MISSED
        columns[name] = pd.Categorical.from_codes(code, dtype=STATUS_DTYPE)
        columns[f"{name}_margin"] = margin
    return columns, missed_any


def _best_rows(entry: np.ndarray, met: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The row of each entry's best window (the longest that meets everything, else the
    longest), in entry order."""
    order = np.lexsort((-length, ~met, entry))
    sorted_entry = entry[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = sorted_entry[1:] != sorted_entry[:-1]
    return order[first]


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
    rounds: np.ndarray,
    rule: NormRule,
) -> np.ndarray:
    """The games the norm counts for a title (B.01 1.5.1's 27): "Each full point above the norm
    requirement counts as one extra game" (1.4.1d), and "Norms achieved in a tournament with
    more than 13 rounds count only as 13 games" (1.7)."""
    need = required_score_h(adjusted, k, rule)
    extra = np.where(need >= 0, (np.asarray(score_h, dtype=np.int64) - need) // 100, 0)
    total = np.asarray(counted, dtype=np.int64) + np.maximum(extra, 0)
    over_13 = np.asarray(rounds, dtype=np.int64) > rule.games_max
    return np.where(over_13, np.minimum(total, rule.games_max), total)
