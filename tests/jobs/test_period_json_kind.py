"""``fiderate period --json`` names the kind of list it published (standard, rapid or blitz:
``--rules``' family), at the top and for each month of a scheduled run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "period"


@pytest.mark.parametrize(("rules", "kind"), [("standard", "standard"), ("rapid", "rapid"),
                                             ("blitz-2022", "blitz")])  # fmt: skip
def test_period_json_says_the_kind_of_list_published(tmp_path, rules, kind):
    out = tmp_path / "out"
    args = ["period", "--list", str(SAMPLE / "list_2026-11.csv"), "--events"]
    args += [str(SAMPLE / "events"), "--period", "2026-11", "--out", str(out), "--no-xlsx"]
    result = run_cli(*args, "--rules", rules, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["rating_kind"] == kind
    # The history holds the list under the same kind.
    shown = json.loads(run_cli("history", "5100029", "--db", str(out / "ratings.db"),
                               "--json").stdout)  # fmt: skip
    assert {row["rating_kind"] for row in shown["lists"]} == {kind}
