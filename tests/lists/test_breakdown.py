"""The report's breakdown, built on integer codes, against the plain pandas reading of it:
group the rated sides by (player, event, source) in order of appearance, sum, add a TOTAL row
per player who played, and order everything by the player's row in the totals (stable)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.arrays.number_text import units_text
from pipeline.lists.breakdown import COLUMNS, TOTAL, event_breakdown

PLAYERS = ["101", "102", "103", "104", "105"]


def reference(sides: pd.DataFrame, totals: pd.DataFrame, scale: int) -> pd.DataFrame:
    s = sides[sides["rated"]]
    if s.empty:
        return pd.DataFrame({c: pd.Series(dtype=str) for c in COLUMNS})
    per_event = (
        s.groupby(["player", "event", "source"], sort=False)
        .agg(
            games=("score_h", "size"),
            score_h=("score_h", "sum"),
            expected=("pd_units", "sum"),
            dev=("dev_units", "sum"),
        )
        .reset_index()
    )
    row = {pid: i for i, pid in enumerate(totals["id"])}
    k_of = totals["k"].fillna(0).astype(int).tolist()
    per_event["k"] = [k_of[row[p]] if p in row else 0 for p in per_event["player"]]
    per_event["kdev"] = per_event["k"] * per_event["dev"]
    per_event["change"] = ""
    played = totals[totals["games"] > 0]
    total_rows = pd.DataFrame(
        {
            "player": played["id"].to_numpy(),
            "event": TOTAL,
            "source": "",
            "games": played["games"].to_numpy(),
            "score_h": played["score_h"].to_numpy(),
            "expected": played["expected_units"].to_numpy(),
            "dev": played["dev_units"].to_numpy(),
            "k": played["k"].fillna(0).astype(int).to_numpy(),
            "kdev": played["change_units"].to_numpy(),
            "change": [str(c) for c in played["change"]],
        }
    )
    both = pd.concat([per_event, total_rows], ignore_index=True)
    position = np.array([row.get(p, -1) for p in both["player"]])
    both = both.iloc[np.argsort(position, kind="stable")]
    names = totals["name"].tolist()
    return pd.DataFrame(
        {
            "player": both["player"].astype(str).tolist(),
            "name": [names[row[p]] if p in row else "" for p in both["player"]],
            "event": both["event"].astype(str).tolist(),
            "source": both["source"].astype(str).tolist(),
            "games": [str(int(g)) for g in both["games"]],
            "score": units_text(both["score_h"].to_numpy(dtype=np.int64), 100, 1).tolist(),
            "expected": units_text(both["expected"].to_numpy(dtype=np.int64), scale, 2).tolist(),
            "sum_dev": units_text(both["dev"].to_numpy(dtype=np.int64), scale, 2).tolist(),
            "k": [str(int(k)) for k in both["k"]],
            "k_x_sum_dev": units_text(both["kdev"].to_numpy(dtype=np.int64), scale, 2).tolist(),
            "change": both["change"].astype(str).tolist(),
        },
        columns=COLUMNS,
    )


SIDE = st.tuples(
    st.sampled_from([*PLAYERS, "999"]),  # 999: not in the totals
    st.sampled_from(["Open", "Cup", "Open A"]),
    st.sampled_from(["a.csv", "b.csv"]),
    st.sampled_from([0, 50, 100]),
    st.integers(-100, 100),
    st.booleans(),
)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(SIDE, max_size=30),
    st.permutations(PLAYERS),
    st.lists(st.integers(0, 3), min_size=5, max_size=5),
    st.lists(st.one_of(st.none(), st.sampled_from([10, 20, 40])), min_size=5, max_size=5),
)
def test_breakdown_is_the_plain_group_by(sides_rows, order, games, ks):
    sides = pd.DataFrame(
        sides_rows, columns=["player", "event", "source", "score_h", "dev_units", "rated"]
    ).astype({"player": str, "event": str, "source": str})
    sides["pd_units"] = pd.array(50 - sides["dev_units"].to_numpy(), dtype="Int64")
    sides["dev_units"] = sides["dev_units"].astype("Int64")
    totals = pd.DataFrame(
        {
            "id": pd.Series(order, dtype=str),
            "name": [f"Player {p}" for p in order],
            "k": pd.array(ks, dtype="Int64"),
            "games": np.array(games, dtype=np.int64),
            "score_h": np.arange(5, dtype=np.int64) * 50,
            "expected_units": np.arange(5, dtype=np.int64) * 30,
            "dev_units": np.arange(5, dtype=np.int64) * 20 - 40,
            "change_units": np.arange(5, dtype=np.int64) * 200 - 400,
            "change": np.arange(5, dtype=np.int64) * 2 - 4,
        }
    )
    got = event_breakdown(sides, totals, 100)
    expected = reference(sides, totals, 100)
    assert got.columns.tolist() == COLUMNS
    assert got.astype(str).to_numpy().tolist() == expected.to_numpy().tolist()
