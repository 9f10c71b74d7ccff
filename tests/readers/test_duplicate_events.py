"""The duplicate-event rule (readers/duplicate_events.py): the same games twice, by content."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pipeline.readers.duplicate_events as duplicate_events_module
from pipeline.arrays.multiset_digest import row_hashes
from pipeline.errors import Problem
from pipeline.jobs.rate.stages import check_inputs
from pipeline.model import GamesInput
from pipeline.readers.duplicate_events import duplicate_events
from tests.conftest import SAMPLE

HEAD = "event,round,date,white,black,result\n"
GAMES = [
    "Open,1,2026-11-01,1,2,1-0",
    "Open,1,2026-11-01,3,4,1/2-1/2",
    "Open,2,2026-11-02,2,3,0-1",
    "Open,2,2026-11-02,4,1,1-0",
]


def _write(path: Path, rows: list[str], newline: str = "\n") -> Path:
    path.write_bytes((HEAD + newline.join(rows) + newline).replace("\n", newline).encode())
    return path


def _duplicates(paths: list[Path], players: Path | None = None) -> list[Problem]:
    """The duplicate-event problems ``rate`` and ``validate`` stop on (the players of these
    small files are on no list: the unknown-player problems are left out)."""
    return [p for p in check_inputs(paths, players) if p.code == "duplicate-event"]


def _codes(paths: list[Path]) -> list[tuple[str, str | None]]:
    return [(p.code, p.file) for p in _duplicates(paths)]


def test_a_copy_reordered_renamed_and_crlf_is_the_same_event(tmp_path):
    a = _write(tmp_path / "a.csv", GAMES)
    b = _write(tmp_path / "renamed.csv", GAMES[::-1], newline="\r\n")
    problems = _duplicates([a, b])
    assert [(p.code, p.file) for p in problems] == [("duplicate-event", str(b))]
    assert str(a) in problems[0].message  # both files named


def test_the_same_path_twice_is_refused():
    games = SAMPLE / "games.csv"
    assert _codes([games, games]) == [("duplicate-event", str(games))]


def test_the_same_games_as_trf_and_as_csv_are_one_event():
    trf, csv = SAMPLE / "event.trf", SAMPLE / "games.csv"
    problems = check_inputs([trf, csv], SAMPLE / "players.csv")
    assert [(p.code, p.file) for p in problems] == [("duplicate-event", str(csv))]
    assert "event.trf" in problems[0].message


def test_different_events_sharing_a_game_are_not_duplicates(tmp_path):
    a = _write(tmp_path / "a.csv", GAMES)
    # The same players, another event: one result differs (round 2, 4-1 drawn).
    other = [*GAMES[:3], "Open,2,2026-11-02,4,1,1/2-1/2"]
    b = _write(tmp_path / "b.csv", other)
    # Colours swapped in one game: another game.
    swapped = [*GAMES[:3], "Open,2,2026-11-02,1,4,0-1"]
    c = _write(tmp_path / "c.csv", swapped)
    # Another round for the same pairings.
    later = [g.replace("Open,1,", "Open,3,") for g in GAMES]
    d = _write(tmp_path / "d.csv", later)
    # A subset: the first round again, alone (a shorter event, not the same one).
    e = _write(tmp_path / "e.csv", GAMES[:2])
    assert _codes([a, b, c, d, e]) == []


def test_the_same_one_game_match_on_another_day_is_another_event(tmp_path):
    a = _write(tmp_path / "a.csv", ["Match,1,2026-11-01,1,2,1-0"])
    b = _write(tmp_path / "b.csv", ["Match,1,2026-11-20,1,2,1-0"])
    assert _codes([a, b]) == []
    undated = _write(tmp_path / "c.csv", ["Match,1,,1,2,1-0"])
    assert _codes([a, undated]) == [("duplicate-event", str(undated))]


def test_an_event_inside_a_file_of_several_is_named(tmp_path):
    rows = GAMES + [g.replace("Open", "Rapid").replace(",1,2,", ",5,6,") for g in GAMES]
    both = _write(tmp_path / "both.csv", rows)
    alone = _write(tmp_path / "open.csv", [g.replace("Open", "Open 2026") for g in GAMES])
    problems = _duplicates([both, alone])
    assert [(p.code, p.file) for p in problems] == [("duplicate-event", str(alone))]
    assert "event 'Open'" in problems[0].message


def test_no_games_no_duplicate():
    assert duplicate_events([]) == []


def test_round_numbers_are_compared_as_numbers(tmp_path):
    a = _write(tmp_path / "a.csv", GAMES)
    b = _write(tmp_path / "b.csv", [g.replace("Open,1,", "Open,01,") for g in GAMES])
    assert _codes([a, b]) == [("duplicate-event", str(b))]


def test_a_renamed_trf_of_players_without_fide_ids_is_the_same_event(tmp_path):
    # No FIDE IDs: the players are named <file stem>#<starting rank>, another name per copy.
    lines = (SAMPLE / "event.trf").read_text(encoding="utf-8").splitlines()
    blanked = [ln[:57] + " " * 11 + ln[68:] if ln.startswith("001") else ln for ln in lines]
    first, copy = tmp_path / "open.trf", tmp_path / "open (copy).trf"
    for path in (first, copy):
        path.write_text("\n".join(blanked) + "\n", encoding="utf-8")
    problems = _duplicates([first, copy])
    assert [(p.code, p.file) for p in problems] == [("duplicate-event", str(copy))]


# The rule read literally, as it was written before events were fingerprinted (issue 34): each
# event against every event kept so far, cell by cell. The fast check must name the same events.


def _oracle_keys(games: pd.DataFrame, source: str) -> pd.DataFrame:
    prefix = f"{Path(source).stem}#"
    keys = pd.DataFrame(
        {
            "round": games["round"].astype(str).str.replace(r"^0+(?=\d)", "", regex=True),
            "white": games["white"].astype(str).str.removeprefix(prefix),
            "black": games["black"].astype(str).str.removeprefix(prefix),
            "result": games["result"].astype(str),
        }
    )
    if "date" in games.columns:
        keys["date"] = games["date"].astype("string")
    return keys


def _oracle_same(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    columns = ["round", "white", "black", "result"]
    if len(a) != len(b):
        return False
    a = a.sort_values(columns, kind="stable").reset_index(drop=True)
    b = b.sort_values(columns, kind="stable").reset_index(drop=True)
    if not a[columns].equals(b[columns]):
        return False
    dated = "date" in a.columns and "date" in b.columns
    if dated and a["date"].notna().all() and b["date"].notna().all():
        return bool((a["date"].to_numpy() == b["date"].to_numpy()).all())
    return True


def _oracle(inputs: list[GamesInput]) -> list[tuple]:
    kept: list[tuple[str, str, bool, pd.DataFrame]] = []
    found = []
    for item in inputs:
        names = pd.unique(item.games["event"])
        several = len(names) > 1
        for name in names:
            keys = _oracle_keys(item.games[item.games["event"] == name], item.source)
            first = next((k for k in kept if _oracle_same(keys, k[3])), None)
            if first is None:
                kept.append((item.source, name, several, keys))
                continue
            if first[0] == item.source and not several:
                what = "this file is given twice"
            else:
                where = f"{first[0]!r}, event {first[1]!r}" if first[2] else repr(first[0])
                what = f"these games are those of {where}"
            found.append((item.source, name if several else None, what))
    return found


def _found(inputs: list[GamesInput]) -> list[tuple]:
    problems = duplicate_events(inputs)
    assert all(p.code == "duplicate-event" for p in problems)
    assert all(p.fix == "give each event once: leave one of the two out" for p in problems)
    tail = " (same players, rounds, colours and results): the same event would be rated twice"
    assert all(p.message.endswith(tail) for p in problems)
    return [(p.file, p.value, p.message.removesuffix(tail)) for p in problems]


# A few base events among few players, then files of events drawn from them: copies renamed,
# reordered, in another file (players without a FIDE ID named after the file), rounds written
# "01", dates dropped or moved, one result or one game's colours changed.
PLAYERS = ["1", "2", "3", "4", "#1", "#2"]  # "#k": <file stem>#k, a player without a FIDE ID
RESULTS = ["1-0", "0-1", "1/2-1/2"]
game = st.tuples(
    st.integers(1, 3), st.sampled_from(PLAYERS), st.sampled_from(PLAYERS), st.sampled_from(RESULTS)
).filter(lambda g: g[1] != g[2])
base_event = st.tuples(
    st.lists(game, min_size=1, max_size=4, unique_by=lambda g: g[:3]),
    st.sampled_from(["2026-11-01", "2026-11-02"]),
)
change = st.sampled_from(["same", "same", "same", "reorder", "undated", "moved", "result", "swap"])
copy = st.tuples(st.integers(0, 2), change, st.booleans(), st.randoms(use_true_random=False))
a_file = st.lists(copy, min_size=1, max_size=4)


def _event_rows(games, date, how, zeros, rng, stem):  # noqa: ANN001
    rows = [list(g) for g in games]
    if how == "reorder":
        rng.shuffle(rows)
    if how == "result":
        rows[0][3] = RESULTS[(RESULTS.index(rows[0][3]) + 1) % 3]
    if how == "swap":
        rows[0][1], rows[0][2] = rows[0][2], rows[0][1]
    dates = {"undated": None, "moved": "2026-11-20"}.get(how, date)
    player = {p: f"{stem}{p}" if p.startswith("#") else p for p in PLAYERS}
    return [
        (f"0{r}" if zeros else str(r), dates, player[w], player[b], res) for r, w, b, res in rows
    ]


def _inputs(bases, files) -> list[GamesInput]:  # noqa: ANN001
    inputs = []
    for f, events in enumerate(files):
        source = f"/data/file {f % 2}.csv"  # two files share a name: one file given twice
        stem = Path(source).stem
        rows = []
        for e, (base, how, zeros, rng) in enumerate(events):
            games, date = bases[base % len(bases)]
            for r in _event_rows(games, date, how, zeros, rng, stem):
                rows.append((f"Event {e}", *r))  # a new name: renamed copies
        frame = pd.DataFrame(rows, columns=["event", "round", "date", "white", "black", "result"])
        inputs.append(
            GamesInput(
                source,
                frame.astype({"date": "string"}).astype(
                    {c: str for c in ["event", "round", "white", "black", "result"]}
                ),
            )
        )
    return inputs


PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(st.lists(base_event, min_size=1, max_size=3), st.lists(a_file, min_size=1, max_size=3))
def test_the_same_events_found_as_by_the_rule_read_literally(bases, files):
    inputs = _inputs(bases, files)
    assert _found(inputs) == _oracle(inputs)


@PROPERTY
@given(st.lists(base_event, min_size=1, max_size=3), st.lists(a_file, min_size=1, max_size=3))
def test_colliding_fingerprints_never_refuse_other_games(bases, files):
    """With the games' hashes cut to a few values, most events share a digest without holding
    the same games: the confirmation, not the hash, decides."""
    inputs = _inputs(bases, files)

    def weak(columns: list[tuple[np.ndarray, int]]) -> np.ndarray:
        return row_hashes(columns) % np.uint64(3)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(duplicate_events_module, "row_hashes", weak)
        assert _found(inputs) == _oracle(inputs)


def _frame(rows: list[tuple]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["event", "round", "date", "white", "black", "result"])
    return frame.astype({"date": "string"}).astype(
        {c: str for c in ["event", "round", "white", "black", "result"]}
    )


def _python_calls(item: GamesInput) -> tuple[int, int]:
    """(Python-level calls made by the check of ``item``, problems found), counted with
    ``sys.setprofile`` after a first run (imports and caches out of the count)."""
    duplicate_events([item])
    calls = 0

    def profile(frame, event, arg):  # noqa: ANN001 - sys.setprofile's signature
        nonlocal calls
        calls += event == "call"

    sys.setprofile(profile)
    try:
        problems = duplicate_events([item])
    finally:
        sys.setprofile(None)
    return calls, len(problems)


def test_the_check_does_no_python_work_per_event():
    """Ten times the events, the same Python-level work: the events are fingerprinted by array
    operations, not compared one by one (issue 34: 16,000 copies of one event took 294 s). A
    duplicate costs only its problem (``Problem``'s ``__init__`` and ``__post_init__``)."""

    def distinct(n: int) -> GamesInput:
        rows = [(f"E{e}", "1", "2026-11-01", str(2 * e), str(2 * e + 1), "1-0") for e in range(n)]
        return GamesInput("/d/distinct.csv", _frame(rows))

    def copies(n: int) -> GamesInput:
        games = [("1", 1), ("1", 3), ("2", 1)]
        rows = [(f"Copy {e}", r, "2026-11-01", str(w), str(w + 1), "1-0") for e in range(n)
                for r, w in games]  # fmt: skip
        return GamesInput("/d/copies.csv", _frame(rows))

    (few, none), (many, also_none) = _python_calls(distinct(40)), _python_calls(distinct(400))
    assert none == also_none == 0
    assert many <= few + 20, (few, many)
    (few, found_few), (many, found_many) = _python_calls(copies(40)), _python_calls(copies(400))
    assert (found_few, found_many) == (39, 399)
    assert many - few <= 2 * 360 + 20, (few, many)  # per problem: its dataclass's two calls
