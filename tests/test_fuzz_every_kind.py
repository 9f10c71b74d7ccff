"""Seeded fuzzing over every input kind (issue 14): a few hundred damaged and hostile variants of
games, players, individual, TRF, crosstable (CSV and XLSX), grid, FIDE TXT/XML lists (plain and
zipped) and Parquet files go through `fiderate rate`. Each run ends with exit 0 or 1; a failure
has a message, no traceback, and leaves nothing behind (the --out folder is not even created);
a success has written its rating list.

The damage is byte-level (truncation, bit flips, random edits) and hostile text (NUL bytes,
formulas, full-width and superscript digits, a huge cell, UTF-16, CR-only lines, DOCTYPE). A
failure names the seed, the kind and the variant, so it can be replayed.
"""

from __future__ import annotations

import io
import random
import zipfile
from collections.abc import Callable
from pathlib import Path

import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from pipeline.cli import cli
from tests.conftest import SAMPLE

SEED = 20261203
VARIANTS_PER_KIND = 20  # x 12 kinds = 240 runs, about 30 s of CPU


def _xlsx_bytes(csv_path: Path) -> bytes:
    import csv

    from openpyxl import Workbook

    book = Workbook()
    with csv_path.open(encoding="utf-8") as fh:
        for row in csv.reader(fh):
            book.active.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _zip_bytes(name: str, data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, data)
    return buffer.getvalue()


def _parquet_bytes(csv_path: Path) -> bytes:
    table = pacsv.read_csv(csv_path)
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    return buffer.getvalue()


# kind -> (file name, original bytes, is it the players list?)
def kinds() -> dict[str, tuple[str, bytes, bool]]:
    read = lambda name: (SAMPLE / name).read_bytes()  # noqa: E731
    return {
        "games": ("games.csv", read("games.csv"), False),
        "players": ("players.csv", read("players.csv"), True),
        "individual": ("individual.csv", read("individual.csv"), False),
        "trf": ("event.trf", read("event.trf"), False),
        "crosstable": ("crosstable.csv", read("crosstable.csv"), False),
        "crosstable-xlsx": ("crosstable.xlsx", read("crosstable.xlsx"), False),
        "grid": ("grid.csv", read("grid.csv"), False),
        "fide-txt": ("list.txt", read("players_list_foa.txt"), True),
        "fide-xml": ("list.xml", read("players_list_xml_foa.xml"), True),
        "fide-zip": (
            "list.zip",
            _zip_bytes("players_list_foa.txt", read("players_list_foa.txt")),
            True,
        ),
        "games-xlsx": ("games.xlsx", _xlsx_bytes(SAMPLE / "games.csv"), False),
        "games-parquet": ("games.parquet", _parquet_bytes(SAMPLE / "games.csv"), False),
    }


def _at(data: bytes, rng: random.Random, insert: bytes) -> bytes:
    pos = rng.randrange(len(data) + 1)
    return data[:pos] + insert + data[pos:]


def _digits(data: bytes, rng: random.Random, table: str) -> bytes:
    text = data.decode("utf-8", errors="replace")
    spots = [i for i, c in enumerate(text) if c.isascii() and c.isdigit()]
    for i in rng.sample(spots, min(len(spots), rng.randint(1, 3))):
        text = text[:i] + table[int(text[i])] + text[i + 1 :]
    return text.encode("utf-8")


MUTATIONS: list[tuple[str, Callable[[bytes, random.Random], bytes]]] = [
    ("truncated", lambda d, r: d[: r.randrange(1, max(len(d), 2))]),
    (
        "bit flips",
        lambda d, r: bytes(b ^ (1 << r.randrange(8)) if r.random() < 0.002 else b for b in d),
    ),
    ("random bytes", lambda d, r: _at(d, r, r.randbytes(r.randint(1, 40)))),
    (
        "deleted run",
        lambda d, r: (lambda p: d[:p] + d[p + r.randint(1, 60) :])(r.randrange(len(d))),
    ),
    ("shuffled lines", lambda d, r: b"".join(r.sample(d.splitlines(True), len(d.splitlines())))),
    ("NUL bytes", lambda d, r: _at(d, r, b"\x00" * r.randint(1, 3))),
    ("formula", lambda d, r: _at(d, r, b'=HYPERLINK("http://x.invalid","y")')),
    ("full-width digits", lambda d, r: _digits(d, r, "０１２３４５６７８９")),
    ("superscript digits", lambda d, r: _digits(d, r, "⁰¹²³⁴⁵⁶⁷⁸⁹")),
    ("huge cell", lambda d, r: _at(d, r, b"x" * 20_000)),
    ("UTF-16", lambda d, r: d.decode("utf-8", "replace").encode("utf-16")),
    ("CR-only lines", lambda d, r: d.replace(b"\r\n", b"\n").replace(b"\n", b"\r")),
    ("separators", lambda d, r: _at(d, r, bytes(r.choice(b',;\t"\r\n') for _ in range(8)))),
    ("DOCTYPE", lambda d, r: b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n' + d),
    ("empty", lambda d, r: b""),
]


def variants(data: bytes, rng: random.Random) -> list[tuple[str, bytes]]:
    out = []
    for i in range(VARIANTS_PER_KIND):
        name, mutate = MUTATIONS[i % len(MUTATIONS)]
        out.append((f"{name} #{i}", mutate(data, rng)))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(kinds()))
def test_every_kind_survives_damage(kind: str, tmp_path: Path) -> None:
    name, original, as_players = kinds()[kind]
    rng = random.Random(f"{SEED}-{kind}")
    runner = CliRunner()
    for i, (label, data) in enumerate(variants(original, rng)):
        where = f"{kind}: {label} (seed {SEED})"
        damaged = tmp_path / f"v{i}" / name
        damaged.parent.mkdir()
        damaged.write_bytes(data)
        out = tmp_path / f"v{i}" / "out"
        if as_players:
            args = [str(SAMPLE / "games.csv"), "--players", str(damaged)]
        else:
            args = [str(damaged), "--players", str(SAMPLE / "players.csv")]
        result = runner.invoke(
            cli, ["rate", *args, "--period", "2026-11", "--out", str(out), "-q", "--no-html"]
        )
        output = result.stdout + result.stderr
        assert result.exit_code in (0, 1), f"{where}: exit {result.exit_code}\n{output[-2000:]}"
        assert "Traceback" not in output and "internal error" not in output, f"{where}\n{output}"
        if result.exception is not None:
            assert isinstance(result.exception, SystemExit), f"{where}: {result.exception!r}"
        assert len(output) < 120_000, f"{where}: {len(output)} characters of output"
        if result.exit_code == 1:
            assert output.strip(), f"{where}: exit 1 without a message"
            assert not out.exists(), f"{where}: failed but left {sorted(out.iterdir())}"
        else:
            assert (out / "rating_list.csv").is_file(), where
        assert damaged.read_bytes() == data, f"{where}: the input was changed"
