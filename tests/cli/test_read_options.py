"""--input-format, --column and --sheet reach the readers the same way on every command that
reads event files (cli/options.py: read_options hands them over as one ReadOptions)."""

from __future__ import annotations

import pytest
from openpyxl import Workbook

from tests.conftest import run_cli

READING = [
    "--input-format",
    "crosstable",
    "--sheet",
    "Wanted",
    *("--column", "Start=number", "--column", "Spieler=name"),
    *("--column", "Wertung=rating", "--column", "A=round"),
]


def crosstable_book(path):
    """Two sheets of the same event: only "Wanted" (2000 / 1800) is to be read; none of the
    headers is one the crosstable reader knows without --column."""
    book = Workbook()
    book.remove(book.active)
    for title, ratings in (("Other", (1900, 1700)), ("Wanted", (2000, 1800))):
        sheet = book.create_sheet(title)
        sheet.append(["Start", "Spieler", "Wertung", "A"])
        sheet.append([1, "Ann", ratings[0], "2w1"])
        sheet.append([2, "Bob", ratings[1], "1b0"])
    book.save(path)
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["validate"],
        ["norms"],
        ["rate", "--no-xlsx", "--no-html", "-q", "--period", "2026-11", "--out", "{tmp}/rate"],
        ["convert", "-o", "{tmp}/event.trf"],
    ],
    ids=lambda c: c[0],
)
def test_every_reading_command_takes_the_reading_options(tmp_path, command):
    book = crosstable_book(tmp_path / "ct.xlsx")
    args = [a.format(tmp=tmp_path) for a in command[1:]]
    without = run_cli(command[0], book, *args)
    assert without.exit_code == 1
    assert "missing-column" in without.stdout + without.stderr
    given = run_cli(command[0], book, *args, *READING)
    assert "missing-column" not in given.stdout + given.stderr
    if command[0] == "norms":  # read fine; the event gives no titles, so there is no norm
        assert given.exit_code == 1 and "no player has a title" in given.stderr
    else:
        assert given.exit_code == 0, given.stderr


def test_the_sheet_chosen_is_the_one_read(tmp_path):
    book = crosstable_book(tmp_path / "ct.xlsx")
    result = run_cli("convert", book, "-o", tmp_path / "event.trf", *READING)
    assert result.exit_code == 0, result.stderr
    players = [
        line for line in (tmp_path / "event.trf").read_text().splitlines() if line[:3] == "001"
    ]
    ratings = sorted(int(line[48:52]) for line in players)  # TRF 001: rating in columns 49-52
    assert ratings == [1800, 2000]
