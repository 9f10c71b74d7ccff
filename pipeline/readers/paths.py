"""Input paths as a user gives them: files, directories of parts, or glob patterns of parts.

``games/`` and ``games/part-*.parquet`` both mean every part, in name order, so a period split
over many files (as Spark, Dask or a nightly export writes it) is read as one.
"""

from __future__ import annotations

import glob
from collections.abc import Sequence
from pathlib import Path

from pipeline.errors import Code, InputError, Problem
from pipeline.model import InputFile

TABLE_SUFFIXES = {".csv", ".txt", ".tsv", ".xlsx", ".xlsm", ".parquet", ".pq"}
_GLOB_CHARS = set("*?[")


def expand_inputs(paths: Sequence[Path | str | InputFile]) -> list[Path | InputFile]:
    """Every file meant by ``paths``, in order; a directory gives its table files by name, a
    glob its matches by name. A pattern or directory with nothing in it is an input error. An
    :class:`InputFile` (an upload held in memory) is one file, as it is."""
    files: list[Path | InputFile] = []
    problems = []
    for given in paths:
        if isinstance(given, InputFile):
            files.append(given)
            continue
        text = str(given)
        path = Path(text)
        if path.is_dir():
            parts = sorted(
                p
                for p in path.iterdir()
                if p.is_file()
                and p.suffix.lower() in TABLE_SUFFIXES
                and not p.name.startswith((".", "_"))
            )
            where = f"the folder {text!r} holds no .csv, .xlsx or .parquet file"
        elif not path.exists() and _GLOB_CHARS & set(text):
            parts = sorted(Path(p) for p in glob.glob(text) if Path(p).is_file())
            where = f"the pattern {text!r} matches no file"
        else:
            files.append(path)
            continue
        if not parts:
            problems.append(Problem(Code.NOT_A_TABLE, where, file=text, fix="check the path"))
        files.extend(parts)
    if problems:
        raise InputError(problems)
    return files
