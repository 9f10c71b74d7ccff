"""Modules hold one concept each, and their size is a guide, not a wall (STYLE.md: split by
concept, not by line count).

Read from the source (``ast``): a module in ``pipeline/`` or ``schemas/`` over 400 lines, or a
function over 80 lines, must say why in its docstring, in a paragraph starting "One concept:"
(module) or "Long because" (function). Cutting a concept in two to pass a line count made the
FIDE list reader four files and the store six; a long module that says what its one concept is
reads better than four short ones that each hold part of it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULE_GUIDE_LINES = 400
FUNCTION_GUIDE_LINES = 80
MODULE_REASON = "One concept:"
FUNCTION_REASON = "Long because"


def _sources() -> list[Path]:
    return sorted([*(ROOT / "pipeline").rglob("*.py"), *(ROOT / "schemas").rglob("*.py")])


def long_functions(path: Path, limit: int) -> list[tuple[str, int, str]]:
    """(name, lines, docstring) of every function or method of ``path`` over ``limit`` lines."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > limit:
                found.append((node.name, lines, ast.get_docstring(node) or ""))
    return found


def long_modules(paths: list[Path], limit: int) -> list[tuple[Path, int, str]]:
    """(path, lines, module docstring) of every module over ``limit`` lines."""
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > limit:
            found.append((path, lines, ast.get_docstring(ast.parse(text)) or ""))
    return found


def test_a_long_module_says_what_its_one_concept_is():
    unexplained = [
        f"{path.relative_to(ROOT)} ({lines} lines)"
        for path, lines, doc in long_modules(_sources(), MODULE_GUIDE_LINES)
        if MODULE_REASON not in doc
    ]
    assert unexplained == [], f"split by concept, or say '{MODULE_REASON} ...' in the docstring"


def test_a_long_function_says_why():
    unexplained = [
        f"{path.relative_to(ROOT)}:{name} ({lines} lines)"
        for path in _sources()
        for name, lines, doc in long_functions(path, FUNCTION_GUIDE_LINES)
        if FUNCTION_REASON not in doc
    ]
    assert unexplained == [], f"shorten it, or say '{FUNCTION_REASON} ...' in its docstring"


def test_the_measures_count_the_whole_body(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("def f():\n" + "    x = 1\n" * 80 + "\n\ndef g():\n    pass\n")
    assert long_functions(source, FUNCTION_GUIDE_LINES) == [("f", 81, "")]
    explained = tmp_path / "n.py"
    explained.write_text('"""Lists.\n\nOne concept: the list."""\n' + "x = 1\n" * 400)
    assert long_modules([source, explained], MODULE_GUIDE_LINES) == [
        (explained, 403, "Lists.\n\nOne concept: the list.")
    ]
