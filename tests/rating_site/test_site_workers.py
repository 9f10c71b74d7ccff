"""``fiderate site --jobs``: the list months made and written by worker processes
(:mod:`pipeline.site.month_workers`) give the same site as one process (every byte, the
manifest, the summary), after a full write and after a refresh; a worker's error is the usual
clear error with nothing half-written; a small write starts no worker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.bench_site import KINDS, _month, add_month, build
from pipeline.errors import RunError
from pipeline.site import month_workers
from pipeline.site.history_data import SiteData
from pipeline.site.job import SiteRequest, SiteResult, run_site
from tests.conftest import run_cli
from tests.rating_site.test_static_site import tree

PLAYERS, MONTHS = 40, 4  # 12 list months of three kinds


@pytest.fixture
def history(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A history of three kinds of lists and the last list of each (the next month's base)."""
    database = tmp_path / "ratings.db"
    return database, build(database, PLAYERS, MONTHS)


@pytest.fixture
def eager(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker for any list month to make: the test's history is far below the rows a worker
    is worth starting for (:data:`month_workers.ROWS_PER_WORKER`)."""
    monkeypatch.setattr(month_workers, "ROWS_PER_WORKER", 1)


def summary(done: SiteResult) -> tuple[list[str], int, list[str], int]:
    return done.written, done.unchanged, done.removed, done.bytes_written


def manifest_sizes(out: Path) -> dict[str, dict[str, int]]:
    return dict(json.loads((out / "site-manifest.json").read_text(encoding="utf-8")))


@pytest.mark.usefixtures("eager")
def test_workers_write_the_same_site_as_one_process_full_and_refresh(history, tmp_path):
    database, last = history
    alone, shared = tmp_path / "alone", tmp_path / "shared"
    one = run_site(SiteRequest(database, alone, jobs=1))
    three = run_site(SiteRequest(database, shared, jobs=3))
    assert one.workers == 0 and three.workers == 2  # the list months split between two
    assert tree(shared) == tree(alone)  # every file, the manifest among them
    assert summary(three) == summary(one)
    assert any(a.startswith("lists/") for a in three.written)
    # One more month of each kind: the refresh makes the new months (in a worker) and keeps
    # the old ones, as one process does.
    con = _connect(database)
    for kind in KINDS:
        add_month(con, kind, last[kind], _month("2025-01", MONTHS), seed=7)
    con.close()
    one = run_site(SiteRequest(database, alone, jobs=1))
    two = run_site(SiteRequest(database, shared, jobs=2))
    assert two.workers == 1
    assert tree(shared) == tree(alone)
    assert summary(two) == summary(one)
    assert one.unchanged > 0 and one.written
    new_month = _month("2025-01", MONTHS)
    assert f"lists/standard/{new_month}.html" in two.written
    assert f"lists/standard/{_month('2025-01', 1)}.html" not in two.written  # held
    assert manifest_sizes(shared) == manifest_sizes(alone)


def test_a_small_write_starts_no_worker(history, tmp_path):
    """The test's history holds a few hundred list rows: not worth a worker's start-up."""
    database, _ = history
    done = run_site(SiteRequest(database, tmp_path / "www", jobs=4))
    assert done.workers == 0


def all_months(database: Path) -> list[list[tuple[str, str]]]:
    """Every list month's group of the history and the search's, each as a month of its own,
    in the site's order."""
    data = SiteData.open(database)
    try:
        groups = month_workers.groups_by_key(data)
    finally:
        data.close()
    # (kind, key) of each group: a month's addresses are lists/KIND/..., the search's unknown
    # before it is made
    return [
        [(group.addresses[0].split("/")[1] if group.addresses else "search", key)]
        for key, group in groups.items()
    ]


def test_workers_alone_make_the_months_as_one_process_does(history, tmp_path):
    """Two workers take every month (the writing process takes none): each file they write
    is the one-process write's, and the sizes they report are its manifest's."""
    database, _ = history
    alone = tmp_path / "alone"
    run_site(SiteRequest(database, alone, jobs=1))
    months = all_months(database)
    workers = month_workers.MonthWorkers(
        database, tmp_path / "www", month_workers.Months(months), 2, 3
    )
    try:
        parts = workers.parts()
    finally:
        workers.stop()
    made = tree(tmp_path / "www")
    assert made and all(tree(alone)[a] == digest for a, digest in made.items())
    for folder in ("lists/", "search/"):  # the months' files and the search's, every one
        assert {a for a in made if a.startswith(folder)} == {
            a for a in tree(alone) if a.startswith(folder)
        }
    sizes = {key: s for part in parts for key, s in part.sizes.items()}
    assert sizes == {k: v for k, v in manifest_sizes(alone).items() if k in sizes}
    assert len(sizes) == len(months)
    assert sorted(a for part in parts for a in part.written) == sorted(made)


def test_an_error_in_a_worker_reaches_the_writing_process_as_it_was(history, tmp_path):
    database, _ = history
    out = tmp_path / "www"
    (out / "lists").mkdir(parents=True)
    (out / "lists" / "rapid").write_text("not a folder", encoding="utf-8")
    months = month_workers.Months(all_months(database))
    workers = month_workers.MonthWorkers(database, out, months, 1, 3)
    try:
        with pytest.raises(OSError) as raised:
            workers.parts()
    finally:
        workers.stop()
    failed = Path(raised.value.filename)  # the folder, or a file in it
    assert out / "lists" / "rapid" in (failed, *failed.parents)
    assert isinstance(raised.value.__cause__, month_workers.WorkerTraceback)
    assert "Traceback" in str(raised.value.__cause__)  # the worker's, for --debug


@pytest.mark.usefixtures("eager")
def test_an_error_while_writing_with_workers_is_a_clear_error_and_nothing_is_half_written(
    history, tmp_path
):
    database, _ = history
    good = tmp_path / "good"
    run_site(SiteRequest(database, good, jobs=1))
    blocked = tmp_path / "www"
    (blocked / "lists").mkdir(parents=True)
    # A file where the rapid lists' folder goes: a worker's or this process's month fails.
    (blocked / "lists" / "rapid").write_text("not a folder", encoding="utf-8")
    result = run_cli("site", "--db", database, "--out", blocked, "--jobs", "2")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "the site cannot be written to" in result.stderr
    assert str(Path("lists") / "rapid") in result.stderr
    # What was written is whole (each file the bytes of a good write); no manifest, so the
    # next write makes every group again.
    written = tree(blocked)
    assert "site-manifest.json" not in written
    assert written.pop("lists/rapid") != tree(good).get("lists/rapid")
    assert written and all(tree(good)[a] == digest for a, digest in written.items())
    # Unblocked, the next write completes the site.
    (blocked / "lists" / "rapid").unlink()
    again = run_cli("site", "--db", database, "--out", blocked, "--jobs", "2", "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["workers"] == 1
    assert tree(blocked) == tree(good)


@given(count=st.integers(0, 30), ends=st.lists(st.booleans(), max_size=40))
def test_each_month_is_taken_once_from_the_front_or_the_back(count, ends):
    """The workers take months from the front, the writing process from the back: every month
    is made by one process, each end in its order."""
    months = [[("standard", f"key-{n}")] for n in range(count)]
    shared = month_workers.Months(months)
    fronts: list[int] = []
    backs: list[int] = []
    for front in ends:
        month = shared.front() if front else shared.back()
        if month is not None:
            (fronts if front else backs).append(months.index(month))
    while (month := shared.front()) is not None:
        fronts.append(months.index(month))
    assert fronts == sorted(fronts) and backs == sorted(backs, reverse=True)
    assert sorted(fronts + backs) == list(range(count))
    assert shared.back() is None


def test_workers_are_started_per_rows_to_make_up_to_the_jobs_given():
    per = month_workers.ROWS_PER_WORKER
    assert month_workers.workers_for(per - 1, 4) == 0  # not worth a start-up
    assert month_workers.workers_for(per, 4) == 1
    assert month_workers.workers_for(10 * per, 4) == 3  # the writing process is the fourth
    assert month_workers.workers_for(10 * per, 1) == 0


def _connect(database: Path):  # type: ignore[no-untyped-def]
    from pipeline.history.store import connect

    return connect(database)


def test_a_worker_that_ends_without_a_word_is_a_clear_error(history, tmp_path):
    """A worker killed (out of memory, by a person) sends nothing: the writing process says so
    instead of waiting for it."""
    database, _ = history
    months = month_workers.Months(all_months(database))
    workers = month_workers.MonthWorkers(database, tmp_path / "www", months, 1, 3)
    try:
        workers.running[0][0].terminate()  # long before its interpreter has even started
        with pytest.raises(RunError, match="ended unexpectedly") as raised:
            workers.parts()
    finally:
        workers.stop()
    assert "--jobs 1" in str(raised.value)


def test_jobs_must_be_a_count_of_processes(two_months, tmp_path):
    result = run_cli("site", "--db", two_months, "--out", tmp_path / "www", "--jobs", "0")
    assert result.exit_code == 2 and "--jobs" in result.stderr
    assert not (tmp_path / "www").exists()
