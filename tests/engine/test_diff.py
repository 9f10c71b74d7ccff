"""The difference the engine reports (``RatedArrays.diff``, games.csv's ``diff``) against the
400-point rule written out side by side, in every rule set: capped, exempt 2650+, uncapped."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.rate_sides import rate_arrays
from pipeline.rules.sets import RULE_SETS

pairs = st.lists(st.tuples(st.integers(0, 3500), st.integers(0, 3500)), min_size=1, max_size=30)


def _oracle(own: int, opp: int, cap: int | None, exempt_from: int | None, lifted: bool) -> int:
    raw = own - opp
    if cap is None or lifted or (exempt_from is not None and own >= exempt_from):
        return raw
    return max(-cap, min(cap, raw))


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@settings(max_examples=25, deadline=None)
@given(sides=pairs, lift=st.lists(st.booleans(), min_size=30, max_size=30))
def test_diff_is_the_capped_difference(name, sides, lift):
    rules = RULE_SETS[name]
    own = np.array([a for a, _ in sides], dtype=np.int64)
    opp = np.array([b for _, b in sides], dtype=np.int64)
    lifted = np.array(lift[: len(sides)])
    played = np.ones(len(sides), dtype=bool)
    score = np.full(len(sides), 50, dtype=np.int64)
    for with_lift in (None, lifted):
        got = rate_arrays(own, opp, played, score, rules, "fide", None, with_lift).diff
        expected = [
            _oracle(a, b, rules.cap, rules.cap_exempt_from, with_lift is not None and bool(f))
            for a, b, f in zip(own.tolist(), opp.tolist(), lifted.tolist(), strict=True)
        ]
        assert got.tolist() == expected
    uncapped = rate_arrays(own, opp, played, score, rules, "fide", False).diff
    assert uncapped.tolist() == (own - opp).tolist()
