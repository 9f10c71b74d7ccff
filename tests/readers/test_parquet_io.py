"""Parquet in and out, and inputs given as folders or globs of parts."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from tests.conftest import run_cli

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
INPUTS = GOLDEN / "inputs"


def _rate(*args: str) -> tuple[int, str]:
    result = run_cli("rate", *args, "--period", "2026-11", "--quiet", "--no-xlsx", "--no-html")
    return result.exit_code, result.stderr


def _csv_rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))


def test_parquet_inputs_typed_or_text_rate_like_the_csv(tmp_path):
    games = pd.read_csv(INPUTS / "games.csv", dtype=str, keep_default_na=False)
    games.to_parquet(tmp_path / "games.parquet", index=False)
    # The players list typed the way pandas reads it: float ratings with NaN, ints, booleans.
    pd.read_csv(INPUTS / "players.csv").to_parquet(tmp_path / "players.parquet", index=False)
    code, err = _rate(
        str(tmp_path / "games.parquet"),
        "--players",
        str(tmp_path / "players.parquet"),
        "--out",
        str(tmp_path / "out"),
    )
    assert code == 0, err
    expected = GOLDEN / "cases" / "generated-standard"
    assert (tmp_path / "out" / "rating_list.csv").read_bytes() == (
        expected / "rating_list.csv"
    ).read_bytes()
    got = [{**r, "source": ""} for r in _csv_rows(tmp_path / "out" / "games.csv")]
    want = [{**r, "source": ""} for r in _csv_rows(expected / "games.csv")]
    assert got == want


def test_bad_cell_in_parquet_is_reported_with_its_row(tmp_path):
    games = pd.read_csv(INPUTS / "games.csv", dtype=str, keep_default_na=False)
    games.loc[9, "result"] = "2-0"
    games.to_parquet(tmp_path / "games.parquet", index=False)
    code, err = _rate(
        str(tmp_path / "games.parquet"),
        "--players",
        str(INPUTS / "players.csv"),
        "--out",
        str(tmp_path / "out"),
    )
    assert code == 1
    assert "[bad-result]" in err and "row 11, column 'result': value '2-0'" in err
    assert not (tmp_path / "out").exists()


def test_parquet_outputs_are_typed_and_hold_the_csv_values(tmp_path):
    args = [str(INPUTS / "games.csv"), "--players", str(INPUTS / "players.csv")]
    assert _rate(*args, "--out", str(tmp_path / "csv"))[0] == 0
    assert _rate(*args, "--out", str(tmp_path / "pq"), "--output-format", "parquet")[0] == 0
    for name, ints, decimals in (
        (
            "rating_list",
            ["rating", "k", "games", "change", "new_rating"],
            ["score", "expected", "change_exact"],
        ),
        ("games", ["player_rating", "opponent_rating", "diff", "line"], ["pd", "dev"]),
    ):
        table = pq.read_table(tmp_path / "pq" / f"{name}.parquet")
        for column in ints:
            assert table.schema.field(column).type == pa.int64(), column
        for column in decimals:
            assert pa.types.is_decimal(table.schema.field(column).type), column
        rows = _csv_rows(tmp_path / "csv" / f"{name}.csv")
        assert table.num_rows == len(rows)
        for column in table.column_names:
            values = table.column(column).to_pylist()
            text = [r[column] for r in rows]
            if column in decimals:
                assert values == [Decimal(t) if t else None for t in text], column
            elif column in ints:
                assert values == [int(t) if t else None for t in text], column
            elif column in ("rated", "k_assumed"):  # booleans, written true/false in CSV
                assert values == [t == "true" for t in text]
            elif column == "date":
                assert [v.isoformat() if v else "" for v in values] == text
            else:
                assert values == text, column


def test_folder_and_glob_of_parts_read_as_one_period(tmp_path):
    lines = (INPUTS / "games.csv").read_text().splitlines()
    parts = tmp_path / "games"
    parts.mkdir()
    for i, start in enumerate(range(1, len(lines), 250)):
        (parts / f"part-{i}.csv").write_text(
            "\n".join([lines[0], *lines[start : start + 250]]) + "\n"
        )
    (parts / "_SUCCESS").write_text("")  # markers written by Spark-like tools are skipped
    players = str(INPUTS / "players.csv")
    expected = (GOLDEN / "cases" / "generated-standard" / "rating_list.csv").read_bytes()
    for given in (str(parts), str(parts / "part-*.csv")):
        out = tmp_path / f"out-{len(given)}"
        code, err = _rate(given, "--players", players, "--out", str(out))
        assert code == 0, err
        assert (out / "rating_list.csv").read_bytes() == expected


def test_glob_that_matches_nothing_is_an_input_error(tmp_path):
    code, err = _rate(str(tmp_path / "nothing-*.parquet"), "--out", str(tmp_path / "out"))
    assert code == 1
    assert "[not-a-table]" in err and "matches no file" in err
    assert not (tmp_path / "out").exists()
