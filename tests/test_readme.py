"""The README's and the docs' console examples are real: every ```console block is run and compared.

A block holds `$ command` lines, each followed by the output it prints (stdout and stderr
together). Commands run with bash in a temporary copy of sample_data/, with the project's
`fiderate` first on PATH. Each page gets its own copy, and its commands run in the order they
appear (a later block may read what an earlier one wrote).

The README is the front door: at most 250 lines, and it names the two commands. Every relative
link and every repository path quoted in the README and the docs must exist.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"```console\n(.*?)```", re.S)
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A markdown link or image to a relative target: [text](target) with no scheme.
LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s#]+)(?:#[^)]*)?\)")
# A repository path quoted as code: `pipeline/...`, `tests/...`, ... (no wildcards).
REPO_PATH = re.compile(r"`((?:pipeline|schemas|tests|benchmarks|sample_data|docs)/[\w./-]*)`")


def examples(page: Path) -> list[tuple[str, str]]:
    text = page.read_text(encoding="utf-8")
    found = []
    for block in BLOCK.findall(text):
        command, output = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    found.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            found.append((command, "\n".join(output)))
    return found


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


CASES = [(_name(page), command, output) for page in PAGES for command, output in examples(page)]


def _normalize(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


@pytest.fixture(scope="module")
def workdirs(tmp_path_factory):
    """One fresh copy of sample_data/ per page, made when the page's first command runs."""
    made: dict[str, Path] = {}

    def workdir(page: str) -> Path:
        if page not in made:
            work = tmp_path_factory.mktemp("page")
            shutil.copytree(ROOT / "sample_data", work / "sample_data")
            made[page] = work
        return made[page]

    return workdir


def test_readme_has_examples():
    assert len(examples(ROOT / "README.md")) >= 3


def test_readme_is_a_front_door():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert "make run" in text and "make test" in text
    for page in PAGES[1:]:
        assert f"({_name(page)})" in text, f"the README does not link to {_name(page)}"


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_links_and_paths_exist(page):
    text = page.read_text(encoding="utf-8")
    missing = []
    for target in LINK.findall(text):
        if not (page.parent / target).exists():
            missing.append(target)
    for quoted in REPO_PATH.findall(text):
        if not (ROOT / quoted).exists():
            missing.append(quoted)
    assert not missing, f"{_name(page)} refers to paths that do not exist: {missing}"


@pytest.mark.parametrize(
    "page, command, expected", CASES, ids=[f"{page}: {command}" for page, command, _ in CASES]
)
def test_console_example(workdirs, page, command, expected):
    env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="100", NO_COLOR="1")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=workdirs(page),
        env=env,
        capture_output=False,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
    )
    assert _normalize(done.stdout) == _normalize(expected), done.stdout


def test_validation_page_lists_every_code():
    from pipeline.errors import Code

    text = (ROOT / "docs" / "validation.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| (.+?) \| (.+?) \|$", text, re.M)
    assert rows == [(code.value, code.title, code.fix) for code in Code]
