"""Damaged inputs never crash: truncated, shuffled, byte-flipped and otherwise corrupted copies of
every valid file in sample_data/ (whatever formats it holds) go through `fiderate rate` and
`fiderate validate`; each run ends with exit 0 or 1 and a message, never an internal error.

Seeded random corruption keeps the test reproducible; a failure names the seed and the variant.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from pipeline.errors import InputError
from pipeline.readers import read_players
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data"
# Corrupted copies per file and kind of damage: 1 keeps the test near 30 s on a shared machine;
# FUZZ_VARIANTS=50 makes a deeper local run.
VARIANTS = int(os.environ.get("FUZZ_VARIANTS", "1"))
INPUTS = {".csv", ".xlsx", ".trf", ".txt", ".xml", ".zip", ".tsv"}  # not the generator script


def sample_files() -> list[Path]:
    """Every valid input at the top of sample_data (sample_data/broken holds invalid ones)."""
    return sorted(p for p in SAMPLE.iterdir() if p.is_file() and p.suffix.lower() in INPUTS)


def is_players_file(path: Path) -> bool:
    try:
        read_players(path)
    except InputError:
        return False
    return True


def corruptions(data: bytes, rng: random.Random) -> list[tuple[str, bytes]]:
    out = [("empty", b""), ("header only", data.split(b"\n", 1)[0])]
    for i in range(VARIANTS):
        n = len(data)
        cut = rng.randrange(1, max(n, 2))
        out.append((f"truncated at {cut}", data[:cut]))
        lines = data.splitlines(keepends=True)
        rng.shuffle(lines)
        out.append((f"shuffled lines #{i}", b"".join(lines)))
        flipped = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            pos = rng.randrange(n)
            flipped[pos] ^= 1 << rng.randrange(8)
        out.append((f"bit flips #{i}", bytes(flipped)))
        noisy = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(n)
            kind = rng.choice(["insert", "delete", "duplicate", "random"])
            chunk = rng.randint(1, 40)
            if kind == "insert":
                noisy[pos:pos] = rng.randbytes(chunk)
            elif kind == "delete":
                del noisy[pos : pos + chunk]
            elif kind == "duplicate":
                noisy[pos:pos] = noisy[pos : pos + chunk]
            else:
                noisy[pos : pos + chunk] = bytes(
                    rng.choice(b",;\t\"'\r\n0123456789-+=/.") for _ in range(chunk)
                )
        out.append((f"random edits #{i}", bytes(noisy)))
    return out


def xlsx_copy_of_games(tmp: Path) -> Path:
    """A workbook version of the sample games, so XLSX damage is fuzzed whatever sample_data has."""
    import csv

    from openpyxl import Workbook

    book = Workbook()
    with (SAMPLE / "games.csv").open(encoding="utf-8") as fh:
        for row in csv.reader(fh):
            book.active.append(row)
    path = tmp / "games_copy.xlsx"
    book.save(path)
    return path


def check(result, label: str) -> None:
    output = result.output
    assert result.exit_code in (0, 1), f"{label}: exit {result.exit_code}\n{output}"
    assert "internal error" not in output, f"{label}:\n{output}"
    assert "Traceback" not in output, f"{label}:\n{output}"
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), f"{label}: {result.exception!r}"
    if result.exit_code == 1:
        assert output.strip(), f"{label}: exit 1 without a message"


def fuzz_cases(tmp_path: Path) -> list[tuple[Path, bool]]:
    files = [(p, is_players_file(p)) for p in sample_files()]
    files.append((xlsx_copy_of_games(tmp_path), False))
    return files


@pytest.mark.slow
def test_corrupted_inputs_never_crash(tmp_path):
    players = SAMPLE / "players.csv"
    games = SAMPLE / "games.csv"
    seed = 20261103
    rng = random.Random(seed)
    runs = 0
    for original, as_players in fuzz_cases(tmp_path):
        for name, data in corruptions(original.read_bytes(), rng):
            damaged = tmp_path / f"damaged{original.suffix}"
            damaged.write_bytes(data)
            label = f"{original.name} ({name}, seed {seed})"
            if as_players:
                args = [str(games), "--players", str(damaged)]
            else:
                args = [str(damaged), "--players", str(players)]
            check(run_cli("validate", *args), "validate " + label)
            out = tmp_path / f"out{runs}"
            check(
                run_cli(
                    "rate",
                    *args,
                    "--period",
                    "2026-11",
                    "--no-xlsx",
                    "--no-html",
                    "-q",
                    "--out",
                    str(out),
                ),
                "rate " + label,
            )
            runs += 1
    assert runs >= 5 * (2 + 4 * VARIANTS)
