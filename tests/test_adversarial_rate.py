"""The hostile-input catalogue (issue 26) for rate, validate, convert and the reports: each case
is an input built here, the command it goes through, the exit code and the text the output
must hold. The general promises are those of tests/test_adversarial.py (its Case): no
traceback, a message, and nothing written when the run fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLE, run_cli
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


CATALOGUE = [
    Case("9 the same games file twice", same_file_twice, 1, "[duplicate-event]"),
    Case("9 a renamed CRLF copy", renamed_crlf_copy, 1, "copy.csv"),
    Case("9 event.trf plus the same games as CSV", trf_and_its_games, 1, "event.trf"),
    Case("9 validate: event.trf plus games.csv", trf_and_its_games_validate, 1, "duplicate-event"),
]


@pytest.mark.parametrize("case", CATALOGUE, ids=[c.name for c in CATALOGUE])
def test_catalogue(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    args = case.build(work, monkeypatch)
    before = {p: p.read_bytes() for p in work.rglob("*") if p.is_file()}
    result = run_cli(*args)
    output = result.stdout + result.stderr
    assert result.exit_code == case.exit_code, output[-3000:]
    assert "Traceback" not in output and "internal error" not in output, output[-3000:]
    assert case.code in output, output[-3000:]
    if result.exit_code != 0:
        assert output.strip()
        after = {p for p in work.rglob("*") if p.is_file() or p.is_dir()}
        assert after <= set(before) | {p.parent for p in before} | {work / "out"}
        for path, data in before.items():
            assert path.read_bytes() == data, path
        out = work / "out"
        assert not out.is_dir() or not any(out.iterdir())
