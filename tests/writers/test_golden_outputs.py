"""Outputs byte for byte against golden files made by the core path before the performance work.

``tests/golden/make_golden.py`` wrote them (see its docstring); every optimization of readers,
validation, engine, grouper and writers must leave these bytes unchanged, including the error
report for a file full of bad cells (every bad cell still reported, in the same order).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
_spec = importlib.util.spec_from_file_location("make_golden", GOLDEN / "make_golden.py")
make_golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_golden)


@pytest.mark.parametrize("name", sorted(make_golden.CASES))
def test_outputs_match_golden(name, tmp_path):
    args, keep = make_golden.CASES[name]
    out = tmp_path / "out"
    code, stderr = make_golden.run_case(args, out)
    expected = GOLDEN / "cases" / name
    assert code == int((expected / "exit_code.txt").read_text())
    assert stderr == (expected / "stderr.txt").read_text()
    for file in keep:
        assert (out / file).read_bytes() == (expected / file).read_bytes(), file
    if code != 0:
        assert not out.exists() or not any(out.iterdir()), "a failed run must write nothing"
