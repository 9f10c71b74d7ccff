"""The baseline of ``bench_million``: the same rating job in plain Python (csv module, dicts and
the FIDE table 8.1.2, exact integer hundredths), standard rules from 2025-10-01.

It reads a players CSV and a games CSV as ``benchmarks.synthetic`` writes them (result tokens
1-0, 0-1, 1/2-1/2, +-, -+, --; optional white_rating/black_rating overrides; every id on the
list) and writes ``rating_list.csv`` and ``games.csv`` as ``fiderate rate`` does, so the bench
can check that both produce the same rating list.

    python -m benchmarks.plain_python games.csv players.csv OUT_DIR [PERIOD_YEAR]
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

TABLE = Path(__file__).resolve().parents[1] / "pipeline" / "rules" / "data" / "table_8_1_2.csv"
# result token -> (white score in half points, black score, played)
RESULTS = {
    "1-0": (2, 0, True),
    "0-1": (0, 2, True),
    "1/2-1/2": (1, 1, True),
    "+-": (2, 0, False),
    "-+": (0, 2, False),
    "--": (0, 0, False),
}
SHOWN = {(2, True): "1", (1, True): "½", (0, True): "0", (2, False): "+", (0, False): "-"}
GAMES_HEADER = "player,event,round,opponent,player_rating,opponent_rating,result,rated,diff,pd,dev,note,date,source,line"  # noqa: E501
LIST_HEADER = "id,name,rating,k,games,score,expected,change_exact,change,new_rating,k_rule,k_assumed,federation,title"  # noqa: E501


def pd_table() -> list[int]:
    """PD of the higher-rated player in hundredths, for |D| = 0..736 (one entry per point; 736
    stands for every |D| above 735: 1.00)."""
    higher = [100] * 737
    with TABLE.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if not row["d_max"]:
                continue  # 736 and above: 1.00
            whole, _, frac = row["pd_higher"].partition(".")
            value = int(whole) * 100 + int((frac + "00")[:2])
            for d in range(int(row["d_min"]), int(row["d_max"]) + 1):
                higher[d] = value
    return higher


def hundredths(units: int) -> str:
    sign = "-" if units < 0 else ""
    return f"{sign}{abs(units) // 100}.{abs(units) % 100:02d}"


def half_away(units: int) -> int:
    return (1 if units >= 0 else -1) * ((abs(units) * 2 + 100) // 200)


def natural_key(player_id: str) -> tuple:
    return (0, len(player_id), player_id) if re.fullmatch(r"\d+", player_id) else (1, 0, player_id)


def k_rule(p: dict, year: int) -> tuple[int, str]:
    if p["rating"] == "":
        return 0, "unrated: no K (first rating)"
    rating = int(p["rating"])
    if p["k"] != "":
        return int(p["k"]), "published K (used as given)"
    if p["ever_2400"] == "true" or rating >= 2400:
        return 10, "rating has reached 2400"
    if p["birth_year"] != "" and year - int(p["birth_year"]) <= 18 and rating < 2300:
        return 40, "junior (18 or younger this year) below 2300"
    if p["games"] != "" and int(p["games"]) < 30:
        return 40, "fewer than 30 rated games"
    return 20, "standard K"


def k_assumed(p: dict, year: int, k: int) -> bool:
    """Whether K ``k`` hangs on a fact the players file leaves blank: a rule above the one used,
    with another K, that the blank fact could make apply (2400 history, junior, games)."""
    if p["rating"] == "" or p["k"] != "" or int(p["rating"]) >= 2400 or p["ever_2400"] == "true":
        return False
    rating = int(p["rating"])
    junior = p["birth_year"] != "" and year - int(p["birth_year"]) <= 18 and rating < 2300
    unknown = [p["ever_2400"] == "" and k != 10]  # rules above K's, top to bottom
    if not junior:
        unknown.append(p["birth_year"] == "" and rating < 2300 and k != 40)
        if p["games"] == "" or int(p["games"]) >= 30:
            unknown.append(p["games"] == "" and k != 40)
    return any(unknown)


def rate(games_path: str, players_path: str, out: str, year: int = 2026) -> None:
    higher = pd_table()
    with open(players_path, newline="", encoding="utf-8") as f:
        players = {row["id"]: row for row in csv.DictReader(f)}
    sums = {pid: [0, 0, 0] for pid in players}  # games, score (halves), dev (hundredths)
    sides: dict[str, list[tuple]] = {pid: [] for pid in players}
    with open(games_path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        col = {name: i for i, name in enumerate(header)}
        w_at, b_at = col.get("white_rating"), col.get("black_rating")
        for line, row in enumerate(reader, start=2):
            token = row[col["result"]]
            white, black = row[col["white"]], row[col["black"]]
            ws, bs, played = RESULTS[token]
            wr = row[w_at] if w_at is not None and row[w_at] else players[white]["rating"]
            br = row[b_at] if b_at is not None and row[b_at] else players[black]["rating"]
            for me, opp, mine, theirs, score in (
                (white, black, wr, br, ws),
                (black, white, br, wr, bs),
            ):  # noqa: E501
                shown = SHOWN[score, played]
                if not played:
                    cells = (shown, "false", "", "", "", "not played (forfeit or bye)")
                elif mine == "":
                    cells = (shown, "false", "", "", "", "player unrated")
                elif theirs == "":
                    cells = (shown, "false", "", "", "", "opponent unrated")
                else:
                    own = int(mine)
                    d = own - int(theirs)
                    if own < 2650:
                        d = max(-400, min(400, d))
                    pd = higher[min(d, 736)] if d >= 0 else 100 - higher[min(-d, 736)]
                    dev = score * 50 - pd
                    total = sums[me]
                    total[0] += 1
                    total[1] += score
                    total[2] += dev
                    cells = (shown, "true", str(d), hundredths(pd), hundredths(dev), "")
                sides[me].append(
                    (
                        line,
                        row[col["event"]],
                        row[col["round"]],
                        opp,
                        mine,
                        theirs,
                        cells,
                        row[col["date"]],
                    )  # noqa: E501
                )
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    order = sorted(players, key=natural_key)
    with open(out_dir / "rating_list.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(LIST_HEADER.split(","))
        for pid in order:
            p = players[pid]
            n, score, dev = sums[pid]
            k, rule = k_rule(p, year)
            assumed = k_assumed(p, year, k)  # by the K of the precedence, before the 700 rule
            if k * n > 700:
                k, rule = 700 // n, rule + "; 700 rule: K x games <= 700"
            change = half_away(k * dev)
            expected = score * 50 - dev
            rated = p["rating"] != ""
            writer.writerow(
                [
                    pid,
                    p["name"],
                    p["rating"],
                    k if rated else "",
                    n,
                    f"{score // 2}.{5 * (score % 2)}",
                    hundredths(expected),
                    hundredths(k * dev),
                    change,
                    int(p["rating"]) + change if rated else "",
                    rule,
                    "true" if assumed else "false",
                    p["federation"],
                    p["title"],
                ]
            )
    with open(out_dir / "games.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(GAMES_HEADER.split(","))
        source = Path(games_path).name  # games.csv names its input file, not the folders
        for pid in order:
            for line, event, rnd, opp, mine, theirs, cells, date in sorted(sides[pid]):
                writer.writerow([pid, event, rnd, opp, mine, theirs, *cells, date, source, line])


if __name__ == "__main__":
    rate(*sys.argv[1:4], *(int(a) for a in sys.argv[4:5]))
