"""The same games given twice in one run (``duplicate-event``): the one rule of ``rate``,
``validate``, ``convert`` and ``period``.

Two events are the same when they hold the same games: the same players, in the same rounds,
with the same colours and results (a multiset: the order of the rows, the file's format, its
name and its line endings do not matter, so ``event.trf`` and the same games as ``games.csv`` are
one event). When both give every game a date, the dates must agree too: two one-game matches of
the same two players on different days are two events. A single game two events share is not a
duplicate (two players may meet in two events); only a whole event given again is.

A player without a FIDE ID is named after the file (``<file stem>#<starting number>``, see
docs/formats.md), so a renamed copy of a TRF would hide behind new ids: the file's own stem is
left out of such ids before comparing.

The comparison is by a digest of each event's sorted row hashes (one pass over the games); two
events with the same digest are compared cell by cell before they are called the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.errors import Code, Problem
from pipeline.model import GamesInput, SidesInput

KEY_COLUMNS = ["round", "white", "black", "result"]


def _by_distinct(values: pd.Series, change: object) -> pd.Series:
    """``change`` (a function of a Series of distinct texts) applied once per distinct value."""
    codes, distinct = pd.factorize(values.astype(str))
    changed = change(pd.Series(distinct, dtype=str))  # type: ignore[operator]
    return pd.Series(np.asarray(changed, dtype=object)[codes], index=values.index, dtype=str)


def game_keys(games: pd.DataFrame, source: str) -> pd.DataFrame:
    """The columns that make a game the same game, written the same way in every format: round
    numbers without leading zeros, ids without the file's own ``<stem>#`` prefix."""
    prefix = f"{Path(source).stem}#"
    keys = pd.DataFrame(
        {
            "round": _by_distinct(
                games["round"], lambda r: r.str.replace(r"^0+(?=\d)", "", regex=True)
            ),
            "white": _by_distinct(games["white"], lambda i: i.str.removeprefix(prefix)),
            "black": _by_distinct(games["black"], lambda i: i.str.removeprefix(prefix)),
            "result": games["result"].astype(str),
        }
    )
    if "date" in games.columns:
        keys["date"] = games["date"].astype("string")
    return keys


def _event_digests(keys: pd.DataFrame, events: np.ndarray) -> Iterator[tuple[tuple, np.ndarray]]:
    """(order-free digest, rows) of each event of a file, in order of first appearance, in one
    pass over the file: a 2,000-event file of a million games is hashed once, not per event.

    The digest of an event is its number of games with the sum and the xor (both mod 2**64) of
    its rows' 64-bit hashes: the same games in any order give the same digest. Two events with
    one digest are compared cell by cell (:func:`same_games`) before they are called the same,
    so a collision costs a comparison, never a wrong answer."""
    hashes = pd.util.hash_pandas_object(keys[KEY_COLUMNS], index=False).to_numpy(np.uint64)
    order = np.argsort(events, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(events[order]) != 0])
    sums = np.add.reduceat(hashes[order], starts)  # uint64: wraps mod 2**64
    xors = np.bitwise_xor.reduceat(hashes[order], starts)
    ends = np.r_[starts[1:], len(order)]
    for g, (start, end) in enumerate(zip(starts, ends, strict=True)):
        yield (int(end - start), int(sums[g]), int(xors[g])), order[start:end]


def _sorted(keys: pd.DataFrame) -> pd.DataFrame:
    return keys.sort_values(KEY_COLUMNS, kind="stable").reset_index(drop=True)


def same_games(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """Whether two events' ``game_keys`` hold the same games (dates compared when both have all)."""
    if len(a) != len(b):
        return False
    a, b = _sorted(a), _sorted(b)
    if not a[KEY_COLUMNS].equals(b[KEY_COLUMNS]):
        return False
    dated = "date" in a.columns and "date" in b.columns
    if dated and a["date"].notna().all() and b["date"].notna().all():
        return bool((a["date"].to_numpy() == b["date"].to_numpy()).all())
    return True


def _where(source: str, event: str, several: bool) -> str:
    return f"{source!r}, event {event!r}" if several else repr(source)


def duplicate_events(inputs: Sequence[GamesInput | SidesInput]) -> list[Problem]:
    """A ``duplicate-event`` problem for every event whose games an earlier one already holds,
    naming both files (and events, for files of several)."""
    problems: list[Problem] = []
    games_inputs = [i for i in inputs if isinstance(i, GamesInput) and len(i.games)]
    if len(games_inputs) == 1 and games_inputs[0].games["event"].nunique() <= 1:
        return problems  # one event alone (the usual run): nothing to compare
    # digest -> the events seen with it: (file, event, several, the file's keys, the rows)
    seen: dict[tuple, list[tuple[str, str, bool, pd.DataFrame, np.ndarray]]] = {}
    for item in games_inputs:
        keys = game_keys(item.games, item.source)  # the whole file at once
        events, names = pd.factorize(item.games["event"].astype(str), sort=False)
        several = len(names) > 1
        for digest, rows in _event_digests(keys, np.asarray(events)):
            name = str(names[events[rows[0]]])
            candidates = seen.setdefault(digest, [])
            # An event's own rows are cut out only when another has its digest (rare).
            first = next(
                (c for c in candidates if same_games(keys.iloc[rows], c[3].iloc[c[4]])), None
            )
            if first is None:
                candidates.append((item.source, name, several, keys, rows))
                continue
            if first[0] == item.source and not several:
                what = "this file is given twice"
            else:
                what = f"these games are those of {_where(*first[:3])}"
            problems.append(
                Problem(
                    Code.DUPLICATE_EVENT,
                    f"{what} (same players, rounds, colours and results): the same event "
                    "would be rated twice",
                    file=item.source,
                    value=name if several else None,
                    fix="give each event once: leave one of the two out",
                )
            )
    return problems


def identical_files(paths: Sequence[str]) -> list[Problem]:
    """A ``duplicate-event`` problem for every file whose bytes an earlier one already holds.

    For the Dask engine, whose files are read on the workers: the client cannot compare their
    games, but it can tell the same file given twice (or copied under another name) by a digest
    of its bytes, read in blocks. A copy with other line endings or in another format is not
    caught this way; the pandas engine's :func:`duplicate_events` catches those."""
    problems: list[Problem] = []
    seen: dict[bytes, str] = {}
    for path in paths:
        digest = hashlib.sha256()
        with open(path, "rb") as stream:
            for block in iter(lambda: stream.read(1 << 20), b""):
                digest.update(block)
        first = seen.get(digest.digest())
        if first is None:
            seen[digest.digest()] = path
            continue
        what = "this file is given twice" if first == path else f"this file is a copy of {first!r}"
        problems.append(
            Problem(
                Code.DUPLICATE_EVENT,
                f"{what} (the same bytes): its games would be rated twice",
                file=path,
                fix="give each file once: leave one of the two out",
            )
        )
    return problems
