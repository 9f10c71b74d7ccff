"""What a new user does before the first command: install without make, and clean up after the
README's examples (issue 26, item 4).

``pip install .`` is installed for real from a fresh copy of the repository (the files git
tracks, as a clone has them) into a fresh virtual environment, and its ``fiderate`` console
script rates the sample TRF. What the test does not redo is downloading the dependencies
(pandas, Dask, ...: 40 s or more, and a network): it installs with ``--no-deps`` and lends the
fresh environment this environment's packages through a ``.pth`` line placed after its own
site-packages, so ``pipeline`` itself can only come from the wheel just built.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.conftest import ROOT, SAMPLE
from tests.test_readme import PAGES, examples

COPY_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "*.egg-info", "build", "dist", ".*_cache", ".hypothesis"
)


def _fresh_copy(dst: Path) -> Path:
    """The repository as a clone has it: the files git knows (tracked, or new and not
    ignored); without git, the tree without what .gitignore names."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(ROOT, dst, ignore=COPY_IGNORE)
        return dst
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is not copied
            (dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dst / name)
    return dst


def _bin(venv: Path, name: str) -> Path:
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    return scripts / (name + (".exe" if os.name == "nt" else ""))


@pytest.mark.slow
def test_pip_install_dot_gives_a_working_fiderate(tmp_path):
    source = _fresh_copy(tmp_path / "clone")
    venv = tmp_path / "venv"
    python = _bin(venv, "python")
    # This environment's pip installs into the fresh one (pip --python): seeding the fresh
    # environment with its own pip (ensurepip) would cost more than the whole install, and the
    # build is the same (pip builds the wheel in an isolated environment either way).
    if importlib.util.find_spec("pip") is not None:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        pip = [sys.executable, "-m", "pip", "--python", str(python)]
    else:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
        pip = [str(python), "-m", "pip"]
    # -v shows the build backend's own warnings (pip hides them otherwise).
    built = subprocess.run(
        [*pip, "install", "-v", "--no-deps", "--no-input", "."],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=300,
    )
    log = built.stdout + built.stderr
    if built.returncode and "No matching distribution found for setuptools" in log:
        pytest.skip("no package index to fetch the build requirements from (offline)")
    assert built.returncode == 0, log[-5000:]
    assert "Successfully installed fiderate" in log, log[-5000:]
    # setuptools deprecates a TOML table for project.license (builds fail from 2027-02).
    assert "project.license" not in log, log[-5000:]

    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # After the fresh site-packages: only the dependencies can come from here.
    (Path(purelib) / "zz_test_dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    work = tmp_path / "work"
    shutil.copytree(SAMPLE, work / "sample_data")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    where = subprocess.run(
        [str(python), "-c", "import pipeline; print(pipeline.__file__)"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(where).is_relative_to(Path(purelib)), where

    # The README's line, with the installed console script.
    rated = subprocess.run(
        [str(_bin(venv, "fiderate")), "rate", "sample_data/event.trf", "--out", "out"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert rated.returncode == 0, rated.stderr
    assert "rated period 2026-11" in rated.stdout
    # The rules tables are package data: a rating list with the sample's known result.
    rating_list = (work / "out" / "rating_list.csv").read_text(encoding="utf-8")
    assert re.search(r"^4100085,.*,1787(,|$)", rating_list, re.M), rating_list


def test_readme_documents_pip_install_after_the_make_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.index("make run") < text.index("pip install .") < text.index("## The commands")
    assert "pipx install ." in text


def _example_outputs() -> set[str]:
    """The top-level names the console examples of README.md and docs/ write (--out DIR,
    -o FILE, --db DIR/FILE) when a user runs them in the repository."""
    found = set()
    for page in PAGES:
        for command, _ in examples(page):
            for target in re.findall(r"(?:--out|-o|--db)\s+(\S+)", command):
                found.add(target.split("/")[0])
    return found


def _patterns(lines: list[str]) -> list[str]:
    return [line.strip().strip("/") for line in lines if line.strip() and line[0] != "#"]


def test_example_outputs_are_ignored_by_git_and_removed_by_make_clean():
    outputs = _example_outputs()
    assert {"out", "autumn.trf", "period_out"} <= outputs  # the parse finds them
    ignored = _patterns((ROOT / ".gitignore").read_text(encoding="utf-8").splitlines())
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    variables = dict(re.findall(r"^([A-Z_]+)\s*[:?]?=\s*(.*)$", makefile, re.M))
    recipe = re.search(r"^clean:.*\n\t(.*)$", makefile, re.M)
    assert recipe, "no clean target"
    removed = re.sub(r"\$\(([A-Z_]+)\)", lambda m: variables.get(m[1], ""), recipe[1]).split()
    for name in sorted(outputs):
        assert any(fnmatch.fnmatch(name, p) for p in ignored), f"{name} is not in .gitignore"
        assert any(fnmatch.fnmatch(name, p) for p in removed), f"make clean leaves {name}"
