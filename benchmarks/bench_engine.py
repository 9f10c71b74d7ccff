"""Engine and end-to-end throughput against a plain per-game Python loop, measured in one run.

For each size (games among games/10 players):
- engine: the functions every path runs (``rate_arrays``: 400-point rule, table 8.1.2 look-up,
  S - PD; ``player_sums``: per-player sums by bincount; ``apply_700_rule`` and the exact rounding)
  on int64 arrays already in memory; tracemalloc gives its peak memory.
- loop: the same work as a plain Python loop, one game at a time (table look-up by index, dict
  accumulation, K, 700 rule, rounding); timed on at most LOOP_GAMES games, reported per game.
- end to end: ``fiderate rate games.csv --players players.csv`` (read, validate, rate, write
  rating_list.csv and games.csv) in a fresh process; peak RSS from ru_maxrss of that child.
Ratios engine/loop and end-to-end/loop hold on any machine; games/s per size shows that the cost
grows linearly (a flat games/s column).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

from benchmarks.synthetic import write_period
from pipeline.engine.rate_sides import rate_arrays
from pipeline.grouper.kfactor import apply_700_rule
from pipeline.grouper.totals import player_sums
from pipeline.rules.fide_tables import expectancy_table
from pipeline.rules.rounding import round_half_away
from pipeline.rules.sets import get_rules

SIZES = [10**4, 10**5, 10**6, 10**7]
QUICK_SIZES = [10**4, 10**5]
E2E_MAX = 10**6  # the pandas engine end to end holds the period in memory; beyond: bench_dask
LOOP_GAMES = 200_000


def synthetic_arrays(n_games: int, n_players: int, seed: int = 1) -> dict[str, np.ndarray]:
    """A period as the engine sees it: per game the two player codes, ratings and results."""
    rng = np.random.default_rng(seed)
    # int32 ratings, as the readers hand them to the engine (whole numbers 0..3500).
    rating = np.clip(rng.normal(1750, 330, n_players).round(), 1001, 2850).astype(np.int32)
    rating[rng.random(n_players) < 0.04] = 0  # unrated
    k = rng.choice(np.array([10, 20, 40]), n_players, p=[0.1, 0.6, 0.3]).astype(np.int64)
    white = rng.integers(0, n_players, n_games)
    black = (white + 1 + rng.integers(0, n_players - 1, n_games)) % n_players
    white_h = rng.choice(np.array([100, 0, 50]), n_games, p=[0.38, 0.31, 0.31]).astype(np.int64)
    played = rng.random(n_games) >= 0.03
    return {
        "rating": rating,
        "k": k,
        "white": white,
        "black": black,
        "white_h": white_h,
        "played": played,
    }


def run_engine(data: dict[str, np.ndarray]) -> np.ndarray:
    """The vectorized engine on arrays: both sides of every game, then per-player totals."""
    rules = get_rules("standard")
    rating, white, black = data["rating"], data["white"], data["black"]
    # Sides: white sides then black sides (order does not matter for the sums).
    player = np.concatenate([white, black])
    own = np.take(rating, player)
    n = len(white)
    opp = np.concatenate([own[n:], own[:n]])  # white's opponent is black, and black's white
    score_h = np.concatenate([data["white_h"], 100 - data["white_h"]])
    played = np.concatenate([data["played"], data["played"]])
    rated = rate_arrays(own, opp, played, score_h, rules, "fide")
    sums = player_sums(player, rated.rated, score_h, rated.pd_units, rated.dev_units, len(rating))
    k = apply_700_rule(np.where(rating > 0, data["k"], 0), sums["games"], rules.k.period_cap)
    change = round_half_away(k * sums["dev_units"], 100)
    return rating + np.where(rating > 0, change, 0)


def run_loop(data: dict[str, np.ndarray], n_games: int) -> list[int]:
    """The same period, one game at a time in plain Python (what a straightforward port does)."""
    rules = get_rules("standard")
    table = expectancy_table().pd_higher_h.tolist()
    top = len(table) - 1
    cap, exempt = rules.cap, rules.cap_exempt_from
    rating = data["rating"].tolist()
    white, black = data["white"][:n_games].tolist(), data["black"][:n_games].tolist()
    white_h, played = data["white_h"][:n_games].tolist(), data["played"][:n_games].tolist()
    games: dict[int, int] = {}
    dev: dict[int, int] = {}
    for w, b, wh, was_played in zip(white, black, white_h, played, strict=True):
        if not was_played:
            continue
        rw, rb = rating[w], rating[b]
        if rw <= 0 or rb <= 0:
            continue
        for me, own, opp, s in ((w, rw, rb, wh), (b, rb, rw, 100 - wh)):
            d = own - opp
            if own < exempt:
                d = max(-cap, min(cap, d))
            high = table[min(abs(d), top)]
            pd_h = high if d >= 0 else 100 - high
            games[me] = games.get(me, 0) + 1
            dev[me] = dev.get(me, 0) + s - pd_h
    k_list = data["k"].tolist()
    new = list(rating)
    for me, n in games.items():
        k = k_list[me]
        if k * n > 700:
            k = 700 // n
        units = k * dev[me]
        change = (abs(units) * 2 + 100) // 200
        new[me] = rating[me] + (change if units >= 0 else -change)
    return new


def end_to_end(n_games: int, folder: Path) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of `fiderate rate` on a CSV period, in a fresh process."""
    games, players = write_period(folder, n_games, max(n_games // 10, 100), seed=1)
    fiderate = Path(sys.executable).with_name("fiderate")
    command = [
        str(fiderate),
        "rate",
        str(games[0]),
        "--players",
        str(players),
        "--period",
        "2026-11",
        "--out",
        str(folder / "out"),
        "--quiet",
        "--no-xlsx",
        "--no-html",
    ]
    # A wrapper process so that ru_maxrss of its children is this one run's peak.
    wrapper = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter(); subprocess.run(sys.argv[1:], check=True)\n"
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", wrapper, *command], check=True, capture_output=True, text=True
    )
    seconds, max_rss_kb = out.stdout.split()
    return float(seconds), int(max_rss_kb) / 1024


def best_of(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(quick: bool) -> None:
    sizes = QUICK_SIZES if quick else SIZES
    print(f"engine vs plain Python loop, games among games/10 players; cpu count {os.cpu_count()}")
    header = (
        f"{'games':>10} {'engine g/s':>12} {'loop g/s':>10} {'x loop':>7} {'eng MB':>7} "
        f"{'e2e s':>7} {'e2e g/s':>10} {'x loop':>7} {'e2e MB':>7}"
    )
    print(header)
    print("-" * len(header))
    for n in sizes:
        data = synthetic_arrays(n, max(n // 10, 100))
        engine_s = best_of(lambda d=data: run_engine(d), 3 if n <= 10**6 else 1)
        tracemalloc.start()
        run_engine(data)
        engine_mb = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        loop_n = min(n, LOOP_GAMES)
        loop_s = best_of(lambda d=data, m=loop_n: run_loop(d, m), 1)
        if loop_n == n:  # the loop is an independent implementation: both must agree
            assert run_loop(data, n) == run_engine(data).tolist(), "engine and loop disagree"
        engine_gps, loop_gps = n / engine_s, loop_n / loop_s
        ratio = engine_gps / loop_gps
        row = f"{n:>10,} {engine_gps:>12,.0f} {loop_gps:>10,.0f} {ratio:>7.1f} {engine_mb:>7.0f}"
        if n <= E2E_MAX:
            with tempfile.TemporaryDirectory() as tmp:
                e2e_s, e2e_mb = end_to_end(n, Path(tmp))
            row += f" {e2e_s:>7.2f} {n / e2e_s:>10,.0f} {n / e2e_s / loop_gps:>7.2f} {e2e_mb:>7.0f}"
        else:
            row += f" {'-':>7} {'-':>10} {'-':>7} {'-':>7}"
        print(row, flush=True)
    print(
        "engine: rate_arrays + player_sums + 700 rule + rounding on arrays in memory (best of 3)."
    )
    print(f"loop: the same per game in Python, timed on up to {LOOP_GAMES:,} games.")
    print(
        "e2e: `fiderate rate` on a CSV: read, validate, rate, write rating_list.csv + games.csv "
        "(wall time of the process, imports included); MB: peak RSS of that process."
    )
    print(f"e2e stops at {E2E_MAX:,} games: bigger periods are for --engine dask (bench_dask).")


if __name__ == "__main__":
    main(bool(os.environ.get("BENCH_QUICK")))
