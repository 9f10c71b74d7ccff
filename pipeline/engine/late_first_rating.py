"""B.02 8.2.4: a player whose first rating was published after an event started but before
it is rated (an older event rated late, in a later period) is rated in it as a rated player,
with that first rating, and counts as unrated for the opponents.

Works on assembled sides whose ratings are those of the list in force when each event started
(``fiderate period``): a side with no rating there whose player has one on the list the period
starts from is such a player.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.columnar.lookup import member


def late_first_ratings(sides: pd.DataFrame, now: pd.Series) -> pd.DataFrame:
    """``sides`` with 8.2.4 applied; ``now`` is the rating by player id on the list the period
    starts from. Returns a new frame (the input is not changed)."""
    current = sides["player"].map(now).astype("Int64")
    late = (sides["player_rating"].isna() & current.notna()).to_numpy(dtype=bool)
    if not late.any():
        return sides
    key = sides["source"].astype(str) + "\x1f" + sides["event"].astype(str) + "\x1f"
    late_keys = pd.Index((key + sides["player"].astype(str))[late].unique())
    opponent_late = member(key + sides["opponent"].astype(str), late_keys)
    rating = sides["player_rating"].mask(late, current)
    opponent = sides["opponent_rating"].mask(np.asarray(opponent_late, dtype=bool), pd.NA)
    return sides.assign(player_rating=rating, opponent_rating=opponent.astype("Int64"))
