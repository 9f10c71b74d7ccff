"""A deliberately plain reference implementation of one FIDE rating period, for tests only.

Per-game loops, Fractions and the table read straight from the CSV text: nothing shared with the
pipeline's engine, grouper or rounding, so agreement between the two means something.
"""

from __future__ import annotations

import csv
from fractions import Fraction
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "pipeline" / "rules" / "data"


def load_table() -> list[tuple[int, int | None, Fraction]]:
    with (DATA / "table_8_1_2.csv").open() as fh:
        return [
            (int(r["d_min"]), int(r["d_max"]) if r["d_max"] else None, Fraction(r["pd_higher"]))
            for r in csv.DictReader(fh)
        ]


def pd_for(own: int, opp: int, capped: bool, table) -> Fraction:
    d = own - opp
    if capped:
        d = max(-400, min(400, d))
    a = abs(d)
    for lo, hi, high in table:
        if a >= lo and (hi is None or a <= hi):
            return high if d >= 0 else 1 - high
    raise AssertionError(d)


def round_away(x: Fraction) -> int:
    sign = -1 if x < 0 else 1
    x = abs(x)
    whole = int(x)
    return sign * (whole + (1 if x - whole >= Fraction(1, 2) else 0))


SCORES = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (Fraction(1, 2), Fraction(1, 2))}


def rate_games(
    players: dict[str, dict], games: list[dict], year: int, exempt_from: int | None = 2650
):
    """players: id -> {rating, k, birth_year, games, ever_2400}; games: {white, black, result}."""
    table = load_table()
    dev: dict[str, Fraction] = {p: Fraction(0) for p in players}
    count: dict[str, int] = {p: 0 for p in players}
    for g in games:
        if g["result"] not in SCORES:
            continue
        w, b = g["white"], g["black"]
        rw, rb = players[w]["rating"], players[b]["rating"]
        if not rw or not rb:
            continue
        sw, sb = SCORES[g["result"]]
        for me, own, opp, s in ((w, rw, rb, sw), (b, rb, rw, sb)):
            capped = exempt_from is None or own < exempt_from
            dev[me] += s - pd_for(own, opp, capped, table)
            count[me] += 1
    out = {}
    for p, info in players.items():
        if not info["rating"]:
            continue
        if info.get("k"):
            k = info["k"]
        elif info.get("ever_2400") or info["rating"] >= 2400:
            k = 10
        elif info.get("birth_year") and year - info["birth_year"] <= 18 and info["rating"] < 2300:
            k = 40
        elif info.get("games") is not None and info["games"] < 30:
            k = 40
        else:
            k = 20
        n = count[p]
        while k * n > 700:
            k -= 1
        change = round_away(k * dev[p])
        out[p] = {"k": k, "games": n, "change": change, "new_rating": info["rating"] + change}
    return out
