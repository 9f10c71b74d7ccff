"""How the readers read a file within the input bound (pipeline/readers/limits.py): sized by what
the file holds, never by the bound, and on past the size its status gives."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

from pipeline.errors import InputError
from pipeline.readers import limits

# A regular file whose status says 0 bytes while it holds text: what a file that grows while it
# is read looks like to the reader.
PROC_STATUS = Path("/proc/self/status")
NEEDS_PROC = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not PROC_STATUS.is_file(), reason="no /proc here"
)


@pytest.mark.parametrize("size", [0, 1, 4096, (1 << 20) + 7])
def test_read_input_returns_the_whole_file(tmp_path: Path, size: int) -> None:
    data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    (tmp_path / "f").write_bytes(data)
    assert limits.read_input(tmp_path / "f") == data


@NEEDS_PROC
def test_read_input_reads_past_the_size_the_status_gives(monkeypatch) -> None:
    monkeypatch.setattr(limits, "READ_CHUNK", 16)  # several chunks past the stated 0 bytes
    assert PROC_STATUS.stat().st_size == 0
    data = limits.read_input(PROC_STATUS)
    assert data.startswith(b"Name:") and b"\nPid:" in data and data.endswith(b"\n"), data


@NEEDS_PROC
def test_a_file_that_outgrows_the_bound_while_read_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(limits, "MAX_INPUT_BYTES", 100)  # /proc/self/status holds ~1.5 KB
    monkeypatch.setattr(limits, "READ_CHUNK", 16)
    with pytest.raises(InputError) as caught:
        limits.read_input(PROC_STATUS)
    (problem,) = caught.value.problems
    assert problem.code == "too-large" and "more than the 100 bytes we read" in problem.message


def test_a_capped_stream_reads_all_in_chunks(tmp_path: Path, monkeypatch) -> None:
    """``read()`` of a zipped member asks the member for a chunk at a time, never for the whole
    1 GiB bound at once."""
    text = b"".join(b"%06d some player\n" % i for i in range(5000))
    with zipfile.ZipFile(tmp_path / "l.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("l.txt", text)
    asked: list[int] = []
    monkeypatch.setattr(limits, "READ_CHUNK", 4096)
    with zipfile.ZipFile(tmp_path / "l.zip") as archive, archive.open("l.txt") as member:
        original = member.read
        member.read = lambda n=-1: asked.append(n) or original(n)  # type: ignore[method-assign]
        assert limits.CappedStream(member, "l.zip").read() == text
    assert asked and max(asked) == 4096, asked


def test_a_capped_stream_refuses_past_the_bound(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(limits, "MAX_UNPACKED_BYTES", 1000)
    with zipfile.ZipFile(tmp_path / "l.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("l.txt", b"0" * 5000)
    with zipfile.ZipFile(tmp_path / "l.zip") as archive, archive.open("l.txt") as member:
        with pytest.raises(InputError, match="unpacks to more than"):
            limits.CappedStream(member, "l.zip").read()
