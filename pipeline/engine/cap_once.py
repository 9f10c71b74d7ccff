"""The 400-point rule of 2022-01-01 .. 2024-02-29 (B.02 8.3.1 of 2022): "in any tournament, a
player may benefit from only one upgrade under this rule, for the game in which the rating
difference is greatest".

The upgrade is the higher-rated player's: a weaker opponent counted as own - 400. Per player and
event, of the sides where own - opponent > cap, only the one with the largest difference keeps
the cap (on a tie, the first in file order); every other such side uses the real difference.
**Decision**: the lower-rated side of a game (own - opponent < -cap) is capped as always, since
counting the gap as 400 is no benefit to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd


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
