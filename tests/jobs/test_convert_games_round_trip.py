"""``fiderate convert`` survives its own round trip, TRF -> games file -> TRF (issue 34, item 11):
a player the games file names with no rating is a known unrated player (not an unknown one), the
TRF written from a games file takes its names from ``white_name``/``black_name``, and players a
games file cannot hold (no game) are named in the output."""

from __future__ import annotations

import pandas as pd
import pytest
from helpers import write_csv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.engine.sides import unknown_players
from pipeline.jobs.convert import convert_event
from pipeline.model import EventInfo
from pipeline.readers import read_event_file
from pipeline.readers.events.trf_file import read_trf
from pipeline.writers.text.trf_writer import event_trf
from tests.conftest import SAMPLE, run_cli

REAL_TRFS = ["open-gros-2010-r4.trf", "karl-mala-2005.trf", "generated-60p-cr-only.trf"]
GAMES_HEADER = ["event", "round", "white", "black", "result", "white_name", "black_name"]
RATINGS = ["white_rating", "black_rating"]


def _fide_id(player_id: str) -> str:
    """The 001 ID field as read back: a FIDE ID, or blank (the reader then makes an id of the
    file's stem and the starting rank, which a round trip through another file changes)."""
    return player_id if player_id.isdigit() else ""


def event_of(path) -> tuple[dict[str, tuple], list[tuple]]:
    """(name -> (FIDE ID, rating) of every player with a game, the games by the players' names):
    what a TRF -> games file -> TRF round trip must keep. Names are unique in every event used."""
    event = read_trf(path)
    players = event.players.players
    assert not players["name"].duplicated().any()
    name = dict(zip(players["id"], players["name"], strict=True))
    games = event.games
    playing = set(games["white"]) | set(games["black"])
    people = {
        n: (_fide_id(i), None if pd.isna(r) else int(r))
        for i, n, r in zip(players["id"], players["name"], players["rating"], strict=True)
        if i in playing
    }
    rows = sorted(
        (int(r), name[w], name[b], res, bool(p))
        for r, w, b, res, p in zip(
            games["round"], games["white"], games["black"], games["result"], games["played"],
            strict=True,
        )
    )  # fmt: skip
    return people, rows


def no_game_players(path) -> list[str]:
    event = read_trf(path)
    players = event.players.players
    playing = set(event.games["white"]) | set(event.games["black"])
    return players.loc[~players["id"].isin(playing), "name"].tolist()


def round_trip(source, tmp_path, to="csv"):
    """``source`` -> games file -> TRF through the command line: (the games file, the TRF, the
    first conversion's output)."""
    games = tmp_path / f"back.{to}"
    there = run_cli("convert", source, "--to", to, "-o", games)
    assert there.exit_code == 0, there.output
    trf = tmp_path / "back.trf"
    back = run_cli("convert", games, "-o", trf)
    assert back.exit_code == 0, back.output
    return games, trf, there


# --- a player the games file names with no rating is a known unrated player -----------------


def _named_unrated(tmp_path):
    return write_csv(
        tmp_path / "club.csv",
        [*GAMES_HEADER, *RATINGS],
        [
            ["Club", "1", "1001", "1002", "1-0", "One, A", "Two, B", "1900", ""],
            ["Club", "2", "1002", "1001", "1/2-1/2", "Two, B", "One, A", "", "1900"],
        ],
    )


def test_a_named_player_without_a_rating_is_a_known_unrated_player(tmp_path):
    games = _named_unrated(tmp_path)
    assert unknown_players(read_event_file(games), None) == []
    out = tmp_path / "club.trf"
    done = run_cli("convert", games, "-o", out)
    assert done.exit_code == 0, done.output
    players = read_trf(out).players.players.set_index("name")
    assert players.loc["One, A", "rating"] == 1900
    assert pd.isna(players.loc["Two, B", "rating"])  # unrated: the 001 rating field blank
    rated = run_cli("rate", games, "--period", "2026-11", "--out", tmp_path / "rated", "-q")
    assert rated.exit_code == 0, rated.output


def test_a_player_with_neither_name_nor_rating_is_still_unknown(tmp_path):
    games = write_csv(
        tmp_path / "club.csv",
        [*GAMES_HEADER, *RATINGS],
        [
            ["Club", "1", "1001", "1002", "1-0", "One, A", "", "1900", ""],
            ["Club", "2", "1002", "1001", "1/2-1/2", "Two, B", "One, A", "", "1900"],
        ],
    )
    problems = unknown_players(read_event_file(games), None)
    assert [(p.row, p.column, p.value) for p in problems] == [(2, "black", "1002")]
    done = run_cli("convert", games, "-o", tmp_path / "club.trf")
    assert done.exit_code == 1 and "unknown-player" in done.stderr
    assert not (tmp_path / "club.trf").exists()


def test_a_trf_with_an_unrated_player_goes_to_csv_and_back(tmp_path):
    # Schmidt, Hanna is unrated in the sample TRF (rating 0): a blank rating in the games file.
    games, trf, _ = round_trip(SAMPLE / "event.trf", tmp_path)
    assert ',"Schmidt, Hanna",' in games.read_text(encoding="utf-8")
    assert event_of(trf) == event_of(SAMPLE / "event.trf")


# --- games file -> TRF: the names are the games file's -----------------------------------------


def test_csv_to_trf_writes_the_names_of_the_games_file(tmp_path):
    games = write_csv(
        tmp_path / "three.csv",
        [*GAMES_HEADER, *RATINGS],
        [
            ["Three", "1", "three#1", "three#2", "1-0", "Alpha, A", "Beta, B", "2000", "1900"],
            ["Three", "2", "three#3", "three#1", "0-1", "Gamma, C", "Alpha, A", "", "2000"],
        ],
    )
    out = tmp_path / "three.trf"
    done = run_cli("convert", games, "-o", out)
    assert done.exit_code == 0, done.output
    lines = [ln for ln in out.read_text(encoding="utf-8").splitlines() if ln.startswith("001")]
    assert sorted(ln[14:47].rstrip() for ln in lines) == ["Alpha, A", "Beta, B", "Gamma, C"]
    assert "three#" not in out.read_text(encoding="utf-8")


def test_the_players_list_names_come_first(tmp_path):
    games = _named_unrated(tmp_path)
    players = write_csv(tmp_path / "list.csv", ["id", "name", "rating"], [["1001", "Listed", 1950]])
    out = tmp_path / "club.trf"
    done = run_cli("convert", games, "--players", players, "-o", out)
    assert done.exit_code == 0, done.output
    names = set(read_trf(out).players.players["name"])
    assert names == {"Listed", "Two, B"}


# --- players a games file cannot hold are said ----------------------------------------------


def test_players_with_no_game_are_named_in_the_output(tmp_path):
    # Three players, one round: Carol has the half-point bye, so no row of a games file.
    people = pd.DataFrame(
        {
            "id": ["4100018", "4100026", "4100034"],
            "name": ["Ann", "Bob", "Carol"],
            "rating": pd.array([2000, None, 1800], dtype="Int64"),
            "birth_year": pd.array([None] * 3, dtype="Int64"),
            "federation": "",
            "title": "",
            "sex": "",
        }
    )
    games = pd.DataFrame(
        [("E", "1", "4100018", "4100026", "1-0", 100, 0, True)],
        columns=["event", "round", "white", "black", "result", "white_h", "black_h", "played"],
    )
    games["date"] = pd.Series(pd.NA, index=games.index, dtype="string")
    byes = pd.DataFrame(
        [("4100034", "E", "1", "H", 50, pd.NA)],
        columns=["player", "event", "round", "code", "score_h", "date"],
    )
    source = tmp_path / "e.trf"
    source.write_text(event_trf(games, byes, people, EventInfo(name="E")).text, encoding="utf-8")
    games_file, trf, there = round_trip(source, tmp_path)
    assert "wrote" in there.stdout and "2 players, 1 games" in there.stdout
    assert "Carol" in there.stderr and "no game" in there.stderr
    assert "Carol" not in games_file.read_text(encoding="utf-8")
    assert event_of(trf) == event_of(source)


# --- the real TRFs ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", REAL_TRFS)
def test_real_trf_to_games_file_and_back_keeps_the_event(shared_trf, tmp_path, name):
    source = shared_trf / name
    _, trf, there = round_trip(source, tmp_path)
    assert event_of(trf) == event_of(source)
    for left_out in no_game_players(source):  # open-gros: one player with byes only
        assert left_out in there.stderr


def test_real_trf_round_trip_through_xlsx(shared_trf, tmp_path):
    source = shared_trf / "open-gros-2010-r4.trf"
    _, trf, _ = round_trip(source, tmp_path, to="xlsx")
    assert event_of(trf) == event_of(source)


# --- generated events ---------------------------------------------------------------------------


@st.composite
def events(draw):
    """A small Swiss-like event: players with FIDE IDs or none (then the TRF reader names them
    after the file), about a third unrated, random pairings and results, a bye when odd."""
    n = draw(st.integers(2, 9))
    rounds = draw(st.integers(1, 4))
    with_id = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    ids = [str(4_000_000 + 7 * i) if with_id[i] else f"x{i}" for i in range(n)]
    ratings = draw(st.lists(st.one_of(st.none(), st.integers(1001, 2800)), min_size=n, max_size=n))
    games, byes = [], []
    for r in range(1, rounds + 1):
        order = draw(st.permutations(range(n)))
        for a, b in zip(order[0::2], order[1::2], strict=False):
            result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"]))
            wh = {"1-0": 100, "+-": 100, "1/2-1/2": 50}.get(result, 0)
            bh = {"0-1": 100, "-+": 100, "1/2-1/2": 50}.get(result, 0)
            played = result in ("1-0", "0-1", "1/2-1/2")
            games.append(("E", str(r), ids[a], ids[b], result, wh, bh, played))
        if n % 2:
            byes.append((ids[order[-1]], "E", str(r), "H", 50, pd.NA))
    return ids, ratings, games, byes


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(events())
def test_generated_events_survive_the_round_trip(tmp_path, event):
    ids, ratings, game_rows, bye_rows = event
    games = pd.DataFrame(
        game_rows,
        columns=["event", "round", "white", "black", "result", "white_h", "black_h", "played"],
    )
    games["date"] = pd.Series(pd.NA, index=games.index, dtype="string")
    byes = pd.DataFrame(bye_rows, columns=["player", "event", "round", "code", "score_h", "date"])
    people = pd.DataFrame(
        {
            "id": ids,
            "name": [f"Player {i}" for i in range(len(ids))],
            "rating": pd.array(ratings, dtype="Int64"),
            "birth_year": pd.array([None] * len(ids), dtype="Int64"),
            "federation": "",
            "title": "",
            "sex": "",
        }
    )
    source = tmp_path / "gen.trf"
    source.write_text(event_trf(games, byes, people, EventInfo(name="E")).text, encoding="utf-8")
    csv, trf = tmp_path / "gen.csv", tmp_path / "gen-back.trf"
    there = convert_event(source, csv, to="csv")
    convert_event(csv, trf)
    assert event_of(trf) == event_of(source)
    left_out = no_game_players(source)
    assert all(any(name in note for note in there.notes) for name in left_out)
