"""The tests mirror the pipeline: every test folder is named after a package of pipeline/."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = {"golden"}  # folders of test data, not of tests


def test_test_folders_mirror_pipeline_packages():
    packages = {p.parent.name for p in (ROOT / "pipeline").glob("*/__init__.py")}
    folders = {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and p.name[0] not in "._"}
    assert folders - DATA <= packages, sorted(folders - DATA - packages)


def test_every_test_folder_holds_tests():
    for folder in (ROOT / "tests").iterdir():
        if folder.is_dir() and folder.name[0] not in "._" and folder.name not in DATA:
            assert list(folder.glob("test_*.py")), f"tests/{folder.name} holds no test file"


def test_the_cli_is_run_through_one_helper():
    """Tests call tests.conftest.run_cli (or rate_sample), never a CliRunner of their own."""
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "tests").rglob("test_*.py"))
        if path != Path(__file__).resolve()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "CliRunner(" in line or "import CliRunner" in line
    ]
    assert not found, f"use run_cli from tests/conftest.py instead of CliRunner at {found}"


def test_tests_in_folders_find_the_root_two_levels_up():
    """A test moved into tests/<stage>/ sees the repository at parents[2] (parents[1] is tests/)."""
    wrong = re.compile(r"parents\[1\](?!\s*/\s*\"golden\")")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "tests").glob("*/test_*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if wrong.search(line)
    ]
    assert not found, f"parents[1] is tests/ here; the repository root is parents[2]: {found}"


def test_tests_import_moved_modules_by_their_folder():
    """`from tests.test_x import ...` breaks when test_x moves into a stage folder."""
    moved = {p.stem: p.parent.name for p in (ROOT / "tests").glob("*/test_*.py")}
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "tests").rglob("test_*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for stem in re.findall(r"from tests\.(test_\w+) import", line)
        if stem in moved
    ]
    assert not found, f"import these from tests.<folder>.test_x: {found}"
