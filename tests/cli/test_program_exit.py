"""The ``fiderate`` program ends its process itself once a command is over (``cli.main``): its
exit status and everything it printed must be exactly what a normal exit gives."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.cli import exit_status


def _program(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


@pytest.mark.parametrize(
    ("code", "status"), [(None, 0), (0, 0), (1, 1), (2, 2), (141, 141), ("bad", 1)]
)
def test_exit_status_is_the_interpreters(code: object, status: int) -> None:
    assert exit_status(code) == status


def test_a_message_as_exit_code_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert exit_status("the run stopped") == 1
    assert capsys.readouterr().err == "the run stopped\n"


def test_success_prints_everything_before_the_process_ends() -> None:
    # The table is printed through a buffered stdout; os._exit skips the interpreter's flush,
    # so without the program's own flush the pipe would get a truncated table.
    done = _program("table")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) > 15
    assert lines[-1].startswith("800")  # the last row came through
    assert done.stdout == _program("table").stdout


def test_usage_error_exits_2_with_click_s_message() -> None:
    done = _program("calc", "--no-such-option")
    assert done.returncode == 2
    assert "No such option" in done.stderr


def test_bad_input_exits_1_and_writes_nothing(tmp_path: Path) -> None:
    games = tmp_path / "games.csv"
    games.write_text("white,black,result\nA,B,2-0\n", encoding="utf-8")
    out = tmp_path / "out"
    done = _program("rate", str(games), "--period", "2026-11", "--out", str(out))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert str(games) in done.stderr
    assert not out.exists()


def test_a_rated_event_is_complete_on_disk_when_the_process_ends(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "out"
    done = _program(
        "rate", str(root / "sample_data" / "games.csv"), "--players",
        str(root / "sample_data" / "players.csv"), "--period", "2026-11", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = (out / "rating_list.csv").read_text(encoding="utf-8").splitlines()
    players = (root / "sample_data" / "players.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) > 1 and rows[0].startswith("id,")
    assert len(rows) <= len(players)
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


class _Ended(Exception):
    pass


def test_the_streams_are_flushed_before_the_process_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    import pipeline.cli as program

    events: list[str] = []

    class Stream(io.StringIO):
        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

        def flush(self) -> None:
            events.append(f"flush {self.name}")
            super().flush()

    def end(status: int) -> None:
        events.append(f"exit {status}")
        raise _Ended

    monkeypatch.setattr(sys, "stdout", Stream("stdout"))
    monkeypatch.setattr(sys, "stderr", Stream("stderr"))
    monkeypatch.setattr(program.os, "_exit", end)
    for args, status in ((["calc", "1650", "--vs", "1800:1"], 0), (["calc", "--nope"], 2)):
        events.clear()
        monkeypatch.setattr(sys, "argv", ["fiderate", *args])
        with pytest.raises(_Ended):
            program.main()
        assert events[-3:] == ["flush stdout", "flush stderr", f"exit {status}"]
