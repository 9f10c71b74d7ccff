"""The problem codes are one catalogue (``pipeline.errors.Code``): every code a call site uses is
in it, every code in it is used, and no call site spells a code as a string literal."""

from __future__ import annotations

import ast
import json
import pickle
import re
from pathlib import Path

import pytest

from pipeline.errors import CODES, Code, InputError, Problem

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pipeline"


def _trees() -> dict[Path, ast.Module]:
    paths = sorted([*PACKAGE.rglob("*.py"), *(ROOT / "schemas").rglob("*.py")])
    return {p: ast.parse(p.read_text(encoding="utf-8")) for p in paths}


def _code_references() -> set[str]:
    """Names X of every ``Code.X`` in pipeline/ and schemas/ outside the catalogue itself (the
    body of ``class Code``; the rest of errors.py uses codes as any module does)."""
    found = set()
    for path, tree in _trees().items():
        body = tree.body
        if path == PACKAGE / "errors.py":
            body = [n for n in body if not (isinstance(n, ast.ClassDef) and n.name == "Code")]
        found |= {
            node.attr
            for node in ast.walk(ast.Module(body=body, type_ignores=[]))
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "Code"
        }
    return found


def test_every_code_used_is_in_the_catalogue():
    assert _code_references() - set(Code.__members__) == set()


def test_every_code_in_the_catalogue_is_used():
    assert set(Code.__members__) - _code_references() == set()


def test_no_call_site_spells_a_code_as_a_string():
    spelled = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}"
        for path, tree in _trees().items()
        if path.name != "errors.py" or path.parent != PACKAGE
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in CODES
    ]
    assert spelled == []


@pytest.mark.parametrize("code", list(Code), ids=[c.value for c in Code])
def test_each_code_has_a_title_and_a_fix(code):
    assert re.fullmatch(r"[a-z]+(-[a-z]+)+", code.value)
    assert code.name == code.value.upper().replace("-", "_")
    assert code.title and code.fix and code.title != code.fix
    assert CODES[code.value] == code.title


def test_a_code_is_its_stable_string_everywhere():
    problem = Problem(Code.BAD_RESULT, "not a result", file="g.csv", row=3)
    assert problem.code == "bad-result"
    assert f"[{problem.code}]" == "[bad-result]"
    assert json.loads(json.dumps(problem.as_dict()))["code"] == "bad-result"
    assert "[bad-result] g.csv, row 3" in str(InputError([problem]))
    # Crosses a process boundary (a Dask worker) as the same member.
    assert pickle.loads(pickle.dumps(InputError([problem]))).problems[0].code is Code.BAD_RESULT
