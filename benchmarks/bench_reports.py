"""Reports: how long the per-player tables, report.xlsx, report.html and sequential mode take,
against the CSV text tables of the same run (the baseline every run pays anyway).

A synthetic Swiss-like event: N players, R rounds, random pairings and results, ratings 1400-2700.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.engine.sides import with_side_texts
from pipeline.grouper.standings import standings as compute_standings
from pipeline.jobs.rate.stages import rate_files
from pipeline.model import RatedPeriod, RateOptions
from pipeline.report import EventReport, build_report
from pipeline.writers import games_table, rating_list_table
from pipeline.writers.text.norms_text import norms_text
from pipeline.writers.text.report_text import breakdown, standings


def make_event(folder: Path, players: int, rounds: int, seed: int = 7) -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    ids = np.arange(100_001, 100_001 + players).astype(str)
    pd.DataFrame(
        {
            "id": ids,
            "name": [f"Player {i}" for i in range(players)],
            "rating": rng.integers(1400, 2700, players),
            "birth_year": rng.integers(1950, 2015, players),
            "games": rng.integers(0, 500, players),
        }
    ).to_csv(folder / "players.csv", index=False)
    rows = []
    for r in range(1, rounds + 1):
        order = rng.permutation(players)
        white, black = ids[order[0::2]], ids[order[1::2]]
        n = min(len(white), len(black))
        result = rng.choice(["1-0", "0-1", "1/2-1/2"], n, p=[0.4, 0.35, 0.25])
        rows.append(
            pd.DataFrame(
                {
                    "event": "Bench Open",
                    "round": r,
                    "white": white[:n],
                    "black": black[:n],
                    "result": result,
                }
            )
        )
    pd.concat(rows).to_csv(folder / "games.csv", index=False)
    return folder / "games.csv", folder / "players.csv"


def report_model(result: RatedPeriod) -> EventReport:
    """The standings stage (order, points, performance) and the report model built on it."""
    return build_report(result, compute_standings(result))


def report_tables(report: EventReport) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The two report tables' text, formatted from the model."""
    return standings(report), breakdown(report)


def timed(fn, repeat: int = 1):  # type: ignore[no-untyped-def]
    best = float("inf")
    value = None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def main(quick: bool) -> None:
    sizes = [(200, 7)] if quick else [(1_000, 9), (20_000, 9)]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'players':>8} {'figure':<44} {'seconds':>9} {'x baseline':>11}")
        for players, rounds in sizes:
            one_size(Path(tmp), players, rounds, quick)


def one_size(folder: Path, players: int, rounds: int, quick: bool) -> None:
    import pipeline.writers.html.report_page as page
    from pipeline.writers.xlsx.workbooks import write_report_xlsx

    games, plist = make_event(folder, players, rounds)
    options = RateOptions(period="2026-11")
    t_rate, result = timed(lambda: rate_files([games], plist, options), 2)
    t_base, _ = timed(lambda: (rating_list_table(result), games_table(result)), 2)
    result = with_side_texts(result)  # as the output stage hands it to the report writers
    t_model, model = timed(lambda: report_model(result), 2)
    t_tables, (table, detail) = timed(lambda: report_tables(model), 2)
    rows = [
        ("rate_files (fide mode)", t_rate),
        ("baseline: rating_list + games text tables", t_base),
        ("report model (standings stage + build_report)", t_model),
        ("standings + breakdown text from the model", t_tables),
    ]
    seq = RateOptions(period="2026-11", mode="sequential")
    t_seq, _ = timed(lambda: rate_files([games], plist, seq), 2)
    rows.append(("rate_files (sequential mode)", t_seq))
    if players <= 1_000:
        t_xlsx, _ = timed(
            lambda: write_report_xlsx(table, detail, folder / "r.xlsx", per_player=True)
        )
        rows.append((f"report.xlsx with {players:,} player sheets", t_xlsx))
    norms = norms_text(model.norms)
    saved = page.CHARTS_MAX_PLAYERS
    try:
        page.CHARTS_MAX_PLAYERS = 0
        t_html0, html0 = timed(lambda: page.render_report(model, table, detail, norms=norms), 2)
        charts = 20 if quick else 100
        page.CHARTS_MAX_PLAYERS = charts
        t_html, html = timed(lambda: page.render_report(model, table, detail, norms=norms))
    finally:
        page.CHARTS_MAX_PLAYERS = saved
    rows.append((f"report.html, event chart only ({len(html0) / 1e6:.1f} MB)", t_html0))
    rows.append((f"report.html + {charts} player charts ({len(html) / 1e6:.1f} MB)", t_html))
    rows.append(("  -> per player chart", (t_html - t_html0) / charts))
    for label, seconds in rows:
        print(f"{players:>8,} {label:<44} {seconds:>9.3f} {seconds / t_base:>10.1f}x")
