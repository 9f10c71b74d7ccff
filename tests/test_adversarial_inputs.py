"""The hostile-input catalogue of the readers (issue 26): files cut short, endless inputs, floods of
problems, round numbers, dates, hidden characters and escape sequences. Each case is built here
with the ``Case`` pattern of tests/test_adversarial.py and holds the same promises: the exit
code, the problem named, no traceback or internal error, a bounded report, and nothing written
when the run fails; ``also``/``never`` are further texts the output must hold or must not.

Limits that would need gigabytes (the 2 GB input bound, the 1,000 problems kept) are lowered with
monkeypatch; the code path is the same.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT, SAMPLE, run_cli
from tests.helpers import assert_nothing_written, files_of, run_hostile
from tests.test_adversarial import GAMES, PLAYERS, Case, _players_with, _rate

TRF = SAMPLE / "event.trf"
SHARED_TRF = ROOT.parent / "shared" / "trf"
UNIX_ONLY = pytest.mark.skipif(sys.platform == "win32", reason="no FIFO or /dev/zero on Windows")


@dataclass(frozen=True)
class InputCase(Case):
    also: tuple[str, ...] = ()  # further texts the output must hold
    never: tuple[str, ...] = ()  # texts it must not hold


def _check(case: Case, work: Path, mp: pytest.MonkeyPatch) -> str:
    """Run ``case`` in ``work`` and check every promise; the output (stdout + stderr)."""
    args = case.build(work, mp)
    before = files_of(work)
    result, output = run_hostile(args, case.exit_code)
    assert case.code in output, output[-3000:]
    if isinstance(case, InputCase):
        for text in case.also:
            assert text in output, (text, output[-3000:])
        for text in case.never:
            assert text not in output, (text, output[-3000:])
    if result.exit_code != 0:
        assert_nothing_written(work, before)
    return output


# --- 1: a TRF cut mid-line --------------------------------------------------------------------


def trf_cut_mid_line(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "e.trf").write_bytes(TRF.read_bytes()[:1400])  # inside player 9's record
    return _rate(tmp / "e.trf", tmp / "out", None)


# --- 7: endless inputs, and the size bound -----------------------------------------------------


def dev_zero_event(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return _rate("/dev/zero", tmp / "out", None)


def dev_zero_players(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return _rate(GAMES, tmp / "out", "/dev/zero")


def dev_zero_convert(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return ["convert", "/dev/zero", "-o", str(tmp / "out" / "e.trf")]


def dev_zero_period_list(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    events = SAMPLE / "period" / "events"
    return ["period", "--list", "/dev/zero", "--events", str(events), "--period", "2026-11"] + [
        "--out",
        str(tmp / "out"),
    ]


def players_a_folder(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "lists").mkdir()
    (tmp / "lists" / "players.csv").write_bytes(PLAYERS.read_bytes())
    return _rate(GAMES, tmp / "out", tmp / "lists")


def over_the_size_bound(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    import pipeline.readers.limits as limits

    mp.setattr(limits, "MAX_INPUT_BYTES", 1000)  # 2 GB in use; the sample games are 1.3 KB
    return _rate(GAMES, tmp / "out", None)


def players_over_the_size_bound(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    import pipeline.readers.limits as limits

    mp.setattr(limits, "MAX_INPUT_BYTES", 1000)  # the sample players list is 1.1 KB
    return _rate(GAMES, tmp / "out", PLAYERS)


# --- 8: problems and fields of unbounded size ---------------------------------------------------


def trf_long_line(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    text = TRF.read_bytes().replace(b" 3 w =\r\n", b" 3 w =" + b"   1 w 1  " * 2000 + b"\r\n", 1)
    (tmp / "e.trf").write_bytes(text)
    return _rate(tmp / "e.trf", tmp / "out", None)


# --- 13: round numbers ----------------------------------------------------------------------------


def _games_with_rounds(tmp: Path, rounds: list[str]) -> Path:
    rows = GAMES.read_text(encoding="utf-8").splitlines()
    header, body = rows[0], rows[1:]
    assert header.startswith("event,round,")
    changed = [
        f"{cells[0]},{rounds[i]},{','.join(cells[2:])}" if i < len(rounds) else line
        for i, (line, cells) in enumerate((line, line.split(",")) for line in body)
    ]
    (tmp / "g.csv").write_text("\n".join([header, *changed]) + "\n", encoding="utf-8")
    return tmp / "g.csv"


def round_zero_padded(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    # 4100018 plays round 1 at row 2; a game of his in round "01" is a second game in round 1.
    path = _games_with_rounds(tmp, [])
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "Autumn Open 2026,01,2026-11-07,4100018,4100093,1-0\n", "utf-8")
    return _rate(path, tmp / "out")


def round_negative(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return _rate(_games_with_rounds(tmp, ["-1"]), tmp / "out")


def round_huge(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return _rate(_games_with_rounds(tmp, ["1e308"]), tmp / "out")


def round_arabic_indic(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return _rate(_games_with_rounds(tmp, ["\u0661"]), tmp / "out")


# --- 14: escapes, invisible characters, empty files, dates -------------------------------------

ESCAPES = "\x1b[2J\x1b]0;owned\x07"


def escape_in_a_name(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    players = _players_with(tmp, "p.csv", "Kowalski", f"Kowal{ESCAPES}ski")
    return ["rate", str(GAMES), "--players", str(players), "--period", "2026-11"] + [
        "--out",
        str(tmp / "out"),
    ]


def escape_in_a_file_name(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    path = tmp / f"g{ESCAPES}.csv"
    path.write_text(GAMES.read_text(encoding="utf-8").replace("1-0", "9-9", 1), "utf-8")
    return _rate(path, tmp / "out")


def csv_header_200k(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    # Over the csv module's field limit (131,072), where the header parse used to crash.
    body = GAMES.read_text(encoding="utf-8").split("\n", 1)[1]
    (tmp / "g.csv").write_text("event,round,white,black,result" + "x" * 200_000 + "\n" + body)
    return _rate(tmp / "g.csv", tmp / "out")


def bom_inside_a_players_id(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    return _rate(GAMES, tmp / "out", _players_with(tmp, "p.csv", "\n4100018,", "\n\ufeff4100018,"))


def zero_width_inside_a_games_id(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "g.csv").write_text(
        GAMES.read_text(encoding="utf-8").replace(",4100050,", ",41000\u200b50,", 1), "utf-8"
    )
    return _rate(tmp / "g.csv", tmp / "out")


def individual_header_only(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "i.csv").write_text("player,rating,opponent_rating,result\n", encoding="utf-8")
    return _rate(tmp / "i.csv", tmp / "out", None)


def game_dated_0001(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "g.csv").write_text(
        GAMES.read_text(encoding="utf-8").replace("2026-11-07", "0001-11-07", 1), "utf-8"
    )
    return _rate(tmp / "g.csv", tmp / "out")


def game_dated_9999(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "g.csv").write_text(
        GAMES.read_text(encoding="utf-8").replace("2026-11-21", "9999-12-31", 1), "utf-8"
    )
    return _rate(tmp / "g.csv", tmp / "out")


def trf_start_9999(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "e.trf").write_text(
        TRF.read_text(encoding="utf-8").replace("042 2026/11/07", "042 9999/11/07"), "utf-8"
    )
    return ["validate", str(tmp / "e.trf")]


OUTSIDE = "outside the dates we rate (1970-01-01 to 2099-12-31)"
CATALOGUE = [
    InputCase(
        "1 a TRF cut mid-line",
        trf_cut_mid_line,
        1,
        "[truncated-file]",
        also=("062 announces 10 players, but only 8", "(row 19) ends mid-record"),
    ),
    InputCase("7 /dev/zero as an event", dev_zero_event, 1, "[not-a-file]", also=("a device",)),
    InputCase("7 /dev/zero as --players", dev_zero_players, 1, "[not-a-file]"),
    InputCase("7 /dev/zero through convert", dev_zero_convert, 1, "[not-a-file]"),
    InputCase("7 /dev/zero as period --list", dev_zero_period_list, 1, "[not-a-file]"),
    InputCase("14 --players is a folder", players_a_folder, 1, "[not-a-file]", also=("folder",)),
    InputCase(
        "7 an event over the size bound",
        over_the_size_bound,
        1,
        "[too-large]",
        also=("holds 1,313 bytes, more than the 1,000 bytes we read",),
    ),
    InputCase(
        "7 a players list over the size bound", players_over_the_size_bound, 1, "[too-large]"
    ),
    InputCase(
        "8 a TRF line of 20,000 characters",
        trf_long_line,
        1,
        "[too-large]",
        also=("characters long; no TRF record is longer than 10,081",),
        never=("[bad-value]", "[unknown-player]"),
    ),
    InputCase(
        "13 round 01 is round 1 (paired twice)",
        round_zero_padded,
        1,
        "[paired-twice]",
        also=("paired twice in round 1",),
    ),
    InputCase("13 round -1", round_negative, 1, "value '-1'", also=("[bad-value]",)),
    InputCase("13 round 1e308", round_huge, 1, "value '1e308'", also=("round is not a whole",)),
    InputCase("13 round in Arabic-Indic digits", round_arabic_indic, 1, "round is not a whole"),
    InputCase(
        "14 escape and bell in a name (summary)",
        escape_in_a_name,
        0,
        "Kowal\\x1b[2J\\x1b]0;owned\\x07ski",
        never=("\x1b", "\x07"),
    ),
    InputCase(
        "14 escape and bell in a file name (message)",
        escape_in_a_file_name,
        1,
        "g\\x1b[2J\\x1b]0;owned\\x07.csv",
        never=("\x1b", "\x07"),
    ),
    InputCase(
        "14 a CSV header of 200,000 characters",
        csv_header_200k,
        1,
        "[too-wide]",
        also=("200,030 characters long",),
    ),
    InputCase(
        "14 a BOM inside an id of players.csv",
        bom_inside_a_players_id,
        1,
        "[bad-id]",
        also=("p.csv, row 2, column 'id'", "invisible character", "\\ufeff4100018"),
        never=("[unknown-player]",),
    ),
    InputCase(
        "14 a zero-width space inside a games id",
        zero_width_inside_a_games_id,
        1,
        "invisible character",
        also=("g.csv, row 2, column 'black'", "41000\\u200b50"),
    ),
    InputCase(
        "14 an individual file with a header only",
        individual_header_only,
        1,
        "nothing to rate",
    ),
    InputCase("14 a game dated 0001", game_dated_0001, 1, OUTSIDE, also=("'0001-11-07'",)),
    InputCase("14 a game dated 9999", game_dated_9999, 1, OUTSIDE, also=("'9999-12-31'",)),
    InputCase("14 a TRF starting in 9999", trf_start_9999, 1, "start date 9999-11-07 is outside"),
]
NEEDS_DEV_ZERO = {c.name for c in CATALOGUE if "/dev/zero" in c.name}


@pytest.mark.parametrize("case", CATALOGUE, ids=[c.name for c in CATALOGUE])
def test_catalogue(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if case.name in NEEDS_DEV_ZERO and not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    if "escape" in case.name and "file name" in case.name and sys.platform == "win32":
        pytest.skip("Windows file names cannot hold control characters")
    work = tmp_path / "work"
    work.mkdir()
    _check(case, work, monkeypatch)


# Set in the run below, so that its own copy of this file does not start it again.
UNDER_THE_LIMIT = "FIDERATE_TEST_ADDRESS_LIMIT"
ADDRESS_LIMIT = 2_000_000_000  # bytes


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="RLIMIT_AS bounds address space on Linux only"
)
@pytest.mark.skipif(bool(os.environ.get(UNDER_THE_LIMIT)), reason="this is the limited run")
def test_catalogue_under_a_2gb_address_space_limit() -> None:
    """The catalogue again, in a process of at most 2 GB of address space (``ulimit -v``, a small
    container): a read of a 2 KB file once asked for the whole 2 GiB input bound at once
    (MemoryError). Arrow's mimalloc reserves 1 GiB of address space up front whatever the input,
    and glibc 64 MB per thread; the allocator's own setting lowers the first, so that what is
    measured is what the readers ask for."""
    code = (
        "import resource, sys, pytest\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_LIMIT}, {ADDRESS_LIMIT}))\n"
        f"sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', {__file__!r}, "
        "'-k', 'test_catalogue']))\n"
    )
    env = {**os.environ, UNDER_THE_LIMIT: "1", "MIMALLOC_ARENA_RESERVE": "64M"}
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert ran.returncode == 0, (ran.stdout + ran.stderr)[-4000:]
    assert " passed" in ran.stdout and "failed" not in ran.stdout, ran.stdout[-2000:]


def test_truncated_trf_says_so_first_then_a_few_more(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    output = _check(CATALOGUE[0], work, monkeypatch)
    first = output.split("problem(s) found:\n", 1)[1].lstrip()
    assert first.startswith("[truncated-file]"), output[:2000]


@pytest.mark.skipif(not SHARED_TRF.is_dir(), reason="the shared real TRF files are absent")
@pytest.mark.parametrize(
    ("name", "cut", "announced", "found"),
    [("open-gros-2010-r4.trf", 3000, 52, 20), ("karl-mala-2005.trf", 5000, 284, 30)],
)
def test_real_trf_cut_short(tmp_path, monkeypatch, name, cut, announced, found):
    from pipeline.readers.events.trf_file import FOLLOW_UPS

    source = SHARED_TRF / name
    if not source.is_file():
        pytest.skip(f"{name} is absent")

    def build(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
        (tmp / name).write_bytes(source.read_bytes()[:cut])
        return ["validate", str(tmp / name)]

    case = InputCase(
        f"1 {name} cut",
        build,
        1,
        f"062 announces {announced} players, but only {found} player records",
        also=("truncated-file", "more"),
    )
    work = tmp_path / "work"
    work.mkdir()
    output = _check(case, work, monkeypatch)
    table = output.splitlines()
    assert "truncated-file" in table[1], table[:3]  # the first row under the header
    listed = [line for line in table[1:] if line.startswith(str(work / name))]
    assert len(listed) == 1 + FOLLOW_UPS, listed


@UNIX_ONLY
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no os.mkfifo")
@pytest.mark.parametrize("role", ["event", "players", "period events"])
def test_a_fifo_is_refused_without_opening_it(tmp_path, monkeypatch, role):
    fifo = tmp_path / "work" / "pipe.csv"
    fifo.parent.mkdir()
    os.mkfifo(fifo)

    # Were the FIFO opened for reading, each open would block forever: a writer that opens and
    # closes it every half second ends each wait (the reader sees an empty file), so such code
    # fails this test instead of hanging it.
    done = threading.Event()

    def release() -> None:
        while not done.wait(0.5):
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:  # no reader: the FIFO is not open, as it should be
                pass

    writer = threading.Thread(target=release, daemon=True)
    writer.start()
    try:
        if role == "event":
            args = _rate(fifo, tmp_path / "work" / "out", None)
        elif role == "players":
            args = _rate(GAMES, tmp_path / "work" / "out", fifo)
        else:
            args = ["period", "--list", str(SAMPLE / "period" / "list_2026-11.csv")]
            args += ["--events", str(fifo), "--period", "2026-11", "--out"]
            args += [str(tmp_path / "work" / "out")]
        result = run_cli(*args)
    finally:
        done.set()
        writer.join()
    output = result.stdout + result.stderr
    assert result.exit_code == 1, output
    assert "[not-a-file]" in output and "named pipe (FIFO)" in output, output
    assert "save the data to a file first" in output, output
    assert not (tmp_path / "work" / "out").exists()


def test_problems_past_the_cap_are_counted_not_built(tmp_path, monkeypatch):
    """5,000 bad rows with the cap lowered to 50: at most 50 problems (and one per file for the
    count) are ever built, and the report still says how many there were."""
    import pipeline.errors as errors

    monkeypatch.setattr(errors, "KEEP_LIMIT", 50)
    built = []
    original = errors.Problem.__post_init__

    def counted(self: errors.Problem) -> None:
        built.append(self.code)
        original(self)

    monkeypatch.setattr(errors.Problem, "__post_init__", counted)
    rows = "".join(f"E,{i},4100018,4100050,{i}:{i}\n" for i in range(1, 5001))
    (tmp_path / "g.csv").write_text("event,round,white,black,result\n" + rows, encoding="utf-8")
    result = run_cli(*_rate(tmp_path / "g.csv", tmp_path / "out"))
    output = result.stdout + result.stderr
    assert result.exit_code == 1, output[-2000:]
    assert "5000 problem(s) found:" in output, output[:300]
    assert "... and 4950 more" in output, output[-300:]
    assert built.count("bad-result") <= 50, len(built)
    assert len(built) < 120, len(built)  # the kept ones, the count, and the report's own
    assert not (tmp_path / "out").exists()


def test_validate_json_counts_the_problems_not_kept(tmp_path, monkeypatch):
    import json

    import pipeline.errors as errors

    monkeypatch.setattr(errors, "KEEP_LIMIT", 30)
    rows = "".join(f"E,{i},4100018,4100050,{i}:{i}\n" for i in range(1, 1001))
    (tmp_path / "g.csv").write_text("event,round,white,black,result\n" + rows, encoding="utf-8")
    result = run_cli("validate", tmp_path / "g.csv", "--players", PLAYERS, "--json")
    assert result.exit_code == 1, result.output[-2000:]
    listed = json.loads(result.stdout)["problems"]
    assert [p["code"] for p in listed].count("bad-result") == 30
    assert listed[-1]["code"] == "more-problems"
    assert "970 more problem(s)" in listed[-1]["message"], listed[-1]
