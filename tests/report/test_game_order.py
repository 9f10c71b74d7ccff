"""A player's games read in round order in every face (the report model's order): an arbiter
checks a calculation against the crosstable round by round. Before, a bye (a side the reader
adds after the games) came last: open-gros-2010-r4.trf's Moreiro Sanchez read rounds 1, 2, 4, 3;
and a games file written in any order was shown in that order. Sequential mode keeps the order
the games were rated in (each game's rating is the one before it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.jobs.rate import RateOutputs, RateRequest, rate
from pipeline.model import RateOptions
from tests.conftest import SAMPLE


def _report(tmp_path: Path, *inputs: Path, mode: str = "fide", **request):
    return rate(
        RateRequest(
            inputs=inputs,
            out_dir=tmp_path / "out",
            options=RateOptions(mode=mode, **request.pop("options", {})),
            outputs=RateOutputs(xlsx=False, html=False, report=True),
            **request,
        )
    ).report


def _in_round_order(report) -> bool:
    games = report.games
    for _, mine in games.groupby(["player", "event"], sort=False):
        rounds = mine["round"].astype(int).tolist()
        if rounds != sorted(rounds):
            return False
    return True


def test_a_bye_is_shown_in_its_round(shared_trf, tmp_path):
    report = _report(tmp_path, shared_trf / "open-gros-2010-r4.trf")
    assert (report.games["opponent"] == "").any()  # the event has byes
    assert _in_round_order(report)


def test_a_games_file_in_any_order_is_shown_in_round_order(tmp_path):
    lines = (SAMPLE / "games.csv").read_text(encoding="utf-8").splitlines()
    backwards = tmp_path / "games.csv"
    backwards.write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n", encoding="utf-8")
    players = {"players": SAMPLE / "players.csv", "options": {"period": "2026-11"}}
    report = _report(tmp_path, backwards, **players)
    assert _in_round_order(report)
    # The same numbers, game by game, as the file in round order gives.
    ordered = _report(tmp_path / "ordered", SAMPLE / "games.csv", **players)
    key = ["player", "event", "round", "opponent"]
    assert (
        report.games.sort_values(key)
        .reset_index(drop=True)[
            ["gap", "gap_used", "counted", "pd_units", "dev_units", "k_dev_units"]
        ]
        .equals(
            ordered.games.sort_values(key).reset_index(drop=True)[
                ["gap", "gap_used", "counted", "pd_units", "dev_units", "k_dev_units"]
            ]
        )
    )


@pytest.mark.parametrize("mode", ["sequential"])
def test_sequential_mode_keeps_the_order_the_games_were_rated_in(tmp_path, mode):
    lines = (SAMPLE / "games.csv").read_text(encoding="utf-8").splitlines()
    backwards = tmp_path / "games.csv"
    backwards.write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n", encoding="utf-8")
    players = {"players": SAMPLE / "players.csv", "options": {"period": "2026-11"}}
    report = _report(tmp_path, backwards, mode=mode, **players)
    # Rated backwards: each player's games in the file's order, the last round first.
    for _, mine in report.games.groupby("player", sort=False):
        rounds = mine["round"].astype(int).tolist()
        assert rounds == sorted(rounds, reverse=True)
