"""The Dask engine gives the pandas engine's rating list byte for byte (real worker processes).

One ``distributed.LocalCluster`` of 2 worker processes serves the whole module. The data is a
seeded synthetic period split into parts: unrated players, forfeits, rating overrides, players
missing from the list (rated from their rows, whose last row is in a later part), ids that are
not numbers, K 40 juniors and busy players cut by the 700 rule, and changes of exactly x.50
(the .5-away-from-zero cases). The test checks that those cases are really in the data.
"""

from __future__ import annotations

import csv

import pandas as pd
import pytest

from benchmarks.synthetic import synthetic_games, synthetic_players, write_text_csv
from pipeline.errors import InputError
from pipeline.jobs.rate.outputs import write_outputs
from pipeline.jobs.rate.stages import rate_files
from pipeline.model import RateOptions, ReadOptions
from tests.conftest import run_cli

distributed = pytest.importorskip("distributed")
from pipeline.jobs import rate as rate_job  # noqa: E402
from pipeline.jobs.rate.dask_executor import DaskExecutor  # noqa: E402

PARTS = 4


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def _period(folder, fmt):
    """Players list and games in PARTS parts; two players are on no list, rated from rows."""
    folder.mkdir(parents=True, exist_ok=True)
    players = synthetic_players(300, seed=11, mixed_ids=True)
    games = synthetic_games(4000, 300, seed=11, mixed_ids=True)
    # Player X is missing from the list: white in part 0 (rated 1700 there) and part 3 (1900):
    # the rating list must show the rating of the last row, 1900, with both engines.
    for row, rating in ((5, "1700"), (len(games) - 5, "1900")):
        games.loc[row, ["white", "white_rating"]] = ["X-1", rating]
    players.to_parquet(folder / "players.parquet") if fmt == "parquet" else write_text_csv(
        players, folder / "players.csv"
    )
    (folder / "games").mkdir()
    size = len(games) // PARTS
    for i in range(PARTS):
        part = games.iloc[i * size : (i + 1) * size]
        path = folder / "games" / f"part-{i:04d}.{fmt}"
        part.to_parquet(path, index=False) if fmt == "parquet" else write_text_csv(part, path)
    return folder / "games", folder / f"players.{fmt}"


def _on_dask(paths, players, options, out, client, reading=None):
    """The rate job on Dask, through its one entry point, with the test's cluster."""
    request = rate_job.RateRequest(
        tuple(paths),
        out,
        players=players,
        options=options,
        engine="dask",
        **({"reading": reading} if reading is not None else {}),
    )
    return rate_job.rate(request, executor=DaskExecutor(client=client))


def _pandas_list(games, players, options, out):
    write_outputs(rate_files([games], players, options), out, xlsx=False, html=False)
    return (out / "rating_list.csv").read_bytes()


@pytest.mark.parametrize(
    ("fmt", "options"),
    [
        ("parquet", RateOptions(period="2026-11")),
        ("parquet", RateOptions(period="2026-11", rules="rapid", method="formula")),
    ],
    ids=["standard", "rapid-formula"],
)
def test_dask_rating_list_is_byte_identical(client, tmp_path, fmt, options):
    games, players = _period(tmp_path / "in", fmt)
    expected = _pandas_list(games, players, options, tmp_path / "pandas")
    run = _on_dask([games], players, options, tmp_path / "dask", client).dask
    assert (tmp_path / "dask" / "rating_list.csv").read_bytes() == expected
    assert run is not None and run.parts == PARTS and run.sides == 2 * 4000

    text = (tmp_path / "dask" / "rating_list.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(text.splitlines()))
    by_id = {r["id"]: r for r in rows}
    assert by_id["X-1"]["rating"] == "1900"
    if options.method == "fide":
        # The cases the comparison is meant to cover are in the data.
        assert any(r["rating"] == "" for r in rows)
        assert any("700 rule" in r["k_rule"] for r in rows)
        assert any(r["change_exact"].endswith(".50") for r in rows)


def test_dask_through_the_cli_on_an_existing_scheduler(client, tmp_path):
    games, players = _period(tmp_path / "in", "csv")
    expected = _pandas_list(games, players, RateOptions(period="2026-11"), tmp_path / "pandas")
    out = tmp_path / "out"
    result = run_cli(
        "rate",
        str(games / "part-*.csv"),
        "--players",
        str(players),
        "--period",
        "2026-11",
        "--out",
        str(out),
        "--engine",
        "dask",
        "--scheduler",
        client.scheduler.address,
    )
    assert result.exit_code == 0, result.output
    assert (out / "rating_list.csv").read_bytes() == expected
    parts = sorted((out / "games").iterdir())
    assert [p.name for p in parts] == [f"part-{i:05d}.csv" for i in range(PARTS)]
    sides = pd.concat([pd.read_csv(p, dtype=str, keep_default_na=False) for p in parts])
    pandas_games = pd.read_csv(tmp_path / "pandas" / "games.csv", dtype=str, keep_default_na=False)
    # Same rows (each part is grouped by player within itself, so compare as sets of rows).
    assert sorted(map(tuple, sides.to_numpy())) == sorted(map(tuple, pandas_games.to_numpy()))


def test_bad_part_reports_its_problems_through_the_workers(client, tmp_path):
    games, players = _period(tmp_path / "in", "csv")
    bad = games / "part-0002.csv"
    text = bad.read_text().splitlines()
    fields = text[3].split(",")
    fields[5] = "2-0"  # the result column
    text[3] = ",".join(fields)
    bad.write_text("\n".join(text) + "\n")
    with pytest.raises(InputError) as caught:
        _on_dask([games], players, RateOptions(period="2026-11"), tmp_path / "o", client)
    [problem] = caught.value.problems
    assert (problem.code, problem.file, problem.row, problem.value) == (
        "bad-result",
        str(bad),
        4,
        "2-0",
    )


REFUSED = [
    (["--mode", "sequential"], "--mode sequential"),
    (["--input-format", "trf"], "--input-format trf"),
    (["--column", "Rtg=rating"], "--column"),
    (["--player", "1"], "--player"),
    (["--html"], "--html"),
    (["--xlsx"], "--xlsx"),
    (["--json"], "--json"),
]


@pytest.mark.parametrize(("extra", "named"), REFUSED, ids=[r[1] for r in REFUSED])
def test_an_option_dask_cannot_honour_is_refused(tmp_path, extra, named):
    # Refused before any file is read or any cluster started: the inputs need not exist.
    out = tmp_path / "out"
    result = run_cli("rate", tmp_path / "g.csv", "--out", out, "--engine", "dask", *extra)
    assert result.exit_code == 2, result.output
    assert f"--engine dask cannot honour these options:\n  {named}" in result.stderr
    assert "--engine pandas" in result.stderr
    assert not out.exists()


def test_every_refused_option_is_listed_at_once(tmp_path):
    refused = [arg for extra, _ in REFUSED for arg in extra]
    result = run_cli(
        "rate", tmp_path / "g.csv", "--out", tmp_path / "o", "--engine", "dask", *refused
    )
    assert result.exit_code == 2
    listed = [line for line in result.stderr.splitlines() if line.startswith("  --")]
    assert [line.split(":")[0].strip() for line in listed] == [
        "--mode sequential",
        "--input-format trf",
        "--column",
        "--player",
        "--html",
        "--xlsx",
        "--json",
    ]


def test_sequential_mode_is_refused_by_the_library_too(tmp_path):
    from pipeline.errors import UsageError

    with pytest.raises(UsageError, match="--mode sequential"):
        _on_dask([tmp_path / "g.csv"], None, RateOptions(mode="sequential"), tmp_path / "o", None)


def test_the_options_dask_honours_are_not_refused(client, tmp_path):
    """--no-html/--no-xlsx ask for what the Dask run does anyway; --input-format games is how it
    reads; the players list is read with the rule set (as on the pandas path)."""
    games, players = _period(tmp_path / "in", "csv")
    options = RateOptions(period="2026-11", rules="rapid")
    expected = _pandas_list(games, players, options, tmp_path / "pandas")
    reading = ReadOptions(input_format="games")
    _on_dask([games], players, options, tmp_path / "dask", client, reading)
    assert (tmp_path / "dask" / "rating_list.csv").read_bytes() == expected


def test_a_fide_list_is_read_with_the_rule_set_on_both_engines(client, tmp_path):
    """The Dask engine reads the players list with the rule set: with --rules rapid a FIDE list
    gives the rapid ratings (the standard ones would give another list)."""
    import numpy as np

    from benchmarks.fide_list_data import write_txt

    write_txt(tmp_path / "players.txt", 120, seed=3)
    rng = np.random.default_rng(3)
    ids = 100_000 + rng.permutation(120)
    folder = tmp_path / "games"
    folder.mkdir()
    for part in range(2):
        pairs = rng.permutation(ids).reshape(-1, 2)
        results = rng.choice(["1-0", "0-1", "1/2-1/2"], len(pairs))
        rows = [
            "white,black,result",
            *(f"{w},{b},{r}" for (w, b), r in zip(pairs, results, strict=True)),
        ]
        (folder / f"part-{part}.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    lists = {}
    for rules in ("standard", "rapid"):
        options = RateOptions(period="2026-11", rules=rules)
        expected = _pandas_list(folder, tmp_path / "players.txt", options, tmp_path / rules)
        _on_dask([folder], tmp_path / "players.txt", options, tmp_path / f"dask-{rules}", client)
        assert (tmp_path / f"dask-{rules}" / "rating_list.csv").read_bytes() == expected
        lists[rules] = expected
    assert lists["standard"] != lists["rapid"]


def test_an_event_file_with_its_own_players_is_refused_not_half_read(client, tmp_path):
    """A TRF brings its players and byes; one partition cannot add them to the list in force,
    so the Dask engine stops with a clear message instead of dropping them."""
    from pathlib import Path

    from pipeline.errors import RunError

    trf = Path(__file__).resolve().parents[2] / "sample_data" / "event.trf"
    with pytest.raises(RunError, match="rates games files only .* --engine pandas"):
        _on_dask([trf], None, RateOptions(period="2026-11"), tmp_path / "o", client)


def test_the_same_part_twice_is_refused_before_any_work(tmp_path):
    """The workers read the parts, so the client compares their bytes: a part given twice, or
    copied under another name, is a duplicate event (issue 26), refused with both names."""
    games, players = _period(tmp_path / "in", "csv")
    copy = tmp_path / "in" / "copy-of-part-0.csv"
    copy.write_bytes((games / "part-0000.csv").read_bytes())
    out = tmp_path / "out"
    args = ["--players", players, "--period", "2026-11", "--out", out, "--engine", "dask"]
    result = run_cli("rate", games / "part-0000.csv", copy, *args)
    assert result.exit_code == 1, result.output
    assert "[duplicate-event]" in result.stderr and str(copy) in result.stderr
    assert f"copy of {str(games / 'part-0000.csv')!r}" in result.stderr
    twice = run_cli("rate", games / "part-0001.csv", games / "part-0001.csv", *args)
    assert twice.exit_code == 1 and "this file is given twice" in twice.stderr
    assert not out.exists()
