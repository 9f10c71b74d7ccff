"""The 400-point rule (FIDE B.02 8.3.1): a difference in rating of more than 400 points is
counted as 400 points (350 before 2009-07); from 2025-10 a player rated 2650 or more uses the
real difference (the 2650 exemption), and in 2022-01 .. 2024-02 a player benefits from it once
per event only. The numbers themselves are rules as data
(``RuleSet.cap``, ``cap_exempt_from``, ``cap_once_per_event`` in :mod:`pipeline.rules.sets`);
this module applies them to arrays of sides, for :mod:`pipeline.engine.rate_sides`.

How the rule reaches the expected score: the engine gathers PD from a table indexed by the raw
difference (:func:`pd_table`, the cap already applied to its entries), with the exempt sides'
indices moved to a second, uncapped copy of the table (:func:`table_index`).

The once-per-event variant (:func:`uncapped_sides`), the 400-point rule of 2022-01-01 ..
2024-02-29 (B.02 8.3.1 of 2022): "in any tournament, a player may benefit from only one
upgrade under this rule, for the game in which the rating difference is greatest".

The upgrade is the higher-rated player's: a weaker opponent counted as own - 400. Per player and
event, of the sides where own - opponent > cap, only the one with the largest difference keeps
the cap (on a tie, the first in file order); every other such side uses the real difference.
**Decision**: the lower-rated side of a game (own - opponent < -cap) is capped as always, since
counting the gap as 400 is no benefit to it.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from pipeline.engine.expected import expected_units

if TYPE_CHECKING:
    import pandas as pd

# Ratings are whole numbers in 0..3500 (schemas), so own - opponent lies in -3500..3500.
MAX_DIFF = 3500


@cache
def pd_table(method: str, cap: int | None, exempt: bool) -> np.ndarray:
    """PD in units of 1/scale for every raw difference own - opponent in -MAX_DIFF..MAX_DIFF
    (index diff + MAX_DIFF), the 400-point cap applied unless ``exempt``: one gather per side
    replaces clip, abs and the band look-up. Built from ``expected_units``, so each entry is the
    value the per-side computation gives. int32: the largest entry is the formula's 10**6, and
    half the bytes of int64 is half the memory traffic of the gather."""
    raw = np.arange(-MAX_DIFF, MAX_DIFF + 1, dtype=np.int64)
    diff = raw if (cap is None or exempt) else np.clip(raw, -cap, cap)
    table = expected_units(diff, method).astype(np.int32)
    table.setflags(write=False)
    return table


@cache
def lookup_table(method: str, cap: int | None, exempt: bool) -> np.ndarray:
    """The capped table followed, when some sides are exempt from the cap (players rated 2650+,
    or the cap used once per event), by the exempt one: an exempt side's index is moved
    EXEMPT_SHIFT further on."""
    capped = pd_table(method, cap, False)
    if cap is None or not exempt:
        return capped
    table = np.concatenate([capped, pd_table(method, cap, True)])
    table.setflags(write=False)
    return table


EXEMPT_SHIFT = 2 * MAX_DIFF + 1


def table_index(
    own: np.ndarray,
    opp: np.ndarray,
    exempt_from: int | None,
    lifted: np.ndarray | None = None,
) -> np.ndarray:
    """Each side's row in ``lookup_table`` (int32, a fresh buffer the caller may reuse).

    Proof that it reads the right table: ratings are 0..MAX_DIFF (checked by the schemas), so
    own - opp + MAX_DIFF lies in 0..2 x MAX_DIFF, the rows of the capped table, with row
    diff + MAX_DIFF holding PD(diff). A side rated at or above ``exempt_from`` (the cap is
    decided by the side being rated), or ``lifted`` (the cap used once per event elsewhere,
    ``uncapped_sides``), is moved EXEMPT_SHIFT = 2 x MAX_DIFF + 1 further, into
    2 x MAX_DIFF + 1..4 x MAX_DIFF + 1: exactly the rows of the exempt table, which follows the
    capped one and is indexed the same way.
    """
    index = np.subtract(own, opp, dtype=np.int32)
    index += MAX_DIFF
    exempt = exempt_sides(own, exempt_from, lifted)
    if exempt is not None:
        np.add(index, EXEMPT_SHIFT, out=index, where=exempt)
    return index


def exempt_sides(
    own: np.ndarray, exempt_from: int | None, lifted: np.ndarray | None
) -> np.ndarray | None:
    """Sides that use the real difference: rated at or above ``exempt_from``, or ``lifted``
    (the cap used once per event elsewhere); None when no side can be."""
    exempt = None if exempt_from is None else own >= exempt_from
    if lifted is not None:
        exempt = lifted if exempt is None else exempt | lifted
    return exempt


def uncapped_sides(
    player: pd.Series, event: pd.Series, raw_diff: np.ndarray, eligible: np.ndarray, cap: int
) -> np.ndarray:
    """Bool per side: True where the cap is lifted because the player already benefits from it
    in a game of the same event with a larger (or equal, earlier) difference."""
    import pandas as pd

    raw_diff = np.asarray(raw_diff, dtype=np.int64)
    over = np.flatnonzero(np.asarray(eligible, dtype=bool) & (raw_diff > cap))
    lifted = np.zeros(len(raw_diff), dtype=bool)
    if not len(over):
        return lifted
    keys = (
        pd.DataFrame({"player": player.to_numpy()[over], "event": event.to_numpy()[over]})
        .groupby(["player", "event"], sort=False)
        .ngroup()
        .to_numpy()
    )
    # Per key: largest difference first, then file order; the first of each key keeps the cap.
    order = np.lexsort((over, -raw_diff[over], keys))
    sorted_keys = keys[order]
    later = np.zeros(len(order), dtype=bool)
    later[1:] = sorted_keys[1:] == sorted_keys[:-1]
    lifted[over[order[later]]] = True
    return lifted
