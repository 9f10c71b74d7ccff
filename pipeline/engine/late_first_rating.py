"""B.02 8.2.4: a player whose first rating was published after an event started but before
it is rated (an older event rated late, in a later period) is rated in it as a rated player,
with that first rating, and counts as unrated for the opponents.

Works on assembled sides whose ratings are those of the list in force when each event started
(``fiderate period``): a side with no rating there whose player has one on the list the period
starts from is such a player. ``fiderate rate`` has one list (the period's); there an event file
that started before the period and gives a player no rating while the list does tells the same
(``unrated_at_start``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.keys.frame_lookup import member


def late_first_ratings(sides: pd.DataFrame, now: pd.Series) -> pd.DataFrame:
    """``sides`` with 8.2.4 applied; ``now`` is the rating of each side's player (aligned with
    ``sides``) on the list the period starts from. Returns a new frame (the input is not
    changed)."""
    current = now.astype("Int64")
    late = (sides["player_rating"].isna() & current.notna()).to_numpy(dtype=bool)
    if not late.any():
        return sides
    key = sides["source"].astype(str) + "\x1f" + sides["event"].astype(str) + "\x1f"
    late_keys = pd.Index((key + sides["player"].astype(str))[late].unique())
    opponent_late = member(key + sides["opponent"].astype(str), late_keys)
    rating = sides["player_rating"].mask(late, current)
    opponent = sides["opponent_rating"].mask(np.asarray(opponent_late, dtype=bool), pd.NA)
    return sides.assign(player_rating=rating, opponent_rating=opponent.astype("Int64"))


def unrated_at_start(sides: pd.DataFrame, started_unrated: pd.DataFrame) -> pd.DataFrame:
    """``sides`` with the rating of each (source, player) of ``started_unrated`` blanked: the
    players an event file that started before the period gives no rating (``fiderate rate``;
    ``late_first_ratings`` then rates them with the list's rating)."""
    if started_unrated.empty:
        return sides
    keys = pd.Index(started_unrated["source"].astype(str) + "\x1f" + started_unrated["player"])
    blank = member(sides["source"].astype(str) + "\x1f" + sides["player"].astype(str), keys)
    if not np.asarray(blank, dtype=bool).any():
        return sides
    return sides.assign(player_rating=sides["player_rating"].mask(blank, pd.NA).astype("Int64"))
