"""History schema version 5 (issue 36): a history written by the code before it (schema 4, one
kind of list, the era of a run not stored) opens unchanged and reads the same. The databases
were written by main's own code (tests/history/data/make_ratings_v4.py): a standard history
(no --rules: the default) and a rapid one (--rules rapid); ``ratings_v4_expected.json`` is
what that code read back from them (every list, each player's history and calculations, the
pool, a search, the overview). Read here through a migrated copy, every value is the same; what
version 5 adds (the kind of list, the era words) is checked on its own."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import shutil
import sqlite3
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.errors import FiderateError
from pipeline.history.schema import kind_of_command
from pipeline.history.store import SCHEMA_VERSION, connect, list_rows, pending_results
from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.jobs.player_history import (
    CalculationRequest,
    HistoryRequest,
    OverviewRequest,
    history_overview,
    run_calculation,
    run_history,
)
from pipeline.rules.counted_words import counted_heading, method_words
from pipeline.rules.select import rules_in_force
from pipeline.rules.sets import RULE_SETS
from pipeline.site.history_data import SiteData

DATA = Path(__file__).resolve().parent / "data"
EXPECTED = json.loads((DATA / "ratings_v4_expected.json").read_text())
HISTORIES = {"standard": DATA / "ratings_v4.db", "rapid": DATA / "ratings_v4_rapid.db"}
# Where make_ratings_v4.py had the databases when it read them back (its messages name them).
MADE_AT = {kind: f"/tmp/hk/v4/{kind}/ratings.db" for kind in HISTORIES}
# The keys version 5 adds to a read-out; everything else must read as the code before read it.
ADDED = {"rating_kind", "rules", "rules_assumed", "counted_heading", "method_words", "ratings"}
# Per game, since the history keeps the rating used and why each difference counted: a block
# stored before has neither, and nothing is reconstructed (blank).
ADDED_PER_GAME = {"gap": None, "counted": ""}


def as_before(value: object) -> object:
    """``value`` (JSON-ready) without the keys version 5 adds."""
    if isinstance(value, dict):
        return {k: as_before(v) for k, v in value.items() if k not in ADDED}
    if isinstance(value, list):
        return [as_before(v) for v in value]
    return value


def kinds_in(value: object) -> set[str]:
    """Every ``rating_kind`` in ``value``."""
    if isinstance(value, dict):
        own = {value["rating_kind"]} if "rating_kind" in value else set()
        return own.union(*(kinds_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(kinds_in(v) for v in value))
    return set()


def rows(frame: pd.DataFrame) -> list[list[object]]:
    frame = frame.sort_values("id").astype(object)
    return [[None if pd.isna(v) else v for v in r] for r in frame.itertuples(index=False)]


def _found_as_before(path: Path, kind: str, before: dict) -> None:
    """The search reads the schema-4 history as the code before read it: the players its
    search found (by its old rule, a part of the name) are each found by the search of today
    (the rating site's, the one rule: a word's beginning or the id's) by their id and by
    their surname, with the same name, federation and rating, on the list of the month it
    searched."""
    data = SiteData.open(path)
    try:
        assert data.kinds() == (kind,) and data.latest(kind).month == before["month"]
        for player in before["players"]:
            for query in (player["id"], player["name"].split(",")[0]):
                found, matched = data.find_players(query)
                row = found[found["id"] == player["id"]]
                assert len(row) == 1 and matched >= 1, query
                rating = row[f"rating_{kind}"].iloc[0]
                assert (row["name"].iloc[0], row["federation"].iloc[0]) == (
                    player["name"],
                    player["federation"],
                )
                assert (None if pd.isna(rating) else int(rating)) == player["rating"]
    finally:
        data.close()


def test_the_history_has_one_search_rule():
    """Finding a player is the rating site's search alone (pipeline/site/name_search.py, its
    rule in search.js step for step): the history's own search by a part of the name, a
    second rule no page called, is gone."""
    import importlib.util

    from pipeline.jobs import player_history

    assert not hasattr(player_history, "run_search")
    assert importlib.util.find_spec("pipeline.history.player_search") is None


@pytest.fixture(params=sorted(HISTORIES))
def history(request, tmp_path) -> tuple[str, Path]:
    """(the kind the history holds, a copy of it)."""
    copy = tmp_path / "ratings.db"
    shutil.copy(HISTORIES[request.param], copy)
    return request.param, copy


def test_the_fixtures_are_schema_4_as_main_wrote_them():
    for path in HISTORIES.values():
        raw = sqlite3.connect(path)
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 4
        columns = {r[1] for r in raw.execute("PRAGMA table_info(runs)")}
        assert "rating_kind" not in columns and "rules" not in columns
        raw.close()


def test_a_schema_4_history_reads_the_same_after_the_migration(history):
    kind, path = history
    expected = EXPECTED[kind]
    # Read-only first (fiderate history, serve): the file is left as it is.
    before = path.read_bytes()
    for pid, found in expected["histories"].items():
        got = run_history(HistoryRequest(pid, path))
        assert as_before(got.lists) == found["lists"]
        assert as_before(got.pending) == found["pending"]
        assert kinds_in(got.lists) | kinds_in(got.pending) <= {kind} and got.kinds == (kind,)
    for key, calc in expected["calculations"].items():
        pid, period = key.split()
        try:
            got = dataclasses.asdict(run_calculation(CalculationRequest(pid, period, path)))
        except FiderateError as exc:
            # The path main's code read (its own copy) is this copy's here.
            assert calc == {"error": str(exc).replace(str(path), MADE_AT[kind])}
            continue
        for game in got["games"]:
            assert {k: game.pop(k) for k in ADDED_PER_GAME} == ADDED_PER_GAME
        assert as_before(got) == calc
        # The era was not stored before version 5: the one in force, said to be assumed.
        era = rules_in_force(kind, period)
        assert (got["rating_kind"], got["rules"], got["rules_assumed"]) == (kind, era.name, True)
        assert got["counted_heading"] == counted_heading(era)
        assert got["method_words"] == method_words(era)
    _found_as_before(path, kind, expected["search"])
    overview = history_overview(OverviewRequest(path))
    assert as_before(overview.lists) == expected["overview"]["lists"]
    assert as_before(overview.pending) == expected["overview"]["pending"]
    assert kinds_in(overview.lists) | kinds_in(overview.pending) == {kind}
    assert path.read_bytes() == before
    # Then migrated in place (the next period run does it): the same lists and pool.
    con = connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    assert {r[0] for r in con.execute("SELECT rating_kind FROM runs")} == {kind}
    assert {r[0] for r in con.execute("SELECT rules FROM runs")} == {None}
    for table in ("lists", "events", "pending", "first_ratings"):
        assert {r[0] for r in con.execute(f"SELECT rating_kind FROM {table}")} == {kind}
    for list_id, listed in expected["lists"].items():
        assert rows(list_rows(con, int(list_id))) == listed
    pool = json.loads(pending_results(con, rating_kind=kind).to_json(orient="records"))
    assert pool == expected["pending"]
    con.close()


def test_a_migrated_rapid_history_goes_on_as_rapid(tmp_path):
    """The kind a schema 4 history holds is read from its runs' --rules: the rapid history's
    November is published for rapid (rated again only with --replace), its next month is found
    by the scheduled line (no --list, no --period: the rapid list it published), and a standard
    list starts beside it from its own list, in the same database."""
    db = tmp_path / "ratings.db"
    shutil.copy(HISTORIES["rapid"], db)
    rapid, standard = tmp_path / "rapid", tmp_path / "standard"
    rapid.mkdir()
    shutil.copy(DATA / "rating_list_2026-12_v4_rapid.csv", rapid / "rating_list_2026-12.csv")
    sample = Path(__file__).resolve().parents[2] / "sample_data" / "period"
    again = PeriodRequest(
        list_path=sample / "list_2026-11.csv", events=(), period="2026-11", out_dir=rapid,
        db_path=db, rules="rapid",
    )  # fmt: skip
    with pytest.raises(FiderateError, match="2026-11 was already published"):
        run_period(again)
    events = tmp_path / "events"
    events.mkdir()
    (events / "dec.csv").write_text(
        "event,round,date,white,black,result\nDec,1,2026-12-02,5100010,5100029,1-0\n"
    )
    scheduled = PeriodRequest(
        list_path=None, events=(events,), period=None, out_dir=rapid, db_path=db, rules="rapid",
        until="2026-12", today=dt.date(2027, 1, 2),
    )  # fmt: skip
    assert [m.period for m in run_period(scheduled).months] == ["2026-12"]
    first_standard = dataclasses.replace(
        again, out_dir=standard, rules="standard", period="2026-12"
    )
    run_period(first_standard)
    con = connect(db)
    runs = con.execute(
        "SELECT rating_kind, period, rules FROM runs WHERE outcome = 'published' ORDER BY id"
    ).fetchall()
    assert runs == [
        ("rapid", "2026-11", None),
        ("rapid", "2026-12", "rapid-2024"),
        ("standard", "2026-12", "standard-2025"),
    ]
    con.close()
    found = run_history(HistoryRequest("5100010", db))
    assert found.kinds == ("standard", "rapid")


@pytest.mark.parametrize(
    ("command", "kind"),
    [
        ("fiderate period --list l.csv --events e --period 2026-11 --out o", "standard"),
        ("fiderate period --rules rapid --out o", "rapid"),
        ("fiderate period --out o --rules=blitz-2012", "blitz"),
        ("fiderate period --rules standard-2009 --quiet", "standard"),
        ("fiderate period --rules bullet", None),
        ("fiderate period --rules", "standard"),
    ],
)
def test_the_kind_of_a_recorded_command_line(command, kind):
    assert kind_of_command(command) == kind


def test_the_latest_live_run_decides_when_the_command_lines_disagree(tmp_path):
    """A schema 4 history whose last live run was given --rules blitz (by mistake or not): the
    next run continues from that run's list, so the history is blitz's."""
    path = tmp_path / "ratings.db"
    shutil.copy(HISTORIES["standard"], path)
    raw = sqlite3.connect(path)
    with raw:
        raw.execute(
            "UPDATE runs SET command = command || ' --rules blitz' WHERE superseded_by IS NULL "
            "AND id = (SELECT MAX(id) FROM runs WHERE outcome = 'published')"
        )
    raw.close()
    con = connect(path)
    assert {r[0] for r in con.execute("SELECT rating_kind FROM lists")} == {"blitz"}
    con.close()


words = st.lists(st.sampled_from(["--out", "o", "--period", "2026-11", "--quiet", "e.csv"]))


@given(before=words, after=words, name=st.sampled_from(sorted(RULE_SETS)), equals=st.booleans())
def test_any_recorded_rules_name_gives_its_family(before, after, name, equals):
    rules = [f"--rules={name}"] if equals else ["--rules", name]
    command = " ".join(["fiderate", "period", *before, *rules, *after])
    assert kind_of_command(command) == RULE_SETS[name].family
