"""The event view (``jobs/event_view.py``): what the web's player pages show is the rate job's own
arithmetic, line by line: the lines of each player add up to the totals of rating_list.csv."""

from __future__ import annotations

import pytest

from pipeline.engine.sides import with_side_texts
from pipeline.jobs.event_view import event_view
from pipeline.jobs.rate import RateRequest, rate
from pipeline.model import RateOptions
from pipeline.rules.counted_words import counted_note
from pipeline.rules.sets import get_rules
from tests.conftest import SAMPLE


@pytest.fixture(scope="module")
def view(tmp_path_factory):
    result = rate(RateRequest(inputs=(SAMPLE / "event.trf",), out_dir=tmp_path_factory.mktemp("o")))
    return result.rated, event_view(result.rated)


def test_each_players_lines_add_up_to_the_totals(view):
    rated, shown = view
    totals = rated.totals.set_index("id")
    for pid, p in shown.players.items():
        lines = [g for g in p.lines if g.rated]
        assert len(lines) == p.games == int(totals.loc[pid, "games"])
        assert sum(g.dev_units for g in lines) == p.dev_units
        assert sum(g.pd_units for g in lines) == p.expected_units
        if lines:
            assert sum(g.k_dev_units for g in lines) == p.change_units == p.k * p.dev_units
        assert p.change == int(totals.loc[pid, "change"])


def test_the_standings_follow_the_files_ranks(view):
    rated, shown = view
    # event.trf rated alone: the order of its own final ranks (TRF 001 records, columns 86-89).
    assert [r.id for r in shown.rows] == list(rated.event_ranks.sort_values().index)
    assert [r.rank for r in shown.rows] == list(range(1, len(shown.rows) + 1))


def test_the_400_point_rule_is_named_where_it_bites(view):
    _, shown = view
    # Kowalski (2712) beats Silva (1650): a gap of 1062. Silva's side counts -400 (capped);
    # Kowalski is rated at least 2650 under standard-2025, so his side counts the full gap.
    silva = next(g for g in shown.players["4100050"].lines if g.opponent_id == "4100018")
    kowalski = next(g for g in shown.players["4100018"].lines if g.opponent_id == "4100050")
    assert (silva.gap, silva.gap_used) == (-1062, -400)
    assert silva.cap_note == "400-point rule: -1062 counts as -400"
    assert (kowalski.gap_used, kowalski.cap_note) == (
        1062,
        "exemption: rated 2712, at least 2650: the full +1062 counts",
    )
    assert shown.players["4100050"].counted_heading == "counted (400-point rule)"


def test_cap_notes_by_rule_set():
    # EXAMPLES.md: 2700 vs 2200, 2024-03 rules: the favourite is capped (0.92); from 2025-10 not.
    assert counted_note(500, 400, 2700, get_rules("standard-2024")) == (
        "400-point rule: +500 counts as +400"
    )
    assert counted_note(500, 500, 2700, get_rules("standard-2025")).startswith("exemption")
    assert counted_note(300, 300, 2700, get_rules("standard-2025")) == ""
    assert counted_note(None, None, None, None) == ""
    # 2008-07 .. 2009-06: game by game with the 350-point rule.
    assert counted_note(-420, -350, 1800, get_rules("standard-2008")) == (
        "350-point rule: -420 counts as -350"
    )
    # 2022 .. 2024-02: the cap helps in one game per event; the others count in full.
    assert "once per event" in counted_note(-450, -450, 1800, get_rules("standard-2022"))


def test_before_july_2008_the_page_names_rc_and_d_not_a_400_point_cap(tmp_path):
    # Issue 35 item 2: under the average-opponent method every game counts one D = Ra - Rc (350
    # cap), even a game against a higher-rated opponent; the page must say so, not "capped".
    result = rate(
        RateRequest(
            inputs=(SAMPLE / "event.trf",),
            out_dir=tmp_path / "o",
            options=RateOptions(rules="standard-2006"),
        )
    )
    rated = result.rated
    shown = event_view(rated)
    sides = with_side_texts(rated).sides
    for pid, p in shown.players.items():
        assert p.counted_heading == "D = Ra - Rc (350-point rule)"
        assert "average rating of the rated opponents" in p.method_words
        mine = sides[(sides["player"] == pid) & sides["rated"]]
        if mine.empty:
            continue
        opponents = mine["opponent_rating"].astype(int)
        # Rc: the rounded (.5 up) average of the rated opponents, computed here the long way.
        rc = (2 * int(opponents.sum()) + len(opponents)) // (2 * len(opponents))
        own = int(mine["player_rating"].iloc[0])
        d = max(-350, min(350, own - rc))
        for g in (g for g in p.lines if g.rated):
            assert g.gap_used == d
            assert g.cap_note.startswith(f"average method: D = {own} - Rc {rc} = {own - rc:+d}")
            assert "capped" not in g.cap_note and "400" not in g.cap_note
