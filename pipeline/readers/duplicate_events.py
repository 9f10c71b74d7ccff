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

How (issue 34): each event is fingerprinted by an order-free digest of its games (a 64-bit hash
per game from the games' integer codes, summed and xor-ed per event: ``arrays.multiset_digest``),
all events of all files in a few numpy passes. Only events whose digest another shares are
looked at again: their games sorted into one canonical order and compared cell by cell with
the first event of their digest, all at once, so a hash collision never refuses honest input.
The rule's text work (round numbers, the file's stem in ids) is done once per distinct round and
id, on the dictionaries of the games' codes (``GamesInput.codes()``), not per game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.arrays.arrow_text import encode_together, factorize_text
from pipeline.arrays.multiset_digest import group_digests, packed_rows, row_hashes
from pipeline.arrays.order import first_alike
from pipeline.errors import Code, Problem
from pipeline.model import GamesInput, SidesInput


@dataclass(frozen=True)
class _FileGames:
    """One games file's games as the rule sees them: each game's event (a code into ``names``,
    the file's events in order of first appearance) and its key columns (round, white, black,
    result) as codes into the key texts of all files together, each with its count of codes,
    packed into one column when they fit one word (``arrays.multiset_digest.packed_rows``)."""

    item: GamesInput
    names: pd.Series
    event: np.ndarray
    keys: list[tuple[np.ndarray, int]]


Coded = tuple[np.ndarray, pd.Series]  # each game's code, the distinct texts (code c: texts[c])


def _coded(codes: np.ndarray, texts: pd.Series | None, column: pd.Series) -> Coded:
    """(each game's code, the distinct texts): the shared encoding's when it kept the texts."""
    return (codes, texts) if texts is not None else factorize_text(column)


def _file_dictionaries(item: GamesInput) -> tuple[Coded, list[Coded]]:
    """(the events' codes and names, per key column: each game's code and the distinct texts,
    written the same way in every format: round numbers without leading zeros, ids without the
    file's own ``<stem>#`` prefix). The rewriting runs once per distinct text, and only when
    some text needs it: untouched, the texts stay the encoding's own (distinct)."""
    games, codes = item.games, item.codes()
    events = _coded(codes.event, codes.events, games["event"])
    round_, rounds = _coded(codes.round, codes.rounds, games["round"])
    prefix = f"{Path(item.source).stem}#"
    players = codes.players
    if players.str.startswith(prefix).any():
        players = players.str.removeprefix(prefix)
    result, results = factorize_text(games["result"])
    return events, [
        (round_, _without_leading_zeros(rounds)),
        (codes.white, players),
        (codes.black, players),
        (result, results),
    ]


def _without_leading_zeros(rounds: pd.Series) -> pd.Series:
    """Round numbers as numbers are written ("01" -> "1"); the regex only when one starts with 0."""
    if not rounds.str.startswith("0").any():
        return rounds
    return rounds.str.replace(r"^0+(?=\d)", "", regex=True)


def _all_files(items: list[GamesInput]) -> list[_FileGames]:
    """Every file's games with key codes shared by all files (the files' small dictionaries
    encoded together, then each game's code looked up), packed into one column when they fit.

    A file alone keeps its own codes for the texts its encoding already holds distinct (no
    text rewritten): they are one-to-one with the texts."""
    parsed = [_file_dictionaries(item) for item in items]
    columns: list[list[tuple[np.ndarray, int]]] = [[] for _ in items]
    for k in range(4):
        texts = [keys[k][1] for _, keys in parsed]
        if len(parsed) == 1 and _untouched(items[0], k, texts[0]):
            columns[0].append((parsed[0][1][k][0], max(len(texts[0]), 1)))
            continue
        remaps, distinct = encode_together(*texts)
        for i, (_, keys) in enumerate(parsed):
            columns[i].append((remaps[i][keys[k][0]], max(len(distinct), 1)))
    return [
        _FileGames(item, names, np.asarray(event), packed_rows(columns[i]))
        for i, (item, ((event, names), _)) in enumerate(zip(items, parsed, strict=True))
    ]


def _untouched(item: GamesInput, column: int, texts: pd.Series) -> bool:
    """Whether ``texts``, key ``column``'s distinct texts, are an encoding's own (distinct):
    the results' always (``factorize_text``), the rounds' and ids' when none was rewritten."""
    codes = item.codes()
    return column == 3 or texts is (codes.rounds, codes.players, codes.players)[column]


def _offsets(files: list[_FileGames]) -> np.ndarray:
    """The number of each file's first event when all are numbered in the order read."""
    return np.cumsum([0, *(len(f.names) for f in files)])


@dataclass(frozen=True)
class _Candidates:
    """The games of the events a digest does not tell apart, in one canonical order: event by
    event (``event``: the event's position among the candidates, in the order read), each
    event's games sorted by round, white, black, result and date, codes shared by all files.
    ``start``: each event's first row; ``dated``: whether the event gives every game a date."""

    event: np.ndarray
    keys: list[np.ndarray]
    date: np.ndarray
    start: np.ndarray
    dated: np.ndarray

    def at(self, e: int) -> slice:
        stop = self.start[e + 1] if e + 1 < len(self.start) else len(self.event)
        return slice(int(self.start[e]), int(stop))

    def same(self, a: int, b: int) -> bool:
        """Whether events ``a`` and ``b`` hold the same games (the rule, cell by cell)."""
        ra, rb = self.at(a), self.at(b)
        if ra.stop - ra.start != rb.stop - rb.start:
            return False
        if any(not np.array_equal(k[ra], k[rb]) for k in self.keys):
            return False
        both_dated = self.dated[a] and self.dated[b]
        return not both_dated or np.array_equal(self.date[ra], self.date[rb])


def _candidate_games(files: list[_FileGames], candidates: np.ndarray) -> _Candidates:
    """The games of the ``candidates`` (events by number, in the order read), sorted."""
    offsets = _offsets(files)
    position = np.full(offsets[-1], -1)
    position[candidates] = np.arange(len(candidates))
    events, keys, dates, missing = [], [], [], []
    for f, offset in zip(files, offsets, strict=False):
        local = position[offset + f.event]
        kept = local >= 0
        # Every game of the file (copies of one event): the rows as they are, not copied.
        keep: np.ndarray | slice = slice(None) if kept.all() else kept
        events.append(local[keep])
        keys.append([k[keep] for k, _ in f.keys])
        games = f.item.games
        if "date" in games.columns:
            date = games["date"].astype("string")[keep]
            dates.append(date)  # a missing date is encoded as "" (never compared: not dated)
            missing.append(date.isna().to_numpy())
        else:  # no dates: never compared
            dates.append(pd.Series([""] * len(events[-1]), dtype=str))
            missing.append(np.ones(len(events[-1]), dtype=bool))
    date_codes, _ = encode_together(*dates)
    event = np.concatenate(events)
    key = [np.concatenate([k[c] for k in keys]) for c in range(len(files[0].keys))]
    date = np.concatenate(date_codes)
    order = np.lexsort((date, *key[::-1], event))
    event = event[order]
    undated = np.bincount(event[np.concatenate(missing)[order]], minlength=len(candidates))
    return _Candidates(
        event,
        [k[order] for k in key],
        date[order],
        np.searchsorted(event, np.arange(len(candidates))),
        undated == 0,
    )


def _earlier_same(
    files: list[_FileGames],
    candidates: np.ndarray,
    counts: np.ndarray,
    sums: np.ndarray,
    xors: np.ndarray,
) -> np.ndarray:
    """Per candidate event (in the order read): the position of the earlier candidate whose
    games it repeats, or -1 when it is the first with its games.

    The rule, event after event, keeps the events not yet seen and calls an event a duplicate
    of the first kept one with the same games (dates compared when both give all). All at once:
    within the events with one digest (the same games, once confirmed below), the first is
    kept; a later one repeats it unless both are fully dated, in which case it repeats the first
    fully dated one with its dates (itself, when it is the first: kept). Confirmed by comparing
    each event's sorted games with the first of its digest (and its dates with the first of its
    date digest), cell by cell; a digest whose events differ (a 64-bit collision) is decided
    event by event, exactly as the rule reads."""
    games = _candidate_games(files, candidates)
    m = len(candidates)
    events = np.arange(m)
    first = first_alike([counts[candidates], sums[candidates], xors[candidates]])
    # Each game against the game at the same place in the first event of its digest.
    offset = np.arange(len(games.event)) - games.start[games.event]
    facing = games.start[first[games.event]] + offset
    differs = np.zeros(m, dtype=bool)
    for k in games.keys:
        differs[games.event[k != k[facing]]] = True
    # The dates: the first fully dated event with the same dates, by a digest of the dates in
    # the canonical order (the games themselves being the same), then confirmed.
    longest = int(counts[candidates].max())
    date_hashes = row_hashes([(games.date, int(games.date.max()) + 1), (offset, longest)])
    _, date_sums, date_xors = group_digests(date_hashes, games.event, m)
    dated_first = first_alike([first, games.dated, date_sums, date_xors])
    facing_date = games.start[dated_first[games.event]] + offset
    checked = games.dated[games.event] & (games.date != games.date[facing_date])
    differs[games.event[checked]] = True
    later = events != first
    target = np.where(later & ~(games.dated & games.dated[first]), first, -1)
    target = np.where(
        later & (dated_first != events) & games.dated & games.dated[first], dated_first, target
    )
    for group in np.unique(first[differs]):  # a collision: the rule, event by event
        members = np.flatnonzero(first == group)
        target[members] = _in_turn(members, games.same)
    return target


def _in_turn(events: np.ndarray, same: Callable[[int, int], bool]) -> np.ndarray:
    """The rule read literally: each event against the events kept so far, the first alike
    named; an event alike none is kept. Only for events whose digests collide."""
    kept: list[int] = []
    target = np.full(len(events), -1)
    for i, event in enumerate(events.tolist()):
        alike = next((k for k in kept if same(event, k)), None)
        if alike is None:
            kept.append(event)
        else:
            target[i] = alike
    return target


def _where(source: str, event: str, several: bool) -> str:
    return f"{source!r}, event {event!r}" if several else repr(source)


def duplicate_events(inputs: Sequence[GamesInput | SidesInput]) -> list[Problem]:
    """A ``duplicate-event`` problem for every event whose games an earlier one already holds,
    naming both files (and events, for files of several)."""
    items = [i for i in inputs if isinstance(i, GamesInput) and len(i.games)]
    if sum(i.codes().n_event for i in items) <= 1:
        return []  # no event, or one alone (the usual run): nothing to compare
    files = _all_files(items)
    # Every event of every file, in the order they are read: its digest.
    digests = [group_digests(row_hashes(f.keys), f.event, len(f.names)) for f in files]
    counts, sums, xors = (np.concatenate([d[k] for d in digests]) for k in range(3))
    alike = first_alike([counts, sums, xors])
    shared = np.bincount(alike, minlength=len(alike))[alike] > 1
    if not shared.any():
        return []  # honest input: every digest its own, nothing to compare
    candidates = np.flatnonzero(shared)
    target = _earlier_same(files, candidates, counts, sums, xors)
    later = np.flatnonzero(target >= 0)  # the duplicates, in the order read
    return _problems(files, candidates[later], candidates[target[later]])


def _problems(files: list[_FileGames], again: np.ndarray, first: np.ndarray) -> list[Problem]:
    """The problem of each event numbered in ``again`` (in the order read), whose games the
    event numbered in ``first`` holds. Files and names are looked up for all at once, and each
    message is worded once per earlier event (a thousand copies of one event share one)."""
    offsets = _offsets(files)
    names = np.concatenate([np.asarray(f.names, dtype=object) for f in files]).tolist()
    file_of = (np.searchsorted(offsets, np.concatenate([again, first]), side="right") - 1).tolist()
    sources = [f.item.source for f in files]
    several = [len(f.names) > 1 for f in files]
    messages: dict[tuple[int, bool], str] = {}
    problems: list[Problem] = []
    for i, (event, earlier) in enumerate(zip(again.tolist(), first.tolist(), strict=True)):
        f, g = file_of[i], file_of[len(again) + i]
        twice = sources[g] == sources[f] and not several[f]
        message = messages.get((earlier, twice))
        if message is None:
            where = _where(sources[g], str(names[earlier]), several[g])
            what = "this file is given twice" if twice else f"these games are those of {where}"
            message = messages[earlier, twice] = (
                f"{what} (same players, rounds, colours and results): the same event "
                "would be rated twice"
            )
        problems.append(
            Problem(
                Code.DUPLICATE_EVENT,
                message,
                file=sources[f],
                value=str(names[event]) if several[f] else None,
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
