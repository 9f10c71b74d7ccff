"""The event view (``jobs/event_view.py``): what the web's player pages show is the rate job's own
arithmetic, line by line: the lines of each player add up to the totals of rating_list.csv."""

from __future__ import annotations

import pytest

from pipeline.jobs.event_view import cap_note, event_view
from pipeline.jobs.rate import RateRequest, rate
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
    assert (silva.gap, silva.gap_used, silva.cap_note) == (-1062, -400, "capped at 400")
    assert (kowalski.gap_used, kowalski.cap_note) == (1062, "exempt: rated 2712, at least 2650")


def test_cap_notes_by_rule_set():
    # EXAMPLES.md: 2700 vs 2200, 2024-03 rules: the favourite is capped (0.92); from 2025-10 not.
    assert cap_note(500, 400, 2700, get_rules("standard-2024")) == "capped at 400"
    assert cap_note(500, 500, 2700, get_rules("standard-2025")).startswith("exempt")
    assert cap_note(300, 300, 2700, get_rules("standard-2025")) == ""
    assert cap_note(None, None, None, None) == ""
