"""Issue 35: the K used is marked assumed in every face. A period's changes CSV and its workbook
carry ``k_assumed`` in the words and values of ``fiderate rate``'s rating_list.csv for the same
games and the same player facts."""

from __future__ import annotations

import csv
from contextlib import closing
from pathlib import Path

from openpyxl import load_workbook

from tests.conftest import SAMPLE, run_cli
from tests.period_files import read_rows

PERIOD = SAMPLE / "period"
# Players whose K the list cannot decide once their birth year and game count are blanked.
BLANKED = {"5100029", "5100061"}
UNLISTED = "5100134"  # plays in the sample's events, is on no list: rate needs a row for him


def _list_without_facts(path: Path) -> Path:
    with (PERIOD / "list_2026-11.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        if row["id"] in BLANKED:
            row["birth_year"] = row["games"] = ""
    rows.append({**{k: "" for k in rows[0]}, "id": UNLISTED, "name": "X", "ever_2400": "false"})
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_changes_mark_the_k_assumed_as_the_rating_list_does(tmp_path):
    players = _list_without_facts(tmp_path / "list.csv")
    period = run_cli(
        "period", "--list", players, "--events", PERIOD / "events", "--period", "2026-11",
        "--out", tmp_path / "period", "--quiet", "--xlsx",
    )  # fmt: skip
    assert period.exit_code == 0, period.stderr
    rate = run_cli(
        "rate", PERIOD / "events", "--players", players, "--period", "2026-11",
        "--out", tmp_path / "rate",
    )  # fmt: skip
    assert rate.exit_code == 0, rate.stderr

    changes = read_rows(tmp_path / "period" / "changes_2026-11.csv")
    listed = read_rows(tmp_path / "rate" / "rating_list.csv")
    # The rated players who played (the unrated have no K in either file).
    played = [pid for pid, row in changes.items() if row["rating"] and row["games"] != "0"]
    assert set(played) == {pid for pid, row in listed.items() if row["rating"]}
    for pid in played:
        assert (changes[pid]["k"], changes[pid]["k_assumed"]) == (
            listed[pid]["k"],
            listed[pid]["k_assumed"],
        ), pid
    assert {pid for pid in played if changes[pid]["k_assumed"] == "true"} == BLANKED

    # The workbook's sheets of changes carry the column with the CSV's words.
    with closing(load_workbook(tmp_path / "period" / "report_2026-11.xlsx", read_only=True)) as wb:
        for sheet in ("All changes", "New players", "Dropped"):
            header = next(wb[sheet].iter_rows(max_row=1, values_only=True))
            assert "k_assumed" in header, sheet
        rows = list(wb["All changes"].iter_rows(values_only=True))
    at = rows[0].index("k_assumed")
    assert {str(r[0]): r[at] for r in rows[1:]} == {
        pid: row["k_assumed"] or None for pid, row in changes.items()
    }
