"""The FIDE tables are read from data, and the packaged copies equal the specification's."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from pipeline.rules.fide_tables import dp_table, expectancy_table

DATA = Path(__file__).resolve().parents[2] / "pipeline" / "rules" / "data"


@pytest.mark.parametrize("name", ["table_8_1_2.csv", "table_8_1_1.csv"])
def test_packaged_tables_equal_the_specification(shared_fide, name):
    assert (DATA / name).read_bytes() == (shared_fide / name).read_bytes()


def test_every_band_of_table_8_1_2_is_looked_up_exactly():
    table = expectancy_table()
    with (DATA / "table_8_1_2.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        high = int(Decimal(row["pd_higher"]) * 100)
        low = int(Decimal(row["pd_lower"]) * 100)
        d_min = int(row["d_min"])
        d_max = int(row["d_max"]) if row["d_max"] else d_min + 1000
        for d in (d_min, d_max):
            assert table.lookup_h(np.array([d]))[0] == high
            assert table.lookup_h(np.array([-d]))[0] == low


def test_table_8_1_1_endpoints_and_golden_value():
    dp = dp_table()
    assert dp.dp(100) == 800 and dp.dp(0) == -800 and dp.dp(50) == 0
    assert dp.dp(57) == 50  # the first-rating golden case uses p = 0.57 -> dp 50
