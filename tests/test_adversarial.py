"""The catalogue of hostile and broken inputs (issue 14): each case is an input built here, the
command it goes through, the exit code and the problem code it must end with. Every case also
holds the general promises: no traceback, no internal error, a message, a report of bounded size,
and nothing written when the run fails.

Limits that would need gigabytes to reach (the 1 GB unpacked cap) are lowered for the test with
monkeypatch; the code path is the same.
"""

from __future__ import annotations

import errno
import shutil
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.conftest import SAMPLE
from tests.helpers import assert_nothing_written, files_of, run_hostile

PLAYERS = SAMPLE / "players.csv"
GAMES = SAMPLE / "games.csv"


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[Path, pytest.MonkeyPatch], list[str]]  # -> CLI arguments
    exit_code: int
    code: str  # the problem code the output must name ("" for a clean run)


def _rate(games: Path | str, out: Path, players: Path | str | None = PLAYERS) -> list[str]:
    args = ["rate", str(games), "--period", "2026-11", "--out", str(out), "-q"]
    return args + (["--players", str(players)] if players is not None else [])


def _players_with(tmp: Path, name: str, old: str, new: str) -> Path:
    path = tmp / name
    path.write_text(PLAYERS.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    return path


# --- builders: each writes its inputs into tmp and returns the command line -------------------


def zip_bomb_players(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    import pipeline.readers.limits as limits

    mp.setattr(limits, "MAX_UNPACKED_BYTES", 1 << 20)  # 1 MB here; 1 GB in use
    lines = (SAMPLE / "players_list_foa.txt").read_bytes().splitlines(keepends=True)
    with zipfile.ZipFile(tmp / "list.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("players_list_foa.txt", lines[0] + lines[1] * 20_000)  # 3 MB
    return _rate(GAMES, tmp / "out", tmp / "list.zip")


def zip_bomb_lying_header(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    import pipeline.readers.limits as limits

    args = zip_bomb_players(tmp, mp)
    mp.setattr(limits, "check_zip", lambda path, source: None)  # as if the header lied
    return args


def xlsx_shared_string_bomb(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    from openpyxl import Workbook

    import pipeline.readers.limits as limits

    mp.setattr(limits, "MAX_UNPACKED_BYTES", 1 << 20)
    book = Workbook()
    book.active.append(["white", "black", "result"])
    for i in range(3000):
        book.active.append([f"{i:07d}" + "x" * 500, "2", "1-0"])
    book.save(tmp / "games.xlsx")
    return _rate(tmp / "games.xlsx", tmp / "out")


def xlsx_huge_dimension(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    # A workbook claiming A1:XFD1048576 (16,384 x 1,048,576 cells) with one small table in it.
    from openpyxl import Workbook

    book = Workbook()
    for row in GAMES.read_text(encoding="utf-8").splitlines():
        book.active.append(row.split(","))
    book.save(tmp / "raw.xlsx")
    with zipfile.ZipFile(tmp / "raw.xlsx") as src, zipfile.ZipFile(tmp / "g.xlsx", "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b'<dimension ref="A1:F', b'<dimension ref="A1:XFD1048576"/><x ')
                data = data.replace(b"<x ", b"<!-- ", 1).replace(
                    b'"/><sheetViews', b"--><sheetViews", 1
                )
            dst.writestr(item, data)
    return _rate(tmp / "g.xlsx", tmp / "out")


def xlsx_not_a_zip(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "g.xlsx").write_bytes(b"this is not a workbook\n" * 50)
    return _rate(tmp / "g.xlsx", tmp / "out")


def xlsx_truncated(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    data = (SAMPLE / "crosstable.xlsx").read_bytes()
    (tmp / "c.xlsx").write_bytes(data[: len(data) // 2])
    return _rate(tmp / "c.xlsx", tmp / "out", None)


def huge_cell(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "g.csv").write_text(
        "event,round,white,black,result\nE,1,4100018,4100050," + "x" * 2_000_000 + "\n",
        encoding="utf-8",
    )
    return ["validate", str(tmp / "g.csv"), "--players", str(PLAYERS)]


def many_bad_rows(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    rows = "".join(f"E,{i},4100018,4100050,{i}:{i}\n" for i in range(1, 5001))
    (tmp / "g.csv").write_text("event,round,white,black,result\n" + rows, encoding="utf-8")
    return ["validate", str(tmp / "g.csv"), "--players", str(PLAYERS)]


def many_bad_rows_json(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return [*many_bad_rows(tmp, mp), "--json"]


def many_bad_rows_rate(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    many_bad_rows(tmp, mp)
    return _rate(tmp / "g.csv", tmp / "out")


def wide_csv(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    header = ",".join(f"c{i}" for i in range(100_000))
    (tmp / "g.csv").write_text(header + "\n" + ",".join("1" * 100_000) + "\n", encoding="utf-8")
    return _rate(tmp / "g.csv", tmp / "out")


def convert_too_many_players(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    rows = "".join(f"E,1,{i},{i + 1},1-0,1500,1500\n" for i in range(1, 10_003, 2))
    header = "event,round,white,black,result,white_rating,black_rating\n"
    (tmp / "g.csv").write_text(header + rows, encoding="utf-8")
    return ["convert", str(tmp / "g.csv"), "-o", str(tmp / "out" / "event.trf")]


def output_replaces_input(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    shutil.copy(GAMES, tmp / "games.csv")
    return _rate(tmp / "games.csv", tmp)


def convert_onto_its_input(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    shutil.copy(SAMPLE / "event.trf", tmp / "event.trf")
    return ["convert", str(tmp / "event.trf"), "-o", str(tmp / "event.trf")]


def full_width_rating_csv(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return _rate(GAMES, tmp / "out", _players_with(tmp, "p.csv", ",2712,", ",２７１２,"))


def superscript_rating_csv(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return _rate(GAMES, tmp / "out", _players_with(tmp, "p.csv", ",2712,", ",271²,"))


def full_width_rating_xlsx(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    import csv

    from openpyxl import Workbook

    book = Workbook()
    with PLAYERS.open(encoding="utf-8") as fh:
        for row in csv.reader(fh):
            book.active.append([c.replace("2712", "２７１２") for c in row])
    book.save(tmp / "p.xlsx")
    return _rate(GAMES, tmp / "out", tmp / "p.xlsx")


def full_width_rating_xml(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    text = (SAMPLE / "players_list_xml_foa.xml").read_text(encoding="utf-8")
    (tmp / "l.xml").write_text(text.replace("<rating>2712<", "<rating>２７１２<"), "utf-8")
    return _rate(GAMES, tmp / "out", tmp / "l.xml")


def full_width_rating_txt(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    text = (SAMPLE / "players_list_foa.txt").read_text(encoding="utf-8")
    (tmp / "l.txt").write_text(text.replace("  2712   9", "  ２７１２   9"), "utf-8")
    return _rate(GAMES, tmp / "out", tmp / "l.txt")


def superscript_in_trf(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    text = (SAMPLE / "event.trf").read_text(encoding="utf-8")
    (tmp / "e.trf").write_text(
        text.replace("     8 w 1     2 b 1", "     ⁸ w 1     2 b 1"), "utf-8"
    )
    return _rate(tmp / "e.trf", tmp / "out", None)


def full_width_rating_trf(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    text = (SAMPLE / "event.trf").read_text(encoding="utf-8")
    (tmp / "e.trf").write_text(text.replace(" 2712 POL", " ２７１２POL"), "utf-8")
    return _rate(tmp / "e.trf", tmp / "out", None)


def zero_games(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "g.csv").write_text("event,round,white,black,result\n", encoding="utf-8")
    return _rate(tmp / "g.csv", tmp / "out", None)


def out_is_a_file(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "out").write_text("a file", encoding="utf-8")
    return _rate(GAMES, tmp / "out")


def out_is_a_dangling_link(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "out").symlink_to(tmp / "nowhere" / "at-all")
    return _rate(GAMES, tmp / "out")


def out_read_only(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    # chmod does not stop root (CI runs as root): the OS error a read-only folder gives is raised
    # where the first output file is created.
    import tempfile

    def refuse(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp / "ro"))

    mp.setattr(tempfile, "mkstemp", refuse)
    return _rate(GAMES, tmp / "ro" / "out")


def out_disk_full(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    from pipeline.writers.xlsx import package as xlsx_package

    def full(self: xlsx_package.Book) -> None:
        self.path.write_bytes(b"PK\x03\x04partial")
        raise OSError(errno.ENOSPC, "No space left on device")

    mp.setattr(xlsx_package.Book, "save", full)
    return _rate(GAMES, tmp / "out")


def parquet_huge_float(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    table = pa.table({"id": ["4100018"], "name": ["A"], "rating": [1e20]})
    pq.write_table(table, tmp / "p.parquet")
    return ["validate", str(GAMES), "--players", str(tmp / "p.parquet")]


def parquet_nested(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    table = pa.table({"id": ["1"], "name": ["A"], "rating": [1500], "tags": [[1, 2]]})
    pq.write_table(table, tmp / "p.parquet")
    return ["validate", str(GAMES), "--players", str(tmp / "p.parquet")]


def parquet_bad_utf8(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    names = pa.array([b"\xff\xfe"], pa.binary())
    pq.write_table(pa.table({"id": ["1"], "name": names, "rating": [1500]}), tmp / "p.parquet")
    return ["validate", str(GAMES), "--players", str(tmp / "p.parquet")]


def xml_doctype(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "l.xml").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE playerslist [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c SYSTEM "file:///etc/passwd">]>\n'
        "<playerslist>\n<player><fideid>4100018</fideid><name>&b;&c;</name>"
        "<rating>2712</rating></player>\n</playerslist>\n",
        encoding="utf-8",
    )
    return _rate(GAMES, tmp / "out", tmp / "l.xml")


def xml_undeclared_entity(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "l.xml").write_text(
        "<playerslist>\n<player><fideid>4100018</fideid><name>&x;</name>"
        "<rating>2712</rating></player>\n</playerslist>\n",
        encoding="utf-8",
    )
    return _rate(GAMES, tmp / "out", tmp / "l.xml")


def nul_bytes_csv(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "g.csv").write_bytes(GAMES.read_bytes().replace(b"1-0", b"1\x00-0", 1))
    return _rate(tmp / "g.csv", tmp / "out")


def nul_bytes_trf(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "e.trf").write_bytes((SAMPLE / "event.trf").read_bytes().replace(b"Kowalski", b"Ko\x00"))
    return _rate(tmp / "e.trf", tmp / "out", None)


def utf16_csv(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "g.csv").write_bytes(GAMES.read_text(encoding="utf-8").encode("utf-16"))
    return _rate(tmp / "g.csv", tmp / "out")


def utf16_without_bom(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "g.csv").write_bytes(GAMES.read_text(encoding="utf-8").encode("utf-16-le"))
    return _rate(tmp / "g.csv", tmp / "out")


def utf16_trf(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "e.trf").write_bytes((SAMPLE / "event.trf").read_text(encoding="utf-8").encode("utf-16"))
    return _rate(tmp / "e.trf", tmp / "out", None)


CATALOGUE = [
    Case("1 zip bomb through --players", zip_bomb_players, 1, "[too-large]"),
    Case("1 zip bomb whose header lies", zip_bomb_lying_header, 1, "[too-large]"),
    Case("xlsx shared-strings bomb", xlsx_shared_string_bomb, 1, "[too-large]"),
    Case("xlsx huge declared dimensions", xlsx_huge_dimension, 0, ""),
    Case("xlsx that is not a zip", xlsx_not_a_zip, 1, "[not-a-table]"),
    Case("xlsx truncated", xlsx_truncated, 1, "[not-a-table]"),
    Case("2 a 2 MB bad cell", huge_cell, 1, "bad-result"),
    Case("2 5,000 bad rows (validate)", many_bad_rows, 1, "... and 4,800 more"),
    Case("2 5,000 bad rows (validate --json)", many_bad_rows_json, 1, '"more-problems"'),
    Case("2 5,000 bad rows (rate)", many_bad_rows_rate, 1, "... and 4800 more"),
    Case("3 a CSV with 100,000 columns", wide_csv, 1, "[too-wide]"),
    Case("4 convert 10,002 players to TRF", convert_too_many_players, 1, "[trf-too-large]"),
    Case("5 --out replaces the input", output_replaces_input, 1, "[output-replaces-input]"),
    Case("5 convert onto its own input", convert_onto_its_input, 1, "[output-replaces-input]"),
    Case("6 full-width rating (CSV)", full_width_rating_csv, 1, "[bad-rating]"),
    Case("6 superscript rating (CSV)", superscript_rating_csv, 1, "[bad-rating]"),
    Case("6 full-width rating (XLSX)", full_width_rating_xlsx, 1, "[bad-rating]"),
    Case("6 full-width rating (XML list)", full_width_rating_xml, 1, "[bad-rating]"),
    Case("6 full-width rating (TXT list)", full_width_rating_txt, 1, "[bad-rating]"),
    Case("6 superscript opponent (TRF)", superscript_in_trf, 1, "[result-mismatch]"),
    Case("6 full-width rating (TRF)", full_width_rating_trf, 1, "[bad-rating]"),
    Case("7 an event with zero games (nothing to rate)", zero_games, 1, "nothing to rate"),
    Case("9 --out is a file", out_is_a_file, 1, "[bad-output]"),
    Case("9 --out is a dangling symlink", out_is_a_dangling_link, 1, "[bad-output]"),
    Case("9 --out is read-only", out_read_only, 1, "[bad-output]"),
    Case("9 the disk fills while writing", out_disk_full, 1, "[bad-output]"),
    Case("10 parquet rating 1e20", parquet_huge_float, 1, "'1e+20'"),
    Case("10 parquet nested column", parquet_nested, 1, "nested"),
    Case("10 parquet invalid UTF-8", parquet_bad_utf8, 1, "bad-encoding"),
    Case("XML list with DOCTYPE and entities", xml_doctype, 1, "[not-allowed]"),
    Case("XML list with an undeclared entity", xml_undeclared_entity, 1, "[not-a-table]"),
    Case("NUL bytes in a CSV", nul_bytes_csv, 1, "[not-a-table]"),
    Case("NUL bytes in a TRF", nul_bytes_trf, 1, "[not-a-table]"),
    Case("UTF-16 CSV with BOM (Excel's Unicode text)", utf16_csv, 0, ""),
    Case("UTF-16 CSV without BOM", utf16_without_bom, 1, "[not-a-table]"),
    Case("UTF-16 TRF (refused: TRF is 8-bit text)", utf16_trf, 1, "[not-a-table]"),
]


@pytest.mark.parametrize("case", CATALOGUE, ids=[c.name for c in CATALOGUE])
def test_catalogue(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    args = case.build(work, monkeypatch)
    before = files_of(work)
    result, output = run_hostile(args, case.exit_code)
    assert case.code in output, output[-3000:]
    if result.exit_code != 0:
        assert_nothing_written(work, before)
