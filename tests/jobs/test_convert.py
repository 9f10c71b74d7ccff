"""``fiderate convert --to trf``: the TRF written reads back as the same games (sample files,
the real TRFs, and hypothesis-generated events), and nothing is written when the input is bad."""

from __future__ import annotations

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.jobs.convert import convert_to_trf
from pipeline.model import EventInfo
from pipeline.problem_list import ProblemList
from pipeline.readers import read_event_file
from pipeline.readers.events.trf_file import parse_trf, read_trf
from pipeline.writers.text.trf_writer import event_trf
from tests.conftest import run_cli

GAME_KEY = ["event", "round", "white", "black", "result", "white_h", "black_h", "played"]


def games_key(games: pd.DataFrame) -> list[tuple]:
    return sorted(games[GAME_KEY].astype(str).itertuples(index=False, name=None))


def test_games_file_to_trf_and_back(sample, tmp_path):
    out = tmp_path / "event.trf"
    result = run_cli(
        "convert",
        str(sample / "games.csv"),
        "--players",
        str(sample / "players.csv"),
        "--to",
        "trf",
        "-o",
        str(out),
    )
    assert result.exit_code == 0, result.stderr
    assert "10 players, 25 games, 5 rounds" in result.stdout
    back = read_trf(out)
    original = read_event_file(sample / "games.csv")
    assert games_key(back.games) == games_key(original.games)
    assert list(back.games.sort_values(["round", "white"])["date"]) == list(
        original.games.sort_values(["round", "white"])["date"]
    )
    # The written players equal the independently generated sample_data/event.trf's.
    expected = read_trf(sample / "event.trf").players.players
    got = back.players.players
    columns = ["sno", "id", "name", "rating", "birth_year", "federation", "title", "sex"]
    assert got[columns].equals(expected[columns])


def test_real_trf_round_trip(shared_trf, tmp_path):
    for name in ("karl-mala-2005.trf", "open-gros-2010-r4.trf", "generated-60p-cr-only.trf"):
        original = read_trf(shared_trf / name)
        out = tmp_path / name
        convert_to_trf(shared_trf / name, out)
        back = read_trf(out)
        # Players without a FIDE ID get the written file's stem in their id: same stem here.
        assert games_key(back.games) == games_key(original.games)
        bye_key = ["player", "round", "code", "score_h"]
        assert back.byes[bye_key].equals(original.byes[bye_key])
        assert back.players.players["id"].tolist() == original.players.players["id"].tolist()


def test_bad_input_writes_nothing(sample, tmp_path):
    out = tmp_path / "never.trf"
    result = run_cli("convert", str(sample / "games.csv"), "-o", str(out))
    assert result.exit_code == 1
    assert "unknown-player" in result.stderr and "Traceback" not in result.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_grid_gets_rounds_assigned(sample, tmp_path):
    out = tmp_path / "grid.trf"
    convert_to_trf(sample / "grid.csv", out)
    back = read_trf(out)
    original = read_event_file(sample / "grid.csv")
    # Grid games have no round; the TRF must give each player at most one game per round.
    assert len(back.games) == len(original.games) == 6
    per_round = pd.concat(
        [
            back.games[["round", "white"]].rename(columns={"white": "p"}),
            back.games[["round", "black"]].rename(columns={"black": "p"}),
        ]
    )
    assert not per_round.duplicated().any()


@st.composite
def events(draw):
    """A Swiss-like event: n players with FIDE-like ids, r rounds of random pairings."""
    n = draw(st.integers(2, 12))
    rounds = draw(st.integers(1, 5))
    ids = [str(4_000_000 + i * 7) for i in range(n)]
    ratings = draw(st.lists(st.one_of(st.none(), st.integers(1000, 2800)), min_size=n, max_size=n))
    games, byes = [], []
    for r in range(1, rounds + 1):
        order = draw(st.permutations(range(n)))
        for a, b in zip(order[0::2], order[1::2], strict=False):
            result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"]))
            played = result in ("1-0", "0-1", "1/2-1/2")
            wh = {"1-0": 100, "0-1": 0, "1/2-1/2": 50, "+-": 100, "-+": 0, "--": 0}[result]
            bh = 0 if result in ("1-0", "+-", "--") else (50 if result == "1/2-1/2" else 100)
            games.append(("E", str(r), ids[a], ids[b], result, wh, bh, played))
        if n % 2:
            code = draw(st.sampled_from(["H", "F", "U", "Z"]))
            byes.append((ids[order[-1]], "E", str(r), code, {"H": 50, "Z": 0}.get(code, 100)))
    return ids, ratings, games, byes


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_generated_events_round_trip(event):
    ids, ratings, game_rows, bye_rows = event
    games = pd.DataFrame(game_rows, columns=GAME_KEY)
    games["date"] = pd.Series(pd.NA, index=games.index, dtype="string")
    byes = pd.DataFrame(bye_rows, columns=["player", "event", "round", "code", "score_h"])
    byes["date"] = pd.Series(pd.NA, index=byes.index, dtype="string")
    people = pd.DataFrame(
        {
            "id": ids,
            "name": [f"Player {i}" for i in ids],
            "rating": pd.array(ratings, dtype="Int64"),
            "birth_year": pd.array([None] * len(ids), dtype="Int64"),
            "federation": "",
            "title": "",
            "sex": "",
        }
    )
    text = event_trf(games, byes, people, EventInfo(name="E")).text
    problems = ProblemList()
    back = parse_trf(text, "gen.trf", problems)
    assert not problems, problems.problems
    assert games_key(back.games) == games_key(games)
    assert sorted(
        back.byes[["player", "round", "code"]].itertuples(index=False, name=None)
    ) == sorted(byes[["player", "round", "code"]].itertuples(index=False, name=None))
    got = back.players.players.set_index("id")["rating"]
    assert [None if pd.isna(got[i]) else int(got[i]) for i in ids] == ratings
