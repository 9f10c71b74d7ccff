"""The engine says why each difference counted as it did (``counted_why``), where it applies the
rule: the code agrees with the difference it used, in every era (issue 35: the reason is named
with the number)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.rate_sides import rate_arrays
from pipeline.rules.counted_words import (
    COUNTED_AS_PLAYED,
    COUNTED_CUT,
    COUNTED_EXEMPT,
    COUNTED_ONCE,
    counted_words,
)
from pipeline.rules.sets import get_rules

ERAS = ["standard-2008", "standard-2009", "standard-2022", "standard-2024", "standard-2025"]


def _rate(own, opp, era, lifted=None):  # type: ignore[no-untyped-def]
    own, opp = np.asarray(own), np.asarray(opp)
    n = len(own)
    return rate_arrays(
        own, opp, np.ones(n, dtype=bool), np.full(n, 100), get_rules(era), lifted=lifted
    )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1000, 3000), st.integers(1000, 3000)), min_size=1),
    st.sampled_from(ERAS),
    st.data(),
)
def test_the_code_agrees_with_the_difference_used(pairs, era, data):
    own = np.array([p[0] for p in pairs])
    opp = np.array([p[1] for p in pairs])
    rules = get_rules(era)
    lifted = None
    if rules.cap_once_per_event:
        lifted = np.array(data.draw(st.lists(st.booleans(), min_size=len(own), max_size=len(own))))
    r = _rate(own, opp, era, lifted)
    raw = own - opp
    code = r.counted_why
    # Cut exactly where the engine used another difference than the one played.
    assert ((code == COUNTED_CUT) == (r.diff != raw)).all()
    # Kept whole above the cap only for a reason: the exemption, or the once-per-event lift.
    whole = np.isin(code, [COUNTED_EXEMPT, COUNTED_ONCE])
    assert (np.abs(raw[whole]) > rules.cap).all() and (r.diff[whole] == raw[whole]).all()
    exempt_from = rules.cap_exempt_from
    if exempt_from is not None:
        assert (own[code == COUNTED_EXEMPT] >= exempt_from).all()
    else:
        assert not (code == COUNTED_EXEMPT).any()
    if lifted is not None:
        assert lifted[code == COUNTED_ONCE].all()
    assert (np.abs(raw[code == COUNTED_AS_PLAYED]) <= rules.cap).all()


def test_examples_md_2700_against_2200_by_era():
    # EXAMPLES.md: 2700 vs 2200 under the 2024-03 rules is capped (0.92); from 2025-10 not.
    for era, code, words in (
        ("standard-2024", COUNTED_CUT, "400-point rule: +500 counts as +400"),
        (
            "standard-2025",
            COUNTED_EXEMPT,
            "exemption: rated 2700, at least 2650: the full +500 counts",
        ),
        ("standard-2008", COUNTED_CUT, "350-point rule: +500 counts as +350"),
    ):
        r = _rate([2700], [2200], era)
        assert r.counted_why.tolist() == [code]
        said = counted_words(r.counted_why, [500], r.diff, [2700], [0], get_rules(era))
        assert said.tolist() == [words]
    # 2022 .. 2024-02: lifted by the once-per-event rule, the full difference counts.
    r = _rate([2700], [2200], "standard-2022", lifted=np.array([True]))
    assert r.counted_why.tolist() == [COUNTED_ONCE]
    said = counted_words(r.counted_why, [500], r.diff, [2700], [0], get_rules("standard-2022"))
    assert said.tolist() == ["the full +500 counts: the 400-point rule helps once per event"]
    # Within the cap: nothing to say.
    r = _rate([2000], [1800], "standard-2025")
    assert counted_words(r.counted_why, [200], r.diff, [2000], [0], None).tolist() == [""]


def test_the_formula_without_a_cap_counts_every_difference_as_played():
    own, opp = np.array([2700, 1500]), np.array([1500, 2700])
    r = rate_arrays(
        own, opp, np.ones(2, bool), np.full(2, 100), get_rules("standard-2024"), "formula"
    )
    assert (r.counted_why == COUNTED_AS_PLAYED).all()
