"""A period hashes each list's ids once (issue 13: "one id look-up per list, reused"): the list
in force, its totals and the next list list the same players in the same order, so the totals'
look-up (games.csv's order, the report's tables) is the list's own."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.keys import id_lookup

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "period"


def test_each_list_of_a_period_is_looked_up_once(tmp_path, monkeypatch):
    built: list[tuple[str, ...]] = []
    original = id_lookup.IdLookup.__init__

    def counting(self, ids: pd.Series) -> None:
        built.append(tuple(ids.astype(str)))
        original(self, ids)

    monkeypatch.setattr(id_lookup.IdLookup, "__init__", counting)
    out = tmp_path / "out"
    run_period(PeriodRequest(list_path=SAMPLE / "list_2026-11.csv", events=(SAMPLE / "events",),
                             period="2026-11", out_dir=out))  # fmt: skip
    listed = pd.read_csv(SAMPLE / "list_2026-11.csv", dtype=str)["id"]
    # The list in force (with the period's new players after it) is hashed, and only once.
    assert any(set(listed) <= set(ids) for ids in built)
    assert len(built) == len(set(built)), "the same ids were hashed twice"
    # games.csv still follows the next list's order, found through the shared look-up.
    games = pd.read_csv(out / "games_2026-11.csv", dtype=str, keep_default_na=False)
    order = pd.read_csv(out / "rating_list_2026-12.csv", dtype=str)["id"].tolist()
    rank = {player: i for i, player in enumerate(order)}
    assert games["player"].map(rank).is_monotonic_increasing
