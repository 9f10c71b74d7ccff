"""Write one event as a FIDE TRF16 file (layout in ../shared/fide/TRF.md).

Every field is placed at its column; what does not fit is reported as a note, never silently
changed: a player id that is not a FIDE ID (digits) leaves the ID field blank (reading the file
back then gives the id ``<file stem>#<starting rank>``), a name longer than 33 characters is cut.
Starting ranks are the event's own when it has them, else by rating (unrated last), name, id.
Rounds are the games' round numbers; a grid (no rounds) gets rounds assigned so that nobody
plays twice in one round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from pipeline.errors import Code, InputError, Problem, RunError
from pipeline.model import EventInfo
from pipeline.readers.events.dates import trf_date
from pipeline.readers.events.event_codes import WRITE_CODES
from pipeline.writers.text.trf_header import with_header

NAME_WIDTH = 33
KNOWN_TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}
# Header records copied from the source event when it had them (TRF.md, header records).
COPIED_TAGS = ("022", "032", "092", "102", "112", "122")


@dataclass
class TrfText:
    text: str
    players: int
    games: int
    rounds: int
    notes: list[str] = field(default_factory=list)


def _put(line: list[str], column: int, text: str, width: int, right: bool = False) -> None:
    """``text`` into the 1-based ``column`` over ``width`` characters."""
    text = text.rjust(width) if right else text.ljust(width)
    end = column - 1 + width
    if len(line) < end:
        line.extend(" " * (end - len(line)))
    line[column - 1 : end] = list(text[:width])


def _rounds(games: pd.DataFrame, byes: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Round numbers for games and byes: the given ones, or assigned greedily (grids)."""
    labels = pd.concat([games["round"], byes["round"]], ignore_index=True).astype(str)
    if len(labels) and labels.str.fullmatch(r"\d+").all():
        return games["round"].astype(np.int64).to_numpy(), byes["round"].astype(np.int64).to_numpy()
    busy: dict[str, set[int]] = {}
    game_rounds = []
    for white, black in zip(games["white"], games["black"], strict=True):
        r = 1
        while r in busy.get(white, set()) or r in busy.get(black, set()):
            r += 1
        busy.setdefault(white, set()).add(r)
        busy.setdefault(black, set()).add(r)
        game_rounds.append(r)
    bye_rounds = []
    for player in byes["player"]:
        r = 1
        while r in busy.get(player, set()):
            r += 1
        busy.setdefault(player, set()).add(r)
        bye_rounds.append(r)
    return np.array(game_rounds, dtype=np.int64), np.array(bye_rounds, dtype=np.int64)


def _starting_ranks(people: pd.DataFrame) -> pd.Series:
    sno = people.get("sno")
    if sno is not None and sno.notna().all() and not sno.duplicated().any():
        return sno.astype(np.int64)
    order = people.assign(_r=people["rating"].fillna(-1).astype(np.int64)).sort_values(
        ["_r", "name", "id"], ascending=[False, True, True], kind="stable"
    )
    ranks = pd.Series(np.arange(1, len(order) + 1), index=order.index)
    return ranks.reindex(people.index).astype(np.int64)


# Starting ranks (columns 5-8), opponents (4 per round) and final ranks (86-89) are four digits.
TRF_MAX_PLAYERS = 9_999


def _check_fits(sno: pd.Series, count: int, source: str) -> None:
    """Refuse an event whose starting ranks do not fit TRF16's four columns: a longer number would
    run into the next field and corrupt the file (player 10000 written as 1000)."""
    largest = int(sno.max()) if len(sno) else 0
    if count > TRF_MAX_PLAYERS or largest > TRF_MAX_PLAYERS:
        raise InputError(
            [
                Problem(
                    Code.TRF_TOO_LARGE,
                    f"the event has {count:,} players (largest starting rank {largest:,}): "
                    f"TRF16 holds starting ranks up to {TRF_MAX_PLAYERS:,} (four columns)",
                    file=source,
                    value=str(largest),
                    fix="split the event, or keep it in a games file (no TRF can hold it)",
                )
            ]
        )


def event_trf(
    games: pd.DataFrame,
    byes: pd.DataFrame,
    people: pd.DataFrame,
    info: EventInfo | None,
    header: Mapping[str, str] | None = None,
) -> TrfText:
    """TRF16 text for one event. ``people``: one row per player (id, name, rating, birth_year,
    federation, title, sex, optional sno) with the rating each player is rated from; ``header``:
    tag -> record for header records given as options (see
    :mod:`pipeline.writers.text.trf_header`)."""
    info = info or EventInfo()
    events = pd.concat([games["event"], byes["event"]]).unique()
    if len(events) > 1:
        raise RunError(
            f"the input holds {len(events)} events ({', '.join(map(str, events[:3]))}, ...): "
            "a TRF holds one event; convert them one at a time"
        )
    notes: list[str] = []
    people = people.reset_index(drop=True)
    sno = pd.Series(_starting_ranks(people).to_numpy(), index=people["id"])
    source = str(games["source"].iat[0]) if len(games) and "source" in games else ""
    _check_fits(sno, len(people), source)
    game_rounds, bye_rounds = _rounds(games, byes)
    rounds = int(max(game_rounds.max(initial=0), bye_rounds.max(initial=0)))

    cells: dict[str, dict[int, str]] = {pid: {} for pid in people["id"]}
    points = dict.fromkeys(people["id"], 0)

    def cell(player: str, r: int, text: str) -> None:
        if r in cells[player]:
            raise RunError(f"player {player!r} has two games in round {r}: a TRF allows one")
        cells[player][r] = text

    for g, r in zip(games.itertuples(index=False), game_rounds, strict=True):
        white_code, black_code = WRITE_CODES[(g.result, bool(g.played))]
        cell(g.white, r, f"{sno[g.black]:>4} w {white_code}")
        cell(g.black, r, f"{sno[g.white]:>4} b {black_code}")
        points[g.white] += int(g.white_h)
        points[g.black] += int(g.black_h)
    for b, r in zip(byes.itertuples(index=False), bye_rounds, strict=True):
        cell(b.player, r, f"0000 - {b.code}")
        points[b.player] += int(b.score_h)

    ranking = sorted(people["id"], key=lambda pid: (-points[pid], sno[pid]))
    final_rank = {pid: i for i, pid in enumerate(ranking, start=1)}
    lines = with_header(_header(info, games, byes, people, rounds), header or {})
    no_fide_id = 0
    for p in people.sort_values("id", key=lambda s: s.map(sno)).itertuples(index=False):
        line = list("001")
        _put(line, 5, str(sno[p.id]), 4, right=True)
        _put(line, 10, str(p.sex or "")[:1], 1)
        title = str(p.title or "").upper()
        _put(line, 11, title if title in KNOWN_TITLES else "", 3, right=True)
        if len(str(p.name)) > NAME_WIDTH:
            notes.append(f"name of {p.id!r} cut to {NAME_WIDTH} characters: {p.name!r}")
        _put(line, 15, str(p.name), NAME_WIDTH)
        _put(line, 49, "" if pd.isna(p.rating) else str(int(p.rating)), 4, right=True)
        _put(line, 54, str(p.federation or "")[:3], 3)
        fide_id = (
            str(p.id)
            if str(p.id).isascii() and str(p.id).isdigit() and len(str(p.id)) <= 11
            else ""
        )
        no_fide_id += fide_id == ""
        _put(line, 58, fide_id, 11, right=True)
        _put(line, 70, "" if pd.isna(p.birth_year) else f"{int(p.birth_year)}/00/00", 10)
        _put(line, 81, f"{points[p.id] // 100}.{5 if points[p.id] % 100 else 0}", 4, right=True)
        _put(line, 86, str(final_rank[p.id]), 4, right=True)
        for r, text in sorted(cells[p.id].items()):
            _put(line, 92 + 10 * (r - 1), text, 8)
        lines.append("".join(line).rstrip())
    if no_fide_id:
        notes.append(
            f"{no_fide_id} player(s) have no FIDE ID (their id is not digits): the ID field is "
            "blank, and reading the file back names them <file>#<starting rank>"
        )
    text = "\r\n".join(lines) + "\r\n"
    return TrfText(text, len(people), len(games), rounds, notes)


def _header(
    info: EventInfo, games: pd.DataFrame, byes: pd.DataFrame, people: pd.DataFrame, rounds: int
) -> list[str]:
    name = info.name or (str(games["event"].iat[0]) if len(games) else "")
    dates = pd.concat([games["date"], byes["date"]]).dropna().astype(str)
    start = info.start or (dates.min() if len(dates) else None)
    end = info.end or (dates.max() if len(dates) else None)
    lines = [f"012 {name}"]
    kept = {text[:3]: text for _, text in info.kept}
    lines += [kept[tag] for tag in COPIED_TAGS[:2] if tag in kept]
    lines += [f"042 {trf_date(start)}"] if start else []
    lines += [f"052 {trf_date(end)}"] if end else []
    lines.append(f"062 {len(people)}")
    lines.append(f"072 {int(people['rating'].notna().sum())}")
    lines += [kept[tag] for tag in COPIED_TAGS[2:] if tag in kept]
    round_dates = _round_dates(info, games, byes)
    if round_dates:
        line = list("132")
        for r, date in round_dates.items():
            _put(line, 92 + 10 * (r - 1), date[2:].replace("-", "/"), 8)
        lines.append("".join(line).rstrip())
    lines.append(f"XXR {max(rounds, info.rounds or 0)}")  # rounds declared, not only played
    return [ln.rstrip() for ln in lines]


def _round_dates(info: EventInfo, games: pd.DataFrame, byes: pd.DataFrame) -> dict[int, str]:
    if info.round_dates:
        return dict(sorted(info.round_dates.items()))
    both = pd.concat([games[["round", "date"]], byes[["round", "date"]]]).dropna()
    both = both[both["round"].astype(str).str.fullmatch(r"\d+")]
    per_round = both.groupby(both["round"].astype(int))["date"].agg(lambda d: set(d.astype(str)))
    # Only when every game of a round has the same date: a TRF holds one date per round.
    return {int(r): next(iter(d)) for r, d in per_round.items() if len(d) == 1}
