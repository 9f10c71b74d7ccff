"""An independent, straightforward implementation of a period run, for the replay tests.

Plain Python loops and ``fractions.Fraction``; the FIDE tables are read here with the ``csv``
module from ../shared/fide (or the package's copies when ../shared is absent). Nothing from
``pipeline`` is imported: this is the second opinion the pipeline is checked against.
"""

from __future__ import annotations

import copy
import csv
import math
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _table_path(name: str) -> Path:
    shared = ROOT.parent / "shared" / "fide" / name
    return shared if shared.is_file() else ROOT / "pipeline" / "rules" / "data" / name


def load_pd_bands() -> list[tuple[int, int | None, Fraction]]:
    bands = []
    with _table_path("table_8_1_2.csv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            d_max = int(row["d_max"]) if row["d_max"].strip() else None
            bands.append((int(row["d_min"]), d_max, Fraction(row["pd_higher"])))
    return bands


def load_dp() -> dict[Fraction, int]:
    with _table_path("table_8_1_1.csv").open(encoding="utf-8") as fh:
        return {Fraction(row["p"]): int(row["dp"]) for row in csv.DictReader(fh)}


PD_BANDS = load_pd_bands()
DP = load_dp()


def expected(own: int, opp: int) -> Fraction:
    """PD of the side rated ``own`` against ``opp``: standard rules from 2025-10-01."""
    d = own - opp
    if own < 2650:
        d = max(-400, min(400, d))
    a = abs(d)
    for d_min, d_max, higher in PD_BANDS:
        if a >= d_min and (d_max is None or a <= d_max):
            return higher if d >= 0 else 1 - higher
    raise AssertionError(f"no band for {a}")


def half_away(x: Fraction) -> int:
    sign = -1 if x < 0 else 1
    return sign * math.floor(abs(x) + Fraction(1, 2))


def half_up(x: Fraction) -> int:
    return math.floor(x + Fraction(1, 2))


def month_number(period: str) -> int:
    return int(period[:4]) * 12 + int(period[5:7]) - 1


def next_month(period: str) -> str:
    n = month_number(period) + 1
    return f"{n // 12:04d}-{n % 12 + 1:02d}"


def k_for(player: dict, year: int) -> int:
    if player["ever"] or player["rating"] >= 2400:
        return 10
    if player["birth"] is not None and year - player["birth"] <= 18 and player["rating"] < 2300:
        return 40
    if player["games"] is not None and player["games"] < 30:
        return 40
    return 20


def first_rating(n: int, points: Fraction, opp_sum: int) -> tuple[int, bool]:
    """(Ru after the cap, published?) for pooled results."""
    ra = Fraction(opp_sum + 2 * 1800, n + 2)
    p = Fraction(points + 1, n + 2)
    p2 = Fraction(half_up(p * 100), 100)  # two decimals, .005 up
    ru = min(half_up(ra + DP[p2]), 2200)
    return ru, n >= 5 and ru >= 1400


SCORES = {
    "1-0": (Fraction(1), Fraction(0)),
    "0-1": (Fraction(0), Fraction(1)),
    "1/2-1/2": (Fraction(1, 2), Fraction(1, 2)),
}


class ReferenceRun:
    """State across periods: the players, the lists in force by month, the first-rating pools."""

    def __init__(self, players: dict[str, dict], first_month: str):
        self.players = (
            players  # id -> {name, rating|None, k|None, birth, games, ever, sex, last, flags...}
        )
        self.lists = {first_month: {i: p["rating"] for i, p in players.items()}}
        self.pool: dict[str, list[dict]] = {}
        self.changes: dict[str, dict[str, int]] = {}

    def add_list(self, month: str, ratings: dict[str, int | None]) -> None:
        """The list in force in an earlier ``month`` (``--earlier-list``): id -> rating."""
        self.lists[month] = dict(ratings)

    def snapshot(self) -> dict:
        """Everything the next period changes, to go back to for a ``--replace``."""
        return copy.deepcopy(
            {
                "players": self.players,
                "lists": self.lists,
                "pool": self.pool,
                "changes": self.changes,
            }
        )

    def restore(self, state: dict) -> None:
        state = copy.deepcopy(state)
        self.players, self.lists = state["players"], state["lists"]
        self.pool, self.changes = state["pool"], state["changes"]

    def rate_period(self, period: str, events: list[dict]) -> dict[str, dict]:
        """events: [{name, start (YYYY-MM-DD), games: [(white, black, result)]}]."""
        for event in events:
            for w, b, _ in event["games"]:
                for pid in (w, b):
                    if pid not in self.players:
                        self.players[pid] = {
                            "name": pid,
                            "rating": None,
                            "k": None,
                            "birth": None,
                            "games": None,
                            "ever": False,
                            "sex": "",
                            "last": "",
                            "flags": "",
                            "federation": "",
                            "title": "",
                        }
        n_games: dict[str, int] = {}
        dev: dict[str, Fraction] = {}
        current: dict[str, list[dict]] = {}
        for event in events:
            ratings = self.lists[event["start"][:7]]
            in_force = self.lists.get(period, {})
            per_player: dict[str, dict] = {}
            for w, b, result in event["games"]:
                for me, other, score in ((w, b, SCORES[result][0]), (b, w, SCORES[result][1])):
                    own, opp = ratings.get(me), ratings.get(other)
                    # RULES.md 7 / B.02 8.2.4: a player unrated when an older event started but
                    # rated on the list in force now is rated in it with that rating; the
                    # opponents still see him as unrated (``opp`` stays the start list's).
                    if own is None:
                        own = in_force.get(me)
                    if own is not None and opp is not None:
                        n_games[me] = n_games.get(me, 0) + 1
                        dev[me] = dev.get(me, Fraction(0)) + score - expected(own, opp)
                    elif own is None and opp is not None:
                        row = per_player.setdefault(
                            me,
                            {
                                "start": event["start"],
                                "name": event["name"],
                                "n": 0,
                                "points": Fraction(0),
                                "opp": 0,
                            },
                        )
                        row["n"] += 1
                        row["points"] += score
                        row["opp"] += opp
            for pid, row in per_player.items():
                current.setdefault(pid, []).append(row)

        year = int(period[:4])
        next_year = int(next_month(period)[:4])
        result_rows = {}
        self.changes[period] = {}
        for pid, p in self.players.items():
            old = p["rating"]
            played = 0
            if old is not None:
                n = n_games.get(pid, 0)
                k = p["k"] if p["k"] is not None else k_for(p, year)
                if k * n > 700:
                    k = 700 // n
                change = half_away(k * dev.get(pid, Fraction(0)))
                self.changes[period][pid] = change
                new = old + change
                played = n
                if p["games"] is not None:
                    p["games"] += n
                if old >= 2400 or new >= 2400 and new >= 1400:
                    p["ever"] = True
                p["rating"] = new if new >= 1400 else None
            else:
                rows = sorted(current.get(pid, []), key=lambda r: (r["start"], r["name"]))
                earlier = self.pool.get(pid, [])
                if rows and not earlier and rows[0]["points"] == 0:
                    rows[0]["disregarded"] = True
                for r in rows:
                    r.setdefault("disregarded", False)
                    r["period"] = period
                if rows:
                    self.pool[pid] = earlier + rows
                window = [
                    r
                    for r in self.pool.get(pid, [])
                    if not r["disregarded"]
                    and month_number(r["period"]) >= month_number(period) - 25
                ]
                if rows:
                    n = sum(r["n"] for r in window)
                    ru, published = first_rating(
                        n, sum(r["points"] for r in window), sum(r["opp"] for r in window)
                    )
                    if published:
                        p["rating"] = ru
                        p["games"] = (p["games"] or 0) + n
                        played = sum(r["n"] for r in rows if not r["disregarded"])
                        self.pool[pid] = []
                        if ru >= 2400:
                            p["ever"] = True
            if played > 0:
                p["last"] = period
            p["period_games"] = played
            p["k"] = None if p["rating"] is None else k_for(p, next_year)
            inactive = (
                p["rating"] is not None
                and p["last"] != ""
                and month_number(period) - month_number(p["last"]) >= 12
            )
            p["flags"] = ("w" if p["sex"].lower() in ("w", "f") else "") + ("i" if inactive else "")
            result_rows[pid] = self.row(pid)
        self.lists[next_month(period)] = {i: p["rating"] for i, p in self.players.items()}
        return result_rows

    def row(self, pid: str) -> dict[str, str]:
        p = self.players[pid]

        def text(v: object) -> str:
            return "" if v is None else str(v)

        return {
            "id": pid,
            "name": p["name"],
            "federation": p["federation"],
            "sex": p["sex"],
            "title": p["title"],
            "birth_year": text(p["birth"]),
            "rating": text(p["rating"]),
            "period_games": str(p["period_games"]),
            "games": text(p["games"]),
            "k": text(p["k"]),
            "ever_2400": "true" if p["ever"] else "false",
            "flags": p["flags"],
            "last_played": p["last"],
        }
