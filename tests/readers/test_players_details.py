"""A blank cell on --players falls back to the event's own value; a value on the list decides
(issue 12, item 4)."""

from __future__ import annotations

from helpers import rate_rows, write_csv
from period_files import trf_player, write_trf


def event(tmp_path):
    return write_trf(
        tmp_path / "open.trf",
        {"012": "Open", "042": "2026/11/05", "XXR": "1"},
        [
            trf_player(1, "Young, Ada", 1800, "NED", "1001", "2010/01/01", "1.0", [(2, "w", "1")]),
            trf_player(2, "Old, Bob", 1800, "ENG", "1002", "2011/01/01", "0.0", [(1, "b", "0")]),
        ],
    )


def test_blank_birth_year_on_the_list_falls_back_to_the_event(tmp_path):
    players = write_csv(
        tmp_path / "players.csv",
        ["id", "name", "rating", "games", "birth_year", "federation"],
        [["1001", "Young, Ada", 1800, 100, "", ""], ["1002", "Old, Bob", 1800, 100, 1980, "ENG"]],
    )
    rows = rate_rows(tmp_path, [event(tmp_path)], players, period="2026-11")
    # 1001: the list's birth year is blank, the TRF says 2010: a junior (2026 - 2010 = 16), K 40,
    # 1800 v 1800 -> PD 0.50, +0.5 x 40 = +20. With the blank deciding, K 20 and +10.
    assert rows["1001"]["k"] == "40" and rows["1001"]["new_rating"] == "1820"
    # 1002: the list's 1980 decides over the TRF's 2011: K 20, -0.5 x 20 = -10.
    assert rows["1002"]["k"] == "20" and rows["1002"]["new_rating"] == "1790"


def test_no_details_from_the_events_leave_the_list_as_it_is():
    import pandas as pd

    from pipeline.readers.lists.player_details import fill_blank_details

    frame = pd.DataFrame({"id": ["1", "2"], "name": ["", "2"], "federation": ["", "ENG"]})
    for details in (pd.DataFrame(), pd.DataFrame({"name": pd.Series([], dtype=str)})):
        assert fill_blank_details(frame, details) is frame
    given = pd.DataFrame({"name": ["Ann"], "federation": ["NED"]}, index=pd.Index(["2"]))
    filled = fill_blank_details(frame, given)
    assert filled["name"].tolist() == ["", "Ann"] and filled["federation"].tolist() == ["", "ENG"]
