"""The hostile-input catalogue (issue 26) for rate, validate, convert and the reports: each case
is an input built here, the command it goes through, the exit code and the text the output
must hold. The general promises are those of tests/test_adversarial.py (its Case): no
traceback, a message, and nothing written when the run fails.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from tests.conftest import SAMPLE
from tests.helpers import assert_nothing_written, files_of, run_hostile
from tests.test_adversarial import GAMES, PLAYERS, Case, _rate

TRF = SAMPLE / "event.trf"


def _validate(*files: Path | str) -> list[str]:
    return ["validate", *map(str, files), "--players", str(PLAYERS)]


def _convert(tmp: Path, *options: str, source: Path = TRF) -> list[str]:
    return ["convert", str(source), "-o", str(tmp / "out" / "event.trf"), *options]


# --- 9: the same games twice -------------------------------------------------------------------


def same_file_twice(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return [*_rate(GAMES, tmp / "out"), str(GAMES)]


def renamed_crlf_copy(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "copy.csv").write_bytes(GAMES.read_bytes().replace(b"\n", b"\r\n"))
    return [*_rate(GAMES, tmp / "out"), str(tmp / "copy.csv")]


def trf_and_its_games(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return [*_rate(TRF, tmp / "out"), str(GAMES)]


def trf_and_its_games_validate(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return _validate(TRF, GAMES)


def period_same_games_as_trf_and_csv(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    events = tmp / "events"
    events.mkdir()
    (events / "event.trf").write_bytes(TRF.read_bytes())
    (events / "games.csv").write_bytes(GAMES.read_bytes())
    args = ["period", "--list", str(PLAYERS), "--events", str(events), "--period", "2026-11"]
    return [*args, "--out", str(tmp / "out")]


# --- 2: convert's dates, validate's dates ------------------------------------------------------


def convert_end_before_start(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return _convert(tmp, "--start", "2026-11-30", "--end", "2026-11-01")


def convert_end_before_last_round(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return _convert(tmp, "--end", "2026-11-15")


def convert_games_csv_end_before_its_games(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return _convert(tmp, "--end", "2026-11-10", "--players", str(PLAYERS), source=GAMES)


def trf_end_before_start(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "e.trf").write_bytes(TRF.read_bytes().replace(b"052 2026/11/21", b"052 2026/11/01"))
    return ["validate", str(tmp / "e.trf")]


def trf_end_before_start_rate(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    trf_end_before_start(tmp, mp)
    return _rate(tmp / "e.trf", tmp / "out", None)


def convert_games_file_with_header_option(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return ["convert", str(TRF), "--to", "csv", "-o", str(tmp / "out" / "e.csv"), "--city", "X"]


# --- 6: an event older than the earliest era ---------------------------------------------------


def event_of_2005(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    text = GAMES.read_text(encoding="utf-8").replace("2026-11-", "2005-03-")
    (tmp / "g.csv").write_text(text, encoding="utf-8")
    return ["rate", str(tmp / "g.csv"), "--players", str(PLAYERS), "--out", str(tmp / "out")]


# --- 15: reports name files, not the organiser's folders ---------------------------------------


def deep_folder_report(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    folder = tmp / "Users" / "zq-organiser" / "Private"
    folder.mkdir(parents=True)
    (folder / "open.trf").write_bytes(TRF.read_bytes())
    return ["rate", str(folder / "open.trf"), "--out", str(tmp / "out"), "-q"]


# A folder name no written output of any case may hold (deep_folder_report puts its input there).
_FORBIDDEN = b"zq-organiser"


CATALOGUE = [
    Case("9 the same games file twice", same_file_twice, 1, "[duplicate-event]"),
    Case("9 a renamed CRLF copy", renamed_crlf_copy, 1, "copy.csv"),
    Case("9 event.trf plus the same games as CSV", trf_and_its_games, 1, "event.trf"),
    Case("9 validate: event.trf plus games.csv", trf_and_its_games_validate, 1, "duplicate-event"),
    Case(
        "9 period: a TRF and its games as CSV", period_same_games_as_trf_and_csv, 1, "are those of"
    ),
    Case("2 convert --end before --start", convert_end_before_start, 1, "[date-order]"),
    Case("2 convert --end before the last round", convert_end_before_last_round, 1, "2026-11-21"),
    Case(
        "2 convert a CSV, --end before its games",
        convert_games_csv_end_before_its_games,
        1,
        "date-order",
    ),
    Case("2 validate a TRF ending before it starts", trf_end_before_start, 1, "date-order"),
    Case("2 rate a TRF ending before it starts", trf_end_before_start_rate, 1, "[date-order]"),
    Case("2 convert --to csv with --city", convert_games_file_with_header_option, 2, "--city"),
    Case("6 a 2005 event", event_of_2005, 0, "before the earliest FIDE rules known here"),
    Case("15 an input deep in private folders", deep_folder_report, 0, ""),
]


@pytest.mark.parametrize("case", CATALOGUE, ids=[c.name for c in CATALOGUE])
def test_catalogue(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    args = case.build(work, monkeypatch)
    before = files_of(work)
    result, output = run_hostile(args, case.exit_code)
    assert case.code in output, output[-3000:]
    for path in (work / "out").rglob("*"):  # no written output (reports, xlsx, CSV) holds it
        data = [path.read_bytes()]
        if path.suffix == ".xlsx":
            with zipfile.ZipFile(path) as book:
                data = [book.read(n) for n in book.namelist()]
        assert all(_FORBIDDEN not in d for d in data), path.name
    if result.exit_code != 0:
        assert_nothing_written(work, before)
