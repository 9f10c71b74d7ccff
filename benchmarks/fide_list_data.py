"""Generate FIDE rating lists (TXT combined and XML combined) of any size for the benchmarks.

Layout from ../shared/fide/RATING_LISTS.md. About 58% of the players are unrated everywhere, as in
the real list; written in blocks so generating 1.9 million players needs little memory.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

TXT_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
FEDS = ["GER", "FRA", "ESP", "IND", "USA", "RUS", "POL", "ITA", "NED", "ENG"]
TITLES = ["", "", "", "", "", "", "FM", "CM", "IM", "GM"]


def _columns(rng: np.random.Generator, start: int, n: int) -> dict[str, np.ndarray]:
    rated = rng.random(n) < 0.42
    rating = np.where(rated, rng.integers(1400, 2800, n), 0)
    k = np.where(rated, rng.choice([10, 20, 40], n), 0)
    return {
        "id": np.arange(start, start + n) + 100_000,
        "fed": rng.choice(FEDS, n),
        "sex": rng.choice(["M", "F"], n),
        "title": np.where(rating > 2300, rng.choice(TITLES, n), ""),
        "rating": rating,
        "games": np.where(rated, rng.integers(0, 12, n), 0),
        "k": k,
        "rapid": np.where(rated, np.maximum(rating - 30, 1400), 0),
        "blitz": np.where(rated, np.maximum(rating - 60, 1400), 0),
        "bday": np.where(rng.random(n) < 0.9, rng.integers(1940, 2020, n), 0),
        "flag": rng.choice(["", "", "", "i", "w", "wi"], n),
    }


_RECORD_FIELDS = (
    "id",
    "fed",
    "sex",
    "title",
    "rating",
    "games",
    "k",
    "rapid",
    "blitz",
    "bday",
    "flag",
)


def _records(c: dict[str, np.ndarray]) -> zip:  # type: ignore[type-arg]
    """One tuple per player, fields in _RECORD_FIELDS order (what both writers format)."""
    return zip(*(c[name].tolist() for name in _RECORD_FIELDS), strict=True)


def write_txt(path: Path, players: int, seed: int = 1, block: int = 200_000) -> None:
    rng = np.random.default_rng(seed)
    with path.open("w", encoding="utf-8", newline="") as fh:
        fh.write(TXT_HEADER + "\r\n")
        for start in range(0, players, block):
            c = _columns(rng, start, min(block, players - start))
            lines = [
                f"{i:<15}{'Player, Number ' + str(i):<61}{fed:<4}{sex:<4}{tit:<5}{'':<5}{'':<15}"
                f"{'':<4}{r:>5} {g:>3} {k:>2} {rr:>5} {0:>3} {20 if rr else 0:>2} {br:>5} {0:>3} "
                f"{20 if br else 0:>2} {bd:>5} {fl:<4}\r\n"
                for i, fed, sex, tit, r, g, k, rr, br, bd, fl in _records(c)
            ]
            fh.write("".join(lines))


def write_xml(path: Path, players: int, seed: int = 1, block: int = 200_000) -> None:
    rng = np.random.default_rng(seed)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write("<playerslist>\n")
        for start in range(0, players, block):
            c = _columns(rng, start, min(block, players - start))
            parts = [
                f"<player>\n<fideid>{i}</fideid>\n<name>Player, Number {i}</name>\n"
                f"<country>{fed}</country>\n<sex>{sex}</sex>\n<title>{tit}</title>\n"
                f"<w_title></w_title>\n<o_title></o_title>\n<foa_title></foa_title>\n"
                f"<rating>{r}</rating>\n<games>{g}</games>\n<k>{k}</k>\n"
                f"<rapid_rating>{rr}</rapid_rating>\n<rapid_games>0</rapid_games>\n"
                f"<rapid_k>{20 if rr else 0}</rapid_k>\n<blitz_rating>{br}</blitz_rating>\n"
                f"<blitz_games>0</blitz_games>\n<blitz_k>{20 if br else 0}</blitz_k>\n"
                f"<birthday>{bd}</birthday>\n<flag>{fl}</flag>\n</player>\n"
                for i, fed, sex, tit, r, g, k, rr, br, bd, fl in _records(c)
            ]
            fh.write("".join(parts))
        fh.write("</playerslist>\n")
