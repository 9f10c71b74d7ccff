"""An input held in memory (``model.InputFile``: an upload's name and bytes) is read as its file
would be: every format, the same frames, the same problems with the same codes, rows, columns and
values, the file named by its name instead of its path; the same bounds (issue 35)."""

from __future__ import annotations

import dataclasses
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from pipeline.errors import InputError, Problem
from pipeline.model import InputFile
from pipeline.readers import limits, read_event_file, read_players
from tests.conftest import SAMPLE

EVENTS = sorted(
    p
    for p in [*SAMPLE.iterdir(), *(SAMPLE / "broken").iterdir()]
    if p.suffix in {".trf", ".csv", ".xlsx"} and not p.name.startswith("players")
)
LISTS = [
    SAMPLE / "players.csv",
    SAMPLE / "players_list_foa.txt",
    SAMPLE / "players_list_xml_foa.xml",
]


def uploaded(path: Path, name: str | None = None) -> InputFile:
    return InputFile(name or path.name, path.read_bytes())


def named(problem: Problem, path: Path, name: str) -> dict[str, object]:
    """The problem's fields, the path's text written as ``name`` wherever it appears."""
    return {
        key: value.replace(str(path), name) if isinstance(value, str) else value
        for key, value in dataclasses.asdict(problem).items()
    }


def outcome(read, source):  # noqa: ANN001, ANN201 - a reader and its input
    try:
        return read(source), None
    except InputError as exc:
        return None, exc


def same_frames(left: object, right: object) -> None:
    """Every frame of two read values equal (a games input, a players list), their ``source``
    fields apart (a path's text, an upload's name)."""
    assert type(left) is type(right)
    for field in dataclasses.fields(left):  # type: ignore[arg-type]
        a, b = getattr(left, field.name), getattr(right, field.name)
        if isinstance(a, pd.DataFrame):
            checked = [c for c in a.columns if c != "source"]
            pd.testing.assert_frame_equal(a[checked], b[checked])
        elif dataclasses.is_dataclass(a) and not isinstance(a, type):
            same_frames(a, b)


@pytest.mark.parametrize("path", EVENTS, ids=lambda p: p.name)
def test_an_uploaded_event_reads_as_its_file(path: Path) -> None:
    # Another name for a broken file (its problems must name the upload by it); a good one keeps
    # its name, which a games table without an event column takes as the event's.
    on_disk, disk_error = outcome(read_event_file, path)
    name = path.name if disk_error is None else f"upload{path.suffix}"
    held, held_error = outcome(read_event_file, uploaded(path, name))
    assert (disk_error is None) == (held_error is None)
    if disk_error is not None:
        assert held_error is not None
        assert [named(p, path, name) for p in disk_error.problems] == [
            dataclasses.asdict(p) for p in held_error.problems
        ]
        assert all(p.file in ("", name) for p in held_error.problems)
        return
    same_frames(on_disk, held)
    frame = held.games if hasattr(held, "games") else held.sides
    assert set(frame["source"]) == {name}


@pytest.mark.parametrize("path", LISTS, ids=lambda p: p.name)
def test_an_uploaded_list_reads_as_its_file(path: Path) -> None:
    same_frames(read_players(path), read_players(uploaded(path)))
    assert read_players(uploaded(path)).source == path.name


def test_a_zipped_fide_list_uploaded_reads_as_its_file(tmp_path: Path) -> None:
    zipped = tmp_path / "players_list.zip"
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(SAMPLE / "players_list_foa.txt", "players_list_foa.txt")
    same_frames(read_players(zipped), read_players(uploaded(zipped)))


def test_a_broken_list_upload_has_the_files_problems_under_its_name(tmp_path: Path) -> None:
    broken = tmp_path / "players.csv"
    broken.write_text("id,name,rating\n1,A,25OO\n2,B,\n1,C,2100\n", encoding="utf-8")
    _, disk_error = outcome(read_players, broken)
    _, held_error = outcome(read_players, uploaded(broken, "list.csv"))
    assert disk_error is not None and held_error is not None and disk_error.problems
    assert [named(p, broken, "list.csv") for p in disk_error.problems] == [
        dataclasses.asdict(p) for p in held_error.problems
    ]


def test_an_upload_over_the_input_bound_is_refused_by_name(monkeypatch) -> None:
    monkeypatch.setattr(limits, "MAX_INPUT_BYTES", 100)
    big = InputFile("big.trf", b"012 x\n" * 40)
    with pytest.raises(InputError) as caught:
        read_event_file(big)
    (problem,) = caught.value.problems
    assert problem.code == "too-large" and problem.file == "big.trf"


def test_a_zip_bomb_upload_is_refused_before_it_inflates(tmp_path: Path) -> None:
    # A member that declares more than the bound unpacked: refused from its header alone.
    bomb = tmp_path / "list.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("players_list_foa.txt", (SAMPLE / "players_list_foa.txt").read_bytes())
    data = bytearray(bomb.read_bytes())
    # Both headers' "uncompressed size" set to 3 GB (offsets 22 and, in the central directory, 24).
    central = data.rfind(b"PK\x01\x02")
    for at in (22, central + 24):
        data[at : at + 4] = (3 << 30).to_bytes(4, "little")
    with pytest.raises(InputError) as caught:
        read_players(InputFile("list.zip", bytes(data)))
    assert {p.code for p in caught.value.problems} == {"too-large"}
    assert {p.file for p in caught.value.problems} == {"list.zip"}


def test_an_upload_is_shown_by_name_never_by_its_bytes() -> None:
    held = InputFile("event.trf", b"x" * 10_000)
    assert str(held) == "event.trf" and held.suffix == ".trf"
    assert repr(held) == "InputFile('event.trf', 10,000 bytes)"
