"""A period run on a real TRF file from ../shared/trf (skipped without it): the event's start date
comes from its header, new players take their details from it, and the changes of listed players
are those of the core ``fiderate rate`` path on the same list."""

from __future__ import annotations

import csv
import shutil

from pipeline.jobs.rate.stages import read_inputs
from tests.conftest import run_cli


def test_trf_event_in_a_period_run(shared_trf, tmp_path):
    trf = tmp_path / "karl-mala-2005.trf"
    shutil.copy(shared_trf / "karl-mala-2005.trf", trf)
    inputs, _ = read_inputs([trf], None)
    players = inputs[0].players.players
    assert inputs[0].info.start == "2005-07-28"
    # The list in force: the TRF's own players, less three who become new players.
    dropped = players["id"].iloc[-3:].tolist()
    listed = players[~players["id"].isin(dropped)]
    list_path = tmp_path / "list.csv"
    listed[["id", "name", "rating", "birth_year", "federation", "title", "sex"]].assign(
        rating=listed["rating"].astype("Int64")
    ).to_csv(list_path, index=False)

    out = tmp_path / "out"
    args = ["period", "--list", str(list_path), "--events", str(trf), "--out", str(out)]
    result = run_cli(*args, "--period", "2005-07")
    assert result.exit_code == 0, result.stderr
    rate_out = tmp_path / "rate"
    rated = run_cli(
        "rate", trf, "--players", list_path, "--period", "2005-07", "--out", rate_out, "--no-xlsx"
    )
    assert rated.exit_code == 0, rated.stderr

    with (out / "rating_list_2005-08.csv").open(encoding="utf-8") as fh:
        new = {r["id"]: r for r in csv.DictReader(fh)}
    with (rate_out / "rating_list.csv").open(encoding="utf-8") as fh:
        core = {r["id"]: r for r in csv.DictReader(fh)}
    compared = 0
    for pid, row in core.items():
        if pid in dropped or not row["new_rating"] or int(row["new_rating"]) < 1400:
            continue
        assert new[pid]["rating"] == row["new_rating"], pid
        compared += 1
    assert compared > 20
    for pid in dropped:
        trf_row = players[players["id"] == pid].iloc[0]
        assert new[pid]["name"] == trf_row["name"] and new[pid]["rating"] == ""
        assert new[pid]["federation"] == trf_row["federation"]

    # Rated as a period starting in August, the July event needs July's list: not recorded.
    later = run_cli(*args[:-1], str(tmp_path / "out2"), "--period", "2005-08")
    assert later.exit_code == 1 and "[no-list-in-force]" in later.stderr
