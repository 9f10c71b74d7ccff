"""A damaged workbook is refused with a problem, and its file is closed when the problem is raised.

openpyxl leaves its zip archive open when loading fails half-way; the file under it stayed open
for as long as the error's traceback lived and then warned "unclosed file" wherever the garbage
collector happened to free it (a failure of an unrelated test under ``filterwarnings = error``).
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from pipeline.errors import InputError
from pipeline.readers import read_event_file
from pipeline.readers.formats import full_width_sheets
from pipeline.readers.tables.tabular import read_tables

PROC_FDS = Path("/proc/self/fd")


def open_files() -> set[str]:
    """The paths this process holds open (Linux: /proc/self/fd)."""
    found = set()
    for fd in PROC_FDS.iterdir():
        try:
            found.add(os.readlink(fd))
        except OSError:  # the descriptor of the listing itself, closed by now
            continue
    return found


def broken_xml_workbook(path: Path) -> Path:
    """A zip whose parts openpyxl cannot parse: loading fails after the archive is open."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types")
        archive.writestr("xl/workbook.xml", "<workbook")
    return path


@pytest.mark.skipif(not PROC_FDS.is_dir(), reason="needs /proc/self/fd (Linux)")
@pytest.mark.parametrize(
    "read",
    [read_tables, lambda p: list(full_width_sheets(p, None)), read_event_file],
    ids=["read_tables", "full_width_sheets", "read_event_file"],
)
def test_a_workbook_that_fails_to_load_is_closed_with_the_error(tmp_path, read):
    path = broken_xml_workbook(tmp_path / "damaged.xlsx")
    with pytest.raises(InputError) as info:
        read(path)
    # The error (and its traceback) is still alive here: the file must not be.
    assert str(path) not in open_files()
    problem = info.value.problems[0]
    assert problem.file == str(path)
    assert "damaged" in problem.message
    assert "save the workbook again" in problem.fix


def test_a_workbook_that_cannot_be_opened_is_a_problem_of_its_file(tmp_path):
    # Opening the file is part of opening the workbook: no OSError gets through as an internal
    # error (a folder stands for any file the system refuses to open, root included).
    from pipeline.readers.tables.tabular import read_xlsx_sheets

    folder = tmp_path / "games.xlsx"
    folder.mkdir()
    with pytest.raises(InputError) as info:
        read_xlsx_sheets(folder)
    problem = info.value.problems[0]
    assert problem.file == str(folder)
    assert "cannot open the workbook (IsADirectoryError)" in problem.message
