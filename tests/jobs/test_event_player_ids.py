"""The period's player ids (``events.player_ids``): every id of every event, distinct, in order
of first appearance, blanks left out; games files (white, black) and individual files (player,
opponent) alike."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.jobs.period.events import EventUnit, player_ids
from pipeline.model import GamesInput, SidesInput

ids = st.lists(st.sampled_from(["", "7", "07", "12", "x", "Ä9", "100"]), max_size=8)


def unit(frame: pd.DataFrame, individual: bool) -> EventUnit:
    data = SidesInput("e.csv", frame) if individual else GamesInput("e.csv", frame)
    return EventUnit(file=None, name="E", data=data, start_date="2026-11-01", dated=True)  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(ids, ids, st.booleans()), max_size=5))
def test_every_id_once_in_order_of_first_appearance(events):
    units, seen = [], []
    for first, second, individual in events:
        n = min(len(first), len(second))
        a, b = pd.Series(first[:n], dtype=str), pd.Series(second[:n], dtype=str)
        columns = ("player", "opponent") if individual else ("white", "black")
        units.append(unit(pd.DataFrame(dict(zip(columns, (a, b), strict=True))), individual))
        seen += a.tolist() + b.tolist()
    expected = list(dict.fromkeys(i for i in seen if i != ""))
    assert player_ids(units).tolist() == expected
