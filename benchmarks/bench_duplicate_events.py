"""The duplicate-event check (issue 34, item 8): its share of a rating run, on honest input and
on an event copied under many names. Target: at most 5% of rating the same games.

- honest: the 1 M-game period of ``bench_million`` (2,000 events of 500 games; quick: 100,000
  games), one file: the check (``readers.duplicate_events``, on the inputs as ``rate`` reads them)
  against the whole ``rate`` job on it (read, check, rate, write), both in this process;
- copies: 1,000 renamed copies of one 25-game event in one file (refused, ``duplicate-event``)
  against 1,000 distinct 25-game events among the same players (rated): the check on each, and
  the refused run against the rated one (the time to say "no" next to the time to rate).

Every figure is the best of a few runs (this machine is shared); the ratios are within this run.

    python -m benchmarks duplicate_events        BENCH_QUICK=1: 100,000 honest games
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.synthetic import player_ids, synthetic_players, write_period, write_text_csv
from pipeline.errors import InputError
from pipeline.jobs.rate import RateOutputs, RateRequest, rate
from pipeline.model import GamesInput, RateOptions, SidesInput
from pipeline.readers.duplicate_events import duplicate_events
from pipeline.readers.event_inputs import read_event_inputs

COPIES = 1_000
POOL = 2_000  # the players the 1,000 events draw from
TARGET = 0.05


def best(run: Callable[[], object], rounds: int) -> tuple[float, float]:
    """(best wall-clock seconds, best CPU seconds of the process) of ``rounds`` runs. The CPU
    time is the steadier figure on a busy machine: time spent waiting for a core is not in it."""
    wall = cpu = float("inf")
    for _ in range(rounds):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def small_events(n_events: int, seed: int = 3) -> pd.DataFrame:
    """``n_events`` events of 25 games (5 rounds of 5 boards among 10 players drawn from the
    pool), as text columns a CSV would hold."""
    rng = np.random.default_rng(seed)
    ids = player_ids(POOL)
    rows = []
    for e in range(n_events):
        players = rng.choice(POOL, 10, replace=False)
        for r in range(1, 6):
            seats = rng.permutation(players)
            for board in range(5):
                result = rng.choice(["1-0", "0-1", "1/2-1/2"])
                date = f"2026-11-{e % 28 + 1:02d}"
                white, black = ids[seats[2 * board]], ids[seats[2 * board + 1]]
                rows.append((f"Event {e}", str(r), date, white, black, result))
    return pd.DataFrame(rows, columns=["event", "round", "date", "white", "black", "result"])


def read(path: Path) -> list[GamesInput | SidesInput]:
    inputs, _, problems, _ = read_event_inputs([path])
    assert not [p for p in problems if p.code != "duplicate-event"], problems[:3]
    return inputs


def rate_run(games: Path, players: Path, out: Path) -> Callable[[], bool]:
    """The ``rate`` job on ``games``: True when it rated, False when the input was refused."""
    request = RateRequest(
        inputs=(games,),
        out_dir=out,
        players=players,
        options=RateOptions(period="2026-11"),
        outputs=RateOutputs(xlsx=False, html=False),
    )

    def run() -> bool:
        shutil.rmtree(out, ignore_errors=True)
        try:
            rate(request)
        except InputError as exc:
            assert {p.code for p in exc.problems} == {"duplicate-event"}, exc.problems[:3]
            return False
        return True

    return run


def share_line(label: str, check: tuple[float, float], rating: tuple[float, float]) -> str:
    """The check's time next to the rating's, wall clock and CPU, and its share of each."""
    (wall, cpu), (rate_wall, rate_cpu) = check, rating
    share = max(wall / rate_wall, cpu / rate_cpu)
    verdict = "ok" if share <= TARGET else f"over the {TARGET:.0%} target"
    return (
        f"  {label:<40}{wall:9.3f}{rate_wall:9.2f}{wall / rate_wall:8.1%}"
        f"{cpu:9.3f}{rate_cpu:9.2f}{cpu / rate_cpu:8.1%}  {verdict}"
    )


def main(quick: bool) -> None:
    root = Path(tempfile.mkdtemp(prefix="bench_duplicate_events_"))
    try:
        n = 100_000 if quick else 1_000_000
        (honest,), honest_players = write_period(root / "honest", n, n // 10, seed=1)
        distinct = small_events(COPIES)
        one = distinct[distinct["event"] == "Event 0"]
        copies = pd.concat(
            [one.assign(event=f"Copy {i}") for i in range(COPIES)], ignore_index=True
        )
        small = root / "small"
        small.mkdir()
        write_text_csv(distinct, small / "distinct.csv")
        write_text_csv(copies, small / "copies.csv")
        write_text_csv(synthetic_players(POOL, seed=1), small / "players.csv")

        print(f"  {'':<40}{'wall clock':^26}{'CPU':^26}")
        print(
            f"  {'input':<40}{'check s':>9}{'rate s':>9}{'share':>8}"
            f"{'check s':>9}{'rate s':>9}{'share':>8}  (target <= 5%)"
        )
        honest_inputs = read(honest)
        assert not duplicate_events(honest_inputs)
        check = best(lambda: duplicate_events(honest_inputs), 3)
        rating = best(rate_run(honest, honest_players, root / "out"), 1 if quick else 2)
        print(share_line(f"honest: {n:,} games, {n // 500 + 1:,} events", check, rating))

        distinct_inputs = read(small / "distinct.csv")
        copies_inputs = read(small / "copies.csv")
        assert not duplicate_events(distinct_inputs)
        assert len(duplicate_events(copies_inputs)) == COPIES - 1
        players = small / "players.csv"
        rate_distinct = rate_run(small / "distinct.csv", players, root / "out")
        refuse_copies = rate_run(small / "copies.csv", players, root / "out")
        assert rate_distinct() and not refuse_copies()
        distinct = best(rate_distinct, 5)
        copies_run = best(refuse_copies, 5)
        label = f"{COPIES:,} distinct 25-game events"
        print(share_line(label, best(lambda: duplicate_events(distinct_inputs), 10), distinct))
        label = f"{COPIES:,} renamed copies (vs rating distinct)"
        print(share_line(label, best(lambda: duplicate_events(copies_inputs), 10), distinct))
        print(
            f"  refusing {COPIES:,} copies: {copies_run[0]:.2f} s, rating {COPIES:,} distinct "
            f"events: {distinct[0]:.2f} s ({copies_run[0] / distinct[0]:.2f}x; issue 34: 6.8x)"
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)
