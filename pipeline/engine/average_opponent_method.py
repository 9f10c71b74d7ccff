"""The average-opponent method: how FIDE rated an event before it rated game by game (the lists
until April 2008, games until 2008-03-31 here; ``RuleSet.expected_score`` is
``AVERAGE_OPPONENT``, docs/rules-by-era.md).

Each player's event is rated from ONE difference: D = Ro - Rc, Ro the player's rating and Rc the
average rating of the rated opponents the player met in the event, with the 350-point rule on
that D; the expected score is We = n x PD(D), n the player's rated games in the event (FIDE
Handbook 2003, B.02 14.4: "It would be more accurate to rate each game separately as averaging
assumes a linear scale. However this would be much more laborious.").

How it stays exact and reaches every job: each rated side of the player in the event gets
PD(D) as its expected score (hundredths from table 8.1.2), so the n sides sum to n x PD(D)
exactly, and S - PD per side sums to W - We; the grouper multiplies by K and rounds once
(rules/rounding.py), as for the game-by-game method. ``rate_sides_coded`` calls this module
after it knows which sides are rated (the match rules included), so rate, period and the Dask
partitions (one input file each: whole events) all get it through the engine.

**Decision**: Rc is rounded to a whole number, .5 up, before D is taken (table 8.1.2 is
banded on whole differences, and the Title Regulations round their opponents' average the
same way); the sources found do not say how FIDE rounded Rc for ratings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pipeline.engine.expected import SCALES
from pipeline.engine.four_hundred_point_rule import MAX_DIFF, pd_table
from pipeline.rules.sets import AVERAGE_OPPONENT, RuleSet

if TYPE_CHECKING:
    import pandas as pd

    from pipeline.engine.matches import SideKeys


def player_event_groups(sides: pd.DataFrame, keys: SideKeys | None) -> np.ndarray:
    """One integer per side numbering its (player, event): from the sides' integer ``keys`` when
    the caller has them, else from the text (the event within its source file, if any)."""
    import pandas as pd

    if keys is not None:
        packed = keys.event.astype(np.int64) * (int(keys.player.max(initial=0)) + 1)
        packed += keys.player
        return pd.factorize(packed)[0]
    event = sides["event"] if "source" not in sides else sides["source"] + "\x1f" + sides["event"]
    frame = pd.DataFrame({"player": sides["player"].to_numpy(), "event": event.to_numpy()})
    return frame.groupby(["player", "event"], sort=False).ngroup().to_numpy()


def rounded_averages(total: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Whole-number averages total / count, .5 up, on integers: floor((2 x total + count) /
    (2 x count)) is floor(total / count + 1/2) for total >= 0, count > 0. A group without
    rated games (count 0) gets 0 (its sides are not rated, so the value is never used)."""
    safe = np.maximum(count, 1)
    return np.where(count > 0, (2 * total + count) // (2 * safe), 0)


def group_averages(
    opp: np.ndarray, rated: np.ndarray, group: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(Rc, n) per group: the rounded average rating of the ``rated`` sides' opponents and how
    many there were (Rc 0 where n is 0). Integer sums: no float in the average."""
    opp = np.asarray(opp, dtype=np.int64)
    rated = np.asarray(rated, dtype=bool)
    group = np.asarray(group, dtype=np.int64)
    size = int(group.max()) + 1 if len(group) else 0
    total = np.zeros(size, dtype=np.int64)
    np.add.at(total, group[rated], opp[rated])
    count = np.bincount(group[rated], minlength=size).astype(np.int64)
    return rounded_averages(total, count), count


def average_opponent_expectations(
    own: np.ndarray,
    opp: np.ndarray,
    rated: np.ndarray,
    group: np.ndarray,
    cap: int | None,
    method: str = "fide",
) -> tuple[np.ndarray, np.ndarray]:
    """(diff, pd_units) per side (int64): diff = Ro - Rc of the side's (player, event) after the
    cap, pd_units = PD(diff) in units of 1/scale. Only ``rated`` sides count towards Rc; the
    values of the other sides are meaningless (the caller masks them)."""
    own = np.asarray(own, dtype=np.int64)
    group = np.asarray(group, dtype=np.int64)
    rc, _ = group_averages(opp, rated, group)
    raw = own - rc[group]
    # Ratings are 0..MAX_DIFF and so is Rc: raw lies in the table's rows (unrated sides, whose
    # own or Rc is 0, too), and the table has the cap applied to its entries already.
    np.clip(raw, -MAX_DIFF, MAX_DIFF, out=raw)
    pd_units = pd_table(method, cap, False)[raw + MAX_DIFF].astype(np.int64)
    diff = raw if cap is None else np.clip(raw, -cap, cap)
    return diff, pd_units


def average_opponents(sides: pd.DataFrame) -> pd.Series:
    """Rc per side: the rounded average rating of the rated opponents of the side's player in the
    side's event (``engine.average_opponent_method``'s own grouping and rounding); <NA> where
    the player had no rated game there."""
    import pandas as pd

    group = player_event_groups(sides, None)
    rc, count = group_averages(
        sides["opponent_rating"].to_numpy(dtype=np.int64, na_value=0),
        sides["rated"].to_numpy(dtype=bool),
        group,
    )
    return pd.Series(pd.array(rc[group], dtype="Int64"), index=sides.index).where(count[group] > 0)


def deviations(score_h: np.ndarray, pd_units: np.ndarray, method: str) -> np.ndarray:
    """S - PD per side in units of 1/scale (int64): the scores are hundredths."""
    return np.asarray(score_h, dtype=np.int64) * (SCALES[method] // 100) - pd_units


def event_expectations(
    own: np.ndarray,
    opp: np.ndarray,
    rated: np.ndarray,
    score_h: np.ndarray,
    group: np.ndarray,
    rules: RuleSet,
    method: str = "fide",
    cap: bool | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(diff, pd_units, dev_units) per side when ``rules`` rate by the average opponent, else
    None (the game-by-game values stand). ``group`` numbers each side's (player, event);
    ``cap`` as for ``rate_arrays`` (None: the rule set's cap with the FIDE table only)."""
    if rules.expected_score != AVERAGE_OPPONENT:
        return None
    use_cap = (method == "fide") if cap is None else cap
    diff, pd_units = average_opponent_expectations(
        own, opp, rated, group, rules.cap if use_cap else None, method
    )
    return diff, pd_units, deviations(score_h, pd_units, method)
