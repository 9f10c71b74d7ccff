"""``fiderate period`` and ``fiderate history`` end to end on sample_data/period (CliRunner)."""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from pipeline.history.store import list_rows
from pipeline.readers import read_players
from pipeline.readers.lists.published_list import read_list
from tests.conftest import run_cli

PERIOD_SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "period"


@pytest.fixture
def sample(tmp_path) -> Path:
    copy = tmp_path / "in"
    shutil.copytree(PERIOD_SAMPLE, copy)
    return copy


def period_args(sample: Path, out: Path, *extra: str) -> list[str]:
    return [
        "period",
        "--list",
        str(sample / "list_2026-11.csv"),
        "--events",
        str(sample / "events"),
        "--period",
        "2026-11",
        "--out",
        str(out),
        *extra,
    ]


def hashes(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)}


def test_sample_run_writes_everything_and_leaves_inputs_alone(sample, tmp_path):
    before = hashes(sample)
    out = tmp_path / "out"
    result = run_cli(*period_args(sample, out))
    assert result.exit_code == 0, result.stderr
    assert hashes(sample) == before
    assert sorted(p.name for p in out.iterdir()) == [
        "breakdown_2026-11.csv",
        "changes_2026-11.csv",
        "first_ratings_2026-11.csv",
        "games_2026-11.csv",
        "rating_list_2026-12.csv",
        "rating_list_2026-12.txt",
        "rating_list_2026-12.xlsx",
        "ratings.db",
        "report_2026-11.xlsx",
    ]
    new = rows(out / "rating_list_2026-12.csv")
    # Jansen 1408 loses all 8 games (K 20): 1387 is below the floor -> unrated on the next list.
    assert new["5100100"]["rating"] == "" and new["5100100"]["period_games"] == "8"
    # Becker 2391 scores 5/5: crosses 2400, so K 10 from now on.
    assert int(new["5100029"]["rating"]) >= 2400 and new["5100029"]["k"] == "10"
    assert new["5100029"]["ever_2400"] == "true"
    # The newcomer (not on the list) has 4 games against rated players: not enough yet.
    assert new["5100134"]["rating"] == ""
    changes = rows(out / "changes_2026-11.csv")
    assert changes["5100100"]["status"].startswith("below 1400")
    assert changes["5100118"]["status"] == "first rating"


def test_list_reads_back_as_the_next_list(sample, tmp_path):
    out = tmp_path / "out"
    assert run_cli(*period_args(sample, out)).exit_code == 0
    written = rows(out / "rating_list_2026-12.csv")
    for path in (out / "rating_list_2026-12.csv", out / "rating_list_2026-12.xlsx"):
        again = read_list(path).players.set_index("id")
        core = read_players(path).players.set_index("id")
        for pid, row in written.items():
            for frame in (again, core):
                rating = frame.loc[pid, "rating"]
                assert ("" if rating is None or rating is pd_na() else str(rating)) == row["rating"]
                k = frame.loc[pid, "k"]
                assert ("" if k is pd_na() else str(k)) == row["k"]
        assert again.loc["5100029", "last_played"] == "2026-11"


def pd_na():
    import pandas as pd

    return pd.NA


def test_fide_txt_columns_at_the_documented_offsets(sample, tmp_path):
    out = tmp_path / "out"
    assert run_cli(*period_args(sample, out)).exit_code == 0
    data = (out / "rating_list_2026-12.txt").read_bytes()
    lines = data.split(b"\r\n")
    assert lines[-1] == b""
    lines = [line.decode("utf-8") for line in lines[:-1]]
    assert all(len(line) == 136 for line in lines)
    header = lines[0]
    for token, start in [
        ("ID Number", 0),
        ("Name", 15),
        ("Fed", 76),
        ("Sex", 80),
        ("Tit", 84),
        ("WTit", 89),
        ("OTit", 94),
        ("FOA", 109),
        ("DEC26", 113),
        ("Gms", 119),
        ("K", 123),
        ("B-day", 126),
        ("Flag", 132),
    ]:
        assert header[start : start + len(token)] == token
    written = rows(out / "rating_list_2026-12.csv")
    by_id = {line[0:15].strip(): line for line in lines[1:]}
    assert set(by_id) == set(written)
    for pid, row in written.items():
        line = by_id[pid]
        assert line[15:76].strip() == row["name"]
        assert line[76:80].strip() == row["federation"]
        assert line[113:119].strip() == (row["rating"] or "0")
        assert line[119:123].strip() == row["period_games"]
        assert line[123:126].strip() == (row["k"] or "0")
        assert line[126:132].strip() == (row["birth_year"] or "0")
        assert line[132:136].strip() == row["flags"]
    costa = by_id["5100037"]
    assert (
        costa[80:84].strip() == "F" and costa[89:94].strip() == "WFM" and costa[84:89].strip() == ""
    )


def test_same_event_twice_is_refused_and_named(sample, tmp_path):
    out = tmp_path / "out"
    assert run_cli(*period_args(sample, out)).exit_code == 0
    before = hashes(out)
    result = run_cli(
        "period",
        "--list",
        str(out / "rating_list_2026-12.csv"),
        "--events",
        str(sample / "events" / "weekend_open.csv"),
        "--period",
        "2026-12",
        "--out",
        str(out),
    )
    assert result.exit_code == 1
    assert "[already-rated]" in result.stderr and "weekend_open.csv" in result.stderr
    assert "already rated in period 2026-11" in result.stderr
    assert "Traceback" not in result.stderr
    after = hashes(out)
    assert {k: v for k, v in after.items() if k != "ratings.db"} == {
        k: v for k, v in before.items() if k != "ratings.db"
    }
    con = sqlite3.connect(out / "ratings.db")
    outcomes = [r[0] for r in con.execute("SELECT outcome FROM runs ORDER BY id")]
    assert outcomes == ["published", "refused"]  # the refusal is in the audit log
    assert con.execute("SELECT COUNT(*) FROM lists WHERE kind = 'published'").fetchone()[0] == 1


def test_nothing_to_do_says_one_file_in_the_singular(sample, tmp_path):
    # Issue 35 item 5: "from these 1 files" read as a mistake; one file is "this file".
    out = tmp_path / "out"
    args = period_args(sample, out)
    args[args.index("--events") + 1] = str(sample / "events" / "weekend_open.csv")
    assert run_cli(*args).exit_code == 0
    again = run_cli(*args)
    assert again.exit_code == 0, again.stderr
    assert again.stdout == "2026-11 already published from this file; nothing to do\n"


def test_same_period_twice_needs_replace_and_keeps_the_old_list(sample, tmp_path):
    out = tmp_path / "out"
    assert run_cli(*period_args(sample, out)).exit_code == 0
    # The same command again (the same files): nothing to do (issue 29), nothing changes.
    again = run_cli(*period_args(sample, out))
    assert again.exit_code == 0, again.stderr
    assert again.stdout == "2026-11 already published from these 2 files; nothing to do\n"
    # A corrected event: refused without --replace; with it, rated again from scratch.
    open_file = sample / "events" / "weekend_open.csv"
    open_file.write_text(
        open_file.read_text().replace("5100100,5100061,0-1", "5100100,5100061,1-0")
    )
    refused = run_cli(*period_args(sample, out))
    assert refused.exit_code == 1
    assert "[period-published]" in refused.stderr and "--replace" in refused.stderr
    replaced = run_cli(*period_args(sample, out, "--replace"))
    assert replaced.exit_code == 0, replaced.stderr
    con = sqlite3.connect(out / "ratings.db")
    lists = con.execute(
        "SELECT superseded FROM lists WHERE kind = 'published' AND effective = '2026-12' "
        "ORDER BY id"
    ).fetchall()
    assert lists == [(1,), (0,)]
    live = con.execute("SELECT COUNT(*) FROM events WHERE superseded = 0").fetchone()[0]
    assert live == 2
    runs = con.execute("SELECT id, outcome, superseded_by FROM runs ORDER BY id").fetchall()
    assert [r[1] for r in runs] == ["published", "nothing-to-do", "refused", "published"]
    assert runs[0][2] == runs[3][0]
    # Jansen (1408, K 20) won the corrected game against Fischer (1755: D -347, PD 0.12): the
    # period total moves from -20.60 by +20.00 to -0.60 -> -1 -> 1407, published this time.
    published = con.execute("SELECT id FROM lists WHERE kind = 'published' ORDER BY id")
    old_rating = [
        list_rows(con, list_id).set_index("id")["rating"].astype(object).get("5100100")
        for (list_id,) in published.fetchall()
    ]
    assert old_rating == [pd.NA, 1407]


def failed_run_with_a_broken_event(sample: Path, out: Path):
    """A run with an event file whose one game has the result 2-0: it fails (exit 1)."""
    (sample / "events" / "broken.csv").write_text(
        "event,round,date,white,black,result\nBroken,1,2026-11-02,5100010,5100029,2-0\n"
    )
    result = run_cli(*period_args(sample, out))
    assert result.exit_code == 1
    return result


def test_bad_event_stops_before_writing_and_names_it(sample, tmp_path):
    out = tmp_path / "out"
    result = failed_run_with_a_broken_event(sample, out)
    assert "broken.csv" in result.stderr and "[bad-result]" in result.stderr
    assert not out.exists() or list(out.iterdir()) == []
    # Players are checked against the list in force later (a player it lacks is a new one):
    # the bad result is the one problem, not a cascade of "unknown player" for every row.
    assert "1 problem(s) found" in result.stderr
    assert "[unknown-player]" not in result.stderr


def test_event_from_an_unrecorded_month_is_refused(sample, tmp_path):
    late = sample / "events" / "late.csv"
    late.write_text(
        "event,round,date,white,black,result\nOctober Open,1,2026-10-30,5100010,5100029,1-0\n"
    )
    result = run_cli(*period_args(sample, tmp_path / "out"))
    assert result.exit_code == 1
    assert "[no-list-in-force]" in result.stderr and "late.csv" in result.stderr


def test_event_ratings_used_only_when_trusted(sample, tmp_path):
    events = tmp_path / "ev"
    events.mkdir()
    (events / "rated.csv").write_text(
        "event,round,date,white,black,result,white_rating,black_rating\n"
        "Trust Cup,1,2026-11-03,5100045,5100061,1-0,2000,1500\n"
    )
    for flag, white, black in (((), "1987", "1755"), (("--trust-event-ratings",), "2000", "1500")):
        out = tmp_path / f"out{len(flag)}"
        result = run_cli(
            "period",
            "--list",
            str(sample / "list_2026-11.csv"),
            "--events",
            str(events),
            "--period",
            "2026-11",
            "--out",
            str(out),
            *flag,
        )
        assert result.exit_code == 0, result.stderr
        with (out / "games_2026-11.csv").open(encoding="utf-8") as fh:
            sides = {r["player"]: r for r in csv.DictReader(fh)}
        assert sides["5100045"]["player_rating"] == white
        assert sides["5100061"]["player_rating"] == black


def test_history_prints_the_ratings_over_the_periods(sample, tmp_path):
    out = tmp_path / "out"
    assert run_cli(*period_args(sample, out)).exit_code == 0
    text = run_cli("history", "5100029", "--db", str(out / "ratings.db"))
    assert text.exit_code == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0] == "5100029  Becker, Jonas"
    new = rows(out / "rating_list_2026-12.csv")["5100029"]["rating"]
    assert lines[2].split()[:2] == ["2026-11", "2391"]  # the list given, in force in November
    # The period's games, score and change with the K that rated them, then the next list's K
    # (issue 35: the next K alone beside the games gave the wrong sum).
    with (out / "changes_2026-11.csv").open(encoding="utf-8") as fh:
        change = {r["id"]: r for r in csv.DictReader(fh)}["5100029"]
    assert lines[3].split()[:8] == [
        "2026-12", "2026-11", new, change["games"], change["score"],
        f"{int(change['change']):+d}", change["k"], change["next_k"],
    ]  # fmt: skip
    data = json.loads(
        run_cli("history", "5100029", "--db", str(out / "ratings.db"), "--json").stdout
    )
    assert [(r["list"], r["rating"]) for r in data["lists"]] == [
        ("2026-11", 2391),
        ("2026-12", int(new)),
    ]
    missing = run_cli("history", "999", "--db", str(out / "ratings.db"))
    assert missing.exit_code == 1 and "999" in missing.stderr


def test_a_list_other_than_the_published_one_is_noted(sample, tmp_path):
    out = tmp_path / "out"
    assert run_cli(*period_args(sample, out)).exit_code == 0
    december = tmp_path / "dec.csv"
    december.write_text(
        "event,round,date,white,black,result\nDecember Cup,1,2026-12-04,5100010,5100029,1-0\n"
    )
    list_path = sample / "list_2026-11.csv"
    result = run_cli(
        "period", "--list", list_path, "--events", december, "--period", "2026-12", "--out", out
    )
    assert result.exit_code == 0, result.stderr
    assert "not the 2026-12 list this database published" in result.stderr


def test_one_rounding_for_the_whole_period_across_events(tmp_path):
    """EXAMPLES.md: five changes of +0.4 in one period total +2.0 -> +2; rounding per event
    (or per game) would give 0. Here each +0.4 is its own event file: K 10 (published), a draw
    against a player rated 30 higher (band 26-32: PD 0.46): 10 x (0.5 - 0.46) = +0.4."""
    players = tmp_path / "list.csv"
    players.write_text(
        "id,name,rating,k,birth_year,games,ever_2400,federation,title,sex\n"
        "1,A,2000,10,1980,500,false,,,m\n"
        + "".join(f"{10 + i},B{i},2030,10,1980,500,false,,,m\n" for i in range(5))
    )
    events = tmp_path / "events"
    events.mkdir()
    for i in range(5):
        (events / f"e{i}.csv").write_text(
            "event,round,date,white,black,result\n"
            f"Event {i},1,2026-11-0{i + 1},1,{10 + i},1/2-1/2\n"
        )
    out = tmp_path / "out"
    result = run_cli(
        "period", "--list", players, "--events", events, "--period", "2026-11", "--out", out
    )
    assert result.exit_code == 0, result.stderr
    assert rows(out / "rating_list_2026-12.csv")["1"]["rating"] == "2002"
    with (out / "breakdown_2026-11.csv").open(encoding="utf-8") as fh:
        breakdown = [r for r in csv.DictReader(fh) if r["player"] == "1"]
    assert [r["k_x_sum_dev"] for r in breakdown] == ["0.40"] * 5 + ["2.00"]
    assert breakdown[-1]["change"] == "2"


def test_fide_txt_reads_back_with_the_list_reader(sample, tmp_path):
    out = tmp_path / "out"
    assert run_cli(*period_args(sample, out)).exit_code == 0
    written = rows(out / "rating_list_2026-12.csv")
    txt = read_players(out / "rating_list_2026-12.txt").players.set_index("id")
    assert set(txt.index) == set(written)
    for pid, row in written.items():
        rating = txt.loc[pid, "rating"]
        assert ("" if rating is pd_na() else str(rating)) == row["rating"], pid
        if row["k"]:
            assert str(txt.loc[pid, "k"]) == row["k"], pid


def test_a_bad_list_and_a_bad_event_are_reported_together_the_list_first(sample, tmp_path):
    # The list and the events are read on two threads: every problem of both still comes back
    # at once, in the order of a run that read them one after the other.
    listed = sample / "list_2026-11.csv"
    text = listed.read_text(encoding="utf-8")
    assert '"Almeida, Rui",2418,' in text
    listed.write_text(
        text.replace('"Almeida, Rui",2418,', '"Almeida, Rui",high,'), encoding="utf-8"
    )
    out = tmp_path / "out"
    result = failed_run_with_a_broken_event(sample, out)
    assert "'high'" in result.stderr and "[bad-result]" in result.stderr
    assert result.stderr.index("list_2026-11.csv") < result.stderr.index("broken.csv")
    assert "2 problem(s) found" in result.stderr
    assert not out.exists() or list(out.iterdir()) == []
