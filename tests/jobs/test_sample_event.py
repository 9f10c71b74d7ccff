"""The bundled sample event, rated by the pipeline, agrees with the plain reference implementation,
and its outputs match the golden files byte for byte (format, order, line endings).
"""

from __future__ import annotations

import csv
from pathlib import Path

from tests.conftest import rate_sample
from tests.reference import rate_games

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "sample"


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _run(out: Path) -> None:
    result = rate_sample(out)
    assert result.exit_code == 0, result.stderr


def test_sample_agrees_with_reference(sample, tmp_path):
    _run(tmp_path)
    players = {
        r["id"]: {
            "rating": int(r["rating"]) if r["rating"] else 0,
            "k": int(r["k"]) if r["k"] else None,
            "birth_year": int(r["birth_year"]) if r["birth_year"] else None,
            "games": int(r["games"]) if r["games"] else None,
            "ever_2400": r["ever_2400"] == "true",
        }
        for r in _read(sample / "players.csv")
    }
    expected = rate_games(players, _read(sample / "games.csv"), year=2026)
    got = {r["id"]: r for r in _read(tmp_path / "rating_list.csv")}
    assert set(expected) < set(got)
    for pid, exp in expected.items():
        row = got[pid]
        assert (int(row["k"]), int(row["games"]), int(row["change"]), int(row["new_rating"])) == (
            exp["k"],
            exp["games"],
            exp["change"],
            exp["new_rating"],
        ), pid
    # The unrated player keeps no rating and gets no change.
    assert got["4100093"]["rating"] == "" and got["4100093"]["change"] == "0"


def test_sample_outputs_match_golden_files(sample, tmp_path):
    _run(tmp_path)
    for name in ("rating_list.csv", "games.csv"):
        produced = (
            (tmp_path / name).read_bytes().replace(str(sample).encode() + b"/", b"sample_data/")
        )
        assert produced == (GOLDEN / name).read_bytes(), name
