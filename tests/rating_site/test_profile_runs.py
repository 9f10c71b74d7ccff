"""A profile's rows as runs (pipeline/site/profile_runs.py), on any history of a few players'
monthly lists: every list a player is on is stood for by exactly one row, with that list's
rating; a period with games has a row of its own; a row begins only where something happened
(the first list, games, a rating that moved, a return after lists without the player); the
row of the latest list runs on (``until`` None). And a player's runs are the same made alone
(the live profile) as made with everyone's (the static writer)."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.site.history_data import Month, plain
from pipeline.site.profile_runs import RUN_FIELDS, kind_runs
from tests.rating_site.conftest import covering

MONTHS = [
    Month(f"2025-{n:02d}", n, f"2025-{n - 1:02d}" if n > 1 else None, n > 1) for n in range(1, 9)
]
LIST = st.tuples(
    st.booleans(),  # on the list
    st.one_of(st.none(), st.integers(1000, 1002)),  # the rating (few values: equal ones)
    st.integers(0, 2),  # games in the period that made the list
)


def _history(players: list[list[tuple[bool, int | None, int]]]):
    rows, changes = [], []
    for n, lists in enumerate(players):
        pid = f"p{n}"
        for month, (on, rating, games) in zip(MONTHS, lists, strict=False):
            if not on:
                continue
            played = games if month.published else None
            rows.append({"id": pid, "month": month.month, "rating": rating,
                         "period_games": played, "k": 20, "flags": "", "name": pid,
                         "federation": "FRA", "title": "", "sex": "m",
                         "birth_year": 2000})  # fmt: skip
            if played and rating is not None:
                changes.append({"player_id": pid, "period": month.period, "games": games,
                                "score_h": 50 * games, "change": 0, "k": 20,
                                "k_rule": "K", "scale": None})  # fmt: skip
    frame = pd.DataFrame(
        rows,
        columns=[
            "id",
            "month",
            "rating",
            "period_games",
            "k",
            "flags",
            "name",
            "federation",
            "title",
            "sex",
            "birth_year",
        ],
    )
    frame = frame.astype({"rating": "Int64", "period_games": "Int64", "k": "Int64",
                          "birth_year": "Int64"})  # fmt: skip
    stored = pd.DataFrame(changes, columns=["player_id", "period", "games", "score_h",
                                            "change", "k", "k_rule", "scale"])  # fmt: skip
    return frame, stored


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(LIST, min_size=len(MONTHS), max_size=len(MONTHS)), min_size=1,
                max_size=3))  # fmt: skip
def test_the_runs_stand_for_every_list_once(players):
    rows, changes = _history(players)
    found = kind_runs(rows, changes, MONTHS)
    for n, lists in enumerate(players):
        pid = f"p{n}"
        span = found.spans.get(pid)
        listed = zip(MONTHS, lists, strict=True)
        on = [(m, rating, games) for m, (here, rating, games) in listed if here]
        if not on:
            assert span is None
            continue
        runs = found.runs.iloc[span[0] : span[1]]
        runs = [{k: (None if pd.isna(v) else v) for k, v in r.items()}
                for r in runs.to_dict("records")]  # fmt: skip
        starts = {r["month"] for r in runs}
        months = [m.month for m in MONTHS]
        for at, (month, rating, games) in enumerate(on):
            row = covering(runs, month.month)
            assert row["rating"] == rating
            before = on[at - 1] if at else None
            follows = before is not None and months.index(before[0].month) == months.index(
                month.month) - 1  # fmt: skip
            happened = (not follows or (games and month.published)
                        or before[1] != rating)  # fmt: skip
            assert (month.month in starts) == bool(happened), (month.month, runs)
        # A row never stands for a list the player is not on.
        held = {m.month for m, _, _ in on}
        for r in runs:
            end = r["until"] or months[-1]
            assert all(m in held for m in months if r["month"] <= m <= end)
        assert (runs[-1]["until"] is None) == (on[-1][0].month == months[-1])
        # Made alone (a live profile), the player's runs are the same.
        alone = kind_runs(rows[rows["id"] == pid].reset_index(drop=True),
                          changes[changes["player_id"] == pid], MONTHS)  # fmt: skip
        assert plain(alone.runs, RUN_FIELDS) == plain(found.runs.iloc[span[0] : span[1]],
                                                      RUN_FIELDS)  # fmt: skip
