"""One pass of schema checks over the games of many event files (issue 13).

pandera costs a fixed tenth of a second or more per call whatever the size of the frame: a
period of 200 event files paid it 200 times. The games of consecutive files are checked together,
up to ``BATCH_ROWS`` rows at a time. The schema is per row (and per column dtype, which the
readers give every file alike), so a batch passes exactly when each of its files does; when a
batch fails, its files are checked one by one again, so the problems name the right file and row
exactly as before.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from pipeline.errors import InputError, Problem
from pipeline.model import GamesInput, SidesInput
from schemas import Games, validate

BATCH_ROWS = 500_000


def _batches(items: Sequence[GamesInput]) -> list[list[GamesInput]]:
    batches: list[list[GamesInput]] = []
    rows = 0
    for item in items:
        if not batches or rows + len(item.games) > BATCH_ROWS:
            batches.append([])
            rows = 0
        batches[-1].append(item)
        rows += len(item.games)
    return batches


def _one(item: GamesInput) -> list[Problem]:
    try:
        validate(item.games, Games, item.source)
    except InputError as exc:
        return list(exc.problems)
    return []


def games_problems(items: Sequence[GamesInput]) -> dict[int, list[Problem]]:
    """The schema problems of each file whose games fail (by position in ``items``; none: all
    pass), in file order."""
    failed: dict[int, list[Problem]] = {}
    start = 0
    for batch in _batches(items):
        together = (
            batch[0].games
            if len(batch) == 1
            else pd.concat([item.games for item in batch], ignore_index=True)
        )
        try:
            validate(together, Games, batch[0].source if len(batch) == 1 else "")
        except InputError:
            for offset, item in enumerate(batch):
                problems = _one(item)
                if problems:
                    failed[start + offset] = problems
        start += len(batch)
    return failed


def checked_inputs(
    inputs: Sequence[GamesInput | SidesInput],
) -> tuple[list[GamesInput | SidesInput], list[Problem]]:
    """``inputs`` without the files whose games fail the schema, and those files' problems (a
    failing file is reported and left out, as when each file was checked on reading)."""
    games = [i for i in inputs if isinstance(i, GamesInput)]
    failed = games_problems(games)
    problems = [problem for position in sorted(failed) for problem in failed[position]]
    bad = {id(games[position]) for position in failed}
    return [i for i in inputs if id(i) not in bad], problems
