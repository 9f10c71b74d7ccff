"""K 10 is for good: what proves that a player's published rating once reached 2400."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.rules.sets import KPrecedence


def published_k_proves_2400(published_k: pd.Series, precedence: KPrecedence) -> np.ndarray:
    """Bool per player: the list prints the K that only a rating once at 2400 gives (K 10), so
    the published rating has reached 2400, whatever it is now (the K rule: K 10 once the
    published rating has reached 2400, "even if the rating drops below 2400"). A title proves
    nothing (B.01 1.5.3a: a title's 2400 need not have been published). **Decision**: a printed
    K is the K before the 700 rule, as this project prints it on the lists it writes."""
    if precedence.k_ever_2400 is None:
        return np.zeros(len(published_k), dtype=bool)
    k = pd.to_numeric(published_k, errors="coerce").astype("Int64")
    return k.eq(precedence.k_ever_2400).fillna(False).to_numpy(dtype=bool)
