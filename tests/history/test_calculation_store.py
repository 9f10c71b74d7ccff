"""The periods' calculations in the history (schema 4): what ``fiderate period`` stores is what
its own files say, for any games; a player's games are found across block boundaries; a
replaced period shows the replacing run's calculation."""

from __future__ import annotations

import csv
import shutil
from decimal import Decimal
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.history import period_calculations
from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.jobs.player_history import (
    CalculationRequest,
    HistoryRequest,
    run_calculation,
    run_history,
)

ROOT = Path(__file__).resolve().parents[2]
LIST = ROOT / "sample_data" / "period" / "list_2026-11.csv"
with LIST.open(encoding="utf-8") as _fh:
    PLAYERS = [r["id"] for r in csv.DictReader(_fh)]
RESULTS = ("1-0", "0-1", "1/2-1/2")


def write_event(folder: Path, games: list[tuple[int, int, str]]) -> Path:
    folder.mkdir(parents=True)
    lines = ["event,round,date,white,black,result"]
    lines += [
        f"Open,{n + 1},2026-11-{1 + n % 28:02d},{PLAYERS[w]},{PLAYERS[b]},{r}"
        for n, (w, b, r) in enumerate(games)
    ]
    (folder / "open.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def changes(out: Path, period: str) -> dict[str, dict[str, str]]:
    with (out / f"changes_{period}.csv").open(encoding="utf-8") as fh:
        return {
            r["id"]: r for r in csv.DictReader(fh) if r["status"] == "rated" and r["games"] != "0"
        }


def check_against_files(out: Path, period: str) -> None:
    """Each rated player who played: the history's period row and calculation are the
    changes file's numbers, and K x (S - PD) over the games sums to the exact change."""
    database = out / "ratings.db"
    for player, row in changes(out, period).items():
        found = run_history(HistoryRequest(player, database)).lists
        (listed,) = [r for r in found if r["period"] == period and not r["superseded"]]
        assert (listed["k_used"], listed["change"]) == (int(row["k"]), int(row["change"]))
        calc = run_calculation(CalculationRequest(player, period, database))
        assert len(calc.games) == int(row["games"])
        total = sum(Decimal(g["k_x_s_minus_pd"]) for g in calc.games)  # type: ignore[arg-type]
        assert total == Decimal(row["change_exact"]) == Decimal(calc.change_exact)
        assert sum(Decimal(g["s_minus_pd"]) for g in calc.games) == Decimal(calc.sum_dev)  # type: ignore[arg-type]


pairs = st.tuples(
    st.integers(0, len(PLAYERS) - 1), st.integers(0, len(PLAYERS) - 1), st.sampled_from(RESULTS)
).filter(lambda g: g[0] != g[1])


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(games=st.lists(pairs, min_size=1, max_size=30), block=st.integers(1, 9))
def test_the_stored_calculation_is_the_files_for_any_games(tmp_path_factory, games, block):
    """Any games, any block size (a player's games cut across blocks): the history gives back
    what the run's own files say."""
    work = tmp_path_factory.mktemp("any")
    saved = period_calculations.BLOCK_ROWS
    period_calculations.BLOCK_ROWS = block
    try:
        events = write_event(work / "events", games)
        run_period(
            PeriodRequest(list_path=LIST, events=(events,), period="2026-11", out_dir=work / "out")
        )
    finally:
        period_calculations.BLOCK_ROWS = saved
    check_against_files(work / "out", "2026-11")


def test_a_replaced_period_shows_the_replacing_runs_calculation(tmp_path):
    out = tmp_path / "out"
    first = write_event(tmp_path / "first", [(0, 1, "1-0"), (2, 3, "1-0")])
    run_period(PeriodRequest(list_path=LIST, events=(first,), period="2026-11", out_dir=out))
    shutil.rmtree(first)
    again = write_event(tmp_path / "first", [(0, 1, "0-1"), (2, 3, "1-0"), (1, 2, "1-0")])
    run_period(
        PeriodRequest(list_path=LIST, events=(again,), period="2026-11", out_dir=out, replace=True)
    )
    check_against_files(out, "2026-11")
    rows = run_history(HistoryRequest(PLAYERS[1], out / "ratings.db")).lists
    live = [r for r in rows if r["period"] == "2026-11" and not r["superseded"]]
    assert [r["period_games"] for r in live] == [2]  # the replacing run's two games
    assert all(r["k_used"] is None for r in rows if r["superseded"])
