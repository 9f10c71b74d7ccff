"""Issue 30 item 1: before 2008-07 FIDE rated each player's event from one difference, the
player's rating minus the average of the rated opponents (the 350-point rule on that D),
We = n x PD(D) (``pipeline.engine.average_opponent_method``; era ``standard-2006``)."""

from __future__ import annotations

import csv
from fractions import Fraction

import pytest

from pipeline import RateOptions, rate_files
from pipeline.jobs.rate.outputs import with_side_texts
from pipeline.rules.sets import get_rules
from tests.conftest import SHARED, run_cli
from tests.helpers import write_csv

PLAYERS = [
    # id, name, rating, birth_year, games (K of the 2006 era: 25 below 30 games, 15 below
    # 2400, 10 once 2400)
    ["A", "A", 2250, 1960, 99],
    ["B", "B", 2000, 1960, 99],
    ["C", "C", 1906, 1960, 99],
    ["D", "D", 1705, 1960, 10],
    ["E", "E", "", 1960, 0],  # unrated
]
GAMES = [
    ["RR", "1", "2005-05-02", "A", "B", "1/2-1/2"],
    ["RR", "1", "2005-05-02", "C", "D", "1/2-1/2"],
    ["RR", "2", "2005-05-03", "A", "C", "+-"],  # forfeit: not a rated game
    ["RR", "2", "2005-05-03", "B", "E", "1-0"],
    ["RR", "3", "2005-05-04", "D", "A", "1-0"],
    ["RR", "3", "2005-05-04", "C", "E", "1-0"],
    ["RR", "4", "2005-05-05", "A", "E", "1-0"],
    ["RR", "4", "2005-05-05", "B", "D", "1-0"],
    ["RR", "5", "2005-05-06", "B", "C", "0-1"],
    ["RR", "5", "2005-05-06", "D", "E", "0-1"],
]
HEADER = ["id", "name", "rating", "birth_year", "games"]


def _files(tmp_path):
    players = write_csv(tmp_path / "players.csv", HEADER, PLAYERS)
    games = write_csv(
        tmp_path / "games.csv", ["event", "round", "date", "white", "black", "result"], GAMES
    )
    return games, players


def test_a_round_robin_rated_from_the_average_opponent(tmp_path):
    """A five-player round robin of May 2005, worked by hand. E is unrated, so games against E
    are not rated for anybody; A-C was a forfeit. PD from table 8.1.2; Rc rounded .5 up.

    A (2250, K 15): rated opponents B 2000 (1/2) and D 1705 (0). Rc = 3705 / 2 = 1852.5 -> 1853.
      D = 2250 - 1853 = 397 -> 350 (the 350 rule) -> PD 0.89 (band 345-357).
      We = 2 x 0.89 = 1.78; W = 0.5; K x (W - We) = 15 x -1.28 = -19.2 -> -19.
      (Game by game: 0.81 + 0.89 = 1.70, 15 x -1.20 = -18.)
    B (2000, K 15): A 2250 (1/2), C 1906 (0), D 1705 (1). Rc = 5861 / 3 = 1953.67 -> 1954.
      D = 46 -> PD 0.56 (band 40-46). We = 1.68; W = 1.5; 15 x -0.18 = -2.7 -> -3.
    C (1906, K 15): B 2000 (1), D 1705 (1/2). Rc = 3705 / 2 = 1852.5 -> 1853 (.5 up).
      D = 53 -> PD 0.57 (band 47-53; 1852 would give D 54 -> 0.58).
      We = 1.14; W = 1.5; 15 x 0.36 = 5.4 -> +5. (Game by game: 0.37 + 0.76, 5.55 -> +6.)
    D (1705, K 25: 10 games): A 2250 (1), B 2000 (0), C 1906 (1/2). Rc = 6156 / 3 = 2052.
      D = -347 -> PD 0.11 (band 345-357, lower). We = 0.33; W = 1.5; 25 x 1.17 = 29.25 -> +29.
      (Game by game: 0.11 + 0.15 + 0.24 = 0.50, 25 x 1.00 = +25.)
    """
    games, players = _files(tmp_path)
    result = with_side_texts(rate_files([games], players, RateOptions()))
    assert result.rule_set == "standard-2006"
    totals = result.totals.set_index("id")
    assert totals.loc[["A", "B", "C", "D"], "expected_units"].tolist() == [178, 168, 114, 33]
    assert totals.loc[["A", "B", "C", "D"], "change"].tolist() == [-19, -3, 5, 29]
    assert totals.loc[["A", "B", "C", "D"], "change_units"].tolist() == [-1920, -270, 540, 2925]
    rated = result.sides[result.sides["rated"]]
    by_player = rated.groupby("player")["diff"].agg(lambda d: sorted(set(d)))
    assert by_player.to_dict() == {"A": [350], "B": [46], "C": [53], "D": [-347]}
    # The game-by-game era after it rates the same games game by game.
    later = rate_files([games], players, RateOptions(rules="standard-2008")).totals
    assert later.set_index("id").loc[["A", "C", "D"], "change"].tolist() == [-18, 6, 25]


def test_the_period_job_rates_with_the_average_opponent(tmp_path):
    games, players = _files(tmp_path)
    out = tmp_path / "out"
    done = run_cli(
        "period", "--list", players, "--events", games, "--out", out, "--period", "2005-05"
    )
    assert done.exit_code == 0, done.stderr
    with next(out.glob("rating_list_2005-06.csv")).open(encoding="utf-8") as fh:
        new = {r["id"]: r["rating"] for r in csv.DictReader(fh)}
    # D's 1734 is below the era's floor, 1801 (2003 text: "ratings drop below 1801 are listed
    # on the next list as 'delisted'"): unrated on the next list.
    assert [new[p] for p in "ABCD"] == ["2231", "1997", "1911", ""]


def test_the_dask_engine_rates_with_the_average_opponent(tmp_path):
    pytest.importorskip("distributed")
    games, players = _files(tmp_path)
    common = ["rate", games, "--players", players, "--period", "2005-05", "--no-xlsx"]
    assert run_cli(*common, "--out", tmp_path / "pandas").exit_code == 0
    dask = run_cli(*common, "--out", tmp_path / "dask", "--engine", "dask")
    assert dask.exit_code == 0, dask.stderr
    lists = [(tmp_path / d / "rating_list.csv").read_bytes() for d in ("pandas", "dask")]
    assert lists[0] == lists[1] and b"2231" in lists[0]


def _trf_players(path):
    """Start rank -> (rating or 0, [(opponent rank, result char)]) from the 001 records, by
    their columns (TRF-2016: rating 49-52, rounds from 92 in blocks of 10: opponent 92-95,
    result 99)."""
    players = {}
    for line in path.read_text(encoding="latin-1").splitlines():
        if not line.startswith("001"):
            continue
        rank = int(line[4:8])
        rating = int(line[48:52]) if line[48:52].strip() else 0
        rounds = []
        for start in range(91, len(line), 10):
            block = line[start : start + 10]
            opponent, result = block[0:4].strip(), block[7:8]
            if opponent.isdigit() and int(opponent) and result in "10=":
                rounds.append((int(opponent), result))
        players[rank] = (rating, rounds)
    return players


def test_karl_mala_2005_is_rated_by_the_average_method():
    """Every rated player of karl-mala-2005.trf: We from the TRF's own columns with fractions,
    one Rc per player (rounded .5 up), D capped at 350, PD from table 8.1.2's CSV."""
    trf = SHARED / "trf" / "karl-mala-2005.trf"
    if not trf.is_file():
        pytest.skip("../shared/trf is not present")
    bands = []
    with (SHARED / "fide" / "table_8_1_2.csv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            bands.append((int(row["d_min"]), row["d_max"], row["pd_higher"], row["pd_lower"]))

    def pd_h(d: int) -> int:
        for low, high, higher, lower in bands:
            if abs(d) >= low and (not high or abs(d) <= int(high)):
                return int(Fraction(higher if d >= 0 else lower) * 100)
        raise AssertionError(d)

    players = _trf_players(trf)
    expected = {}
    for rank, (rating, rounds) in players.items():
        opponents = [players[o][0] for o, _ in rounds if rating and players.get(o, (0,))[0]]
        if not opponents:
            continue
        rc = int(Fraction(sum(opponents), len(opponents)) + Fraction(1, 2))
        d = max(-350, min(350, rating - rc))
        expected[rank] = len(opponents) * pd_h(d)

    result = rate_files([trf], None, RateOptions())
    assert result.rule_set == "standard-2006"
    rated = result.sides[result.sides["rated"]]
    got = rated.groupby("player")["pd_units"].sum()
    # A player's key is the FIDE ID (columns 58-68), else the file's name and start rank.
    ids = {}
    for text in trf.read_text(encoding="latin-1").splitlines():
        if text.startswith("001"):
            rank = int(text[4:8])
            ids[rank] = text[57:68].strip() or f"karl-mala-2005#{rank}"
    assert {p: int(v) for p, v in got.items()} == {ids[r]: v for r, v in expected.items()}
    assert len(expected) > 100
    assert get_rules("standard-2006").expected_score != get_rules("standard-2008").expected_score


def test_the_calculator_rates_with_the_average_opponent():
    # A of the round robin above, typed into `fiderate calc`: 2250 (K 15) against 2000 (1/2)
    # and 1705 (0). Rc = 1852.5 -> 1853, D 397 -> 350, PD 0.89 on both games: We 1.78,
    # 15 x (0.5 - 1.78) = -19.2 -> -19; game by game (standard-2008) -18.
    from pipeline.calculator.calc import CalcRequest, KInput, calculate

    def run(rules: str):
        request = CalcRequest(2250, (2000, 1705), (50, 0), KInput(games=99), rules=rules)
        return calculate(request)

    old = run("standard-2006")
    assert (old.player["expected_units"], old.player["change"]) == (178, -19)
    assert [g.gap_used for g in old.games] == [350, 350]
    assert [g.pd_fide_h for g in old.games] == [89, 89]
    assert run("standard-2008").player["change"] == -18
