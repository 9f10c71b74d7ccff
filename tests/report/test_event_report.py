"""The report model (``pipeline.report``): built once by the output stage and returned by the
rate job; its per-game rows add up to the rating list's totals, name why each difference
counted as it did in the era's words, and hold what every face shows (issue 35)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pipeline.engine.sides import with_side_texts
from pipeline.jobs.rate import RateOutputs, RateRequest, rate
from pipeline.lists.next_list import STATUS_POOL
from pipeline.model import RateOptions
from pipeline.report import EventReport
from tests.conftest import SAMPLE

MODEL_ONLY = RateOutputs(xlsx=False, html=False, report=True)


def _rate(tmp_path, *inputs, outputs=MODEL_ONLY, **options):  # type: ignore[no-untyped-def]
    return rate(
        RateRequest(
            inputs=inputs,
            out_dir=tmp_path / "out",
            options=RateOptions(**options),
            outputs=outputs,
        )
    )


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return _rate(tmp_path_factory.mktemp("o"), SAMPLE / "event.trf")


def test_the_job_returns_the_model_when_asked_and_when_a_report_is_written(sample, tmp_path):
    assert isinstance(sample.report, EventReport)
    assert sorted(p.name for p in sample.written) == ["games.csv", "rating_list.csv"]
    # A report written: the model the files show, without asking.
    written = _rate(tmp_path, SAMPLE / "event.trf", outputs=RateOutputs(html=True, xlsx=False))
    assert written.report is not None
    # Neither: a CSV-only run builds none.
    plain = _rate(tmp_path, SAMPLE / "event.trf", outputs=RateOutputs(xlsx=False, html=False))
    assert plain.report is None


def test_each_players_games_add_up_to_the_totals(sample):
    report, totals = sample.report, sample.rated.totals.set_index("id")
    games = report.games
    for row in report.standings.itertuples():  # a test's own check, player by player
        mine = games[(games["player"] == row.id) & games["rated"]]
        assert len(mine) == row.games == int(totals.loc[row.id, "games"])
        assert int(mine["dev_units"].sum()) == row.dev_units
        assert int(mine["pd_units"].sum()) == row.expected_units
        if len(mine):
            assert int(mine["k_dev_units"].sum()) == row.change_units == row.k * row.dev_units
            assert mine["cum_expected_units"].iloc[-1] == row.expected_units
            assert mine["cum_score_h"].iloc[-1] == row.score_h
        assert row.change == int(totals.loc[row.id, "change"])


def test_the_standings_follow_the_files_ranks_and_name_the_event(sample):
    report, rated = sample.report, sample.rated
    assert report.standings["id"].tolist() == list(rated.event_ranks.sort_values().index)
    assert report.standings["rank"].tolist() == list(range(1, len(report.standings) + 1))
    # Issue 35 item 5: titled by the TRF's own 012 name, not "event.trf".
    assert report.title != "event.trf" and report.title == rated.event_name != ""
    assert report.dates[0] <= report.dates[1] and report.dates[0].startswith("2026")


def test_the_400_point_rule_is_named_where_it_bites(sample):
    games = sample.report.games
    # Kowalski (2712) beats Silva (1650): a gap of 1062. Silva's side counts -400 (cut);
    # Kowalski is rated at least 2650 under standard-2025, so his side counts the full gap.
    silva = games[(games["player"] == "4100050") & (games["opponent"] == "4100018")].iloc[0]
    kowalski = games[(games["player"] == "4100018") & (games["opponent"] == "4100050")].iloc[0]
    assert (silva["gap"], silva["gap_used"]) == (-1062, -400)
    assert silva["counted"] == "400-point rule: -1062 counts as -400"
    assert (kowalski["gap_used"], kowalski["counted"]) == (
        1062,
        "exemption: rated 2712, at least 2650: the full +1062 counts",
    )
    assert sample.report.counted_heading == "counted (400-point rule)"


def test_assumed_k_is_said_with_the_players_and_the_fix(sample):
    # Issue 35 item 3: event.trf alone cannot say the K of Silva (12 games) or Okafor (2400).
    assumed = sample.report.assumed
    assert {"4100050", "4100069"} <= set(assumed.players["id"])
    assert "games count" in assumed.missing and "--players" in assumed.fix
    row = sample.report.standings.set_index("id").loc["4100050"]
    assert row["k_assumed"] and "assumed" in row["k_rule"]


def test_an_unrated_player_has_words_not_a_change(tmp_path):
    (tmp_path / "g.csv").write_text(
        "event,round,white,black,result,white_rating,white_name,black_name\nE,1,1,2,1-0,1800,A,B\n",
        encoding="utf-8",
    )
    result = _rate(tmp_path, tmp_path / "g.csv", period="2026-11")
    row = result.report.standings.set_index("id").loc["2"]
    assert row["unrated_words"] == STATUS_POOL
    assert result.report.standings.set_index("id").loc["1", "unrated_words"] == ""


def test_before_july_2008_the_model_names_rc_and_d_not_a_400_point_cap(tmp_path):
    # Issue 35 item 2: under the average-opponent method every game counts one D = Ra - Rc (350
    # cap), even a game against a higher-rated opponent; the model must say so, not "capped".
    result = _rate(tmp_path, SAMPLE / "event.trf", rules="standard-2006")
    report = result.report
    assert report.counted_heading == "D = Ra - Rc (350-point rule)"
    assert "average rating of the rated opponents" in report.method_words
    sides = with_side_texts(result.rated).sides
    for pid in report.standings["id"]:
        mine = sides[(sides["player"] == pid) & sides["rated"]]
        if mine.empty:
            continue
        opponents = mine["opponent_rating"].astype(int)
        # Rc: the rounded (.5 up) average of the rated opponents, computed here the long way.
        rc = (2 * int(opponents.sum()) + len(opponents)) // (2 * len(opponents))
        own = int(mine["player_rating"].iloc[0])
        d = max(-350, min(350, own - rc))
        games = report.games[(report.games["player"] == pid) & report.games["rated"]]
        assert (games["gap_used"] == d).all()
        for said in games["counted"]:
            assert said.startswith(f"average method: D = {own} - Rc {rc} = {own - rc:+d}")
            assert "capped" not in said and "400" not in said


def test_sequential_mode_reads_each_game_from_the_running_rating(tmp_path):
    result = _rate(tmp_path, SAMPLE / "event.trf", mode="sequential")
    report = result.report
    assert report.sequential and report.mode_note
    games = report.games[report.games["rated"]]
    assert (games["gap"] == games["rating_used"] - games["opponent_rating"]).all()
    # Somebody's rating moved during the event: the model holds the running one, not the start.
    start = games["player"].map(report.standings.set_index("id")["rating"])
    assert (games["rating_used"] != start).any()


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(1000, 2900), min_size=2, max_size=6),
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from(["1-0", "0-1", "1/2-1/2"])),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from(["fide", "sequential"]),
)
def test_every_players_games_add_up_to_their_standings_row(ratings, pairings, mode):
    # Any event, either mode: a player's rows of the model's games hold the arithmetic of their
    # standings row (what the player page and report.xlsx show of them), exactly.
    players = "id,name,rating\n" + "".join(f"{100 + i},P{i},{r}\n" for i, r in enumerate(ratings))
    games = [(w % len(ratings), b % len(ratings), res) for w, b, res in pairings]
    games = [(w, b, res) for w, b, res in games if w != b]
    assume(games)
    rows = "".join(f"E,{n + 1},{100 + w},{100 + b},{res}\n" for n, (w, b, res) in enumerate(games))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "p.csv").write_text(players, encoding="utf-8")
        (folder / "g.csv").write_text("event,round,white,black,result\n" + rows, encoding="utf-8")
        result = rate(
            RateRequest(
                inputs=(folder / "g.csv",),
                out_dir=folder / "out",
                players=folder / "p.csv",
                options=RateOptions(period="2026-11", mode=mode),
                outputs=MODEL_ONLY,
            )
        )
    report = result.report
    assert len(report.games) == 2 * len(games)
    for row in report.standings.itertuples():
        mine = report.games[report.games["player"] == row.id]
        rated = mine[mine["rated"]]
        assert len(rated) == row.games
        assert int(rated["dev_units"].sum()) == row.dev_units
        assert int(rated["k_dev_units"].sum()) == row.change_units
        assert int(rated["score_h"].sum()) == row.score_h
        assert int(mine["score_h"].sum()) == row.points_h
        if len(mine):
            assert mine["cum_expected_units"].iloc[-1] == row.expected_units
