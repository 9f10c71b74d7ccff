"""Write the sample event (games.csv + players.csv) as a TRF, a crosstable CSV and a crosstable
XLSX, plus a small round-robin grid and the deliberately broken files under broken/.

Independent of fiderate on purpose: it places every TRF field at the column TRF.md gives, with
plain Python, so the readers are tested against a second implementation of the layout, not
against their own writer. Run from the repository root: ``python sample_data/make_samples.py``.
"""

from __future__ import annotations

import csv
from pathlib import Path

from openpyxl import Workbook

HERE = Path(__file__).resolve().parent
EVENT = "Autumn Open 2026"
ROUND_DATES = {1: "2026-11-07", 2: "2026-11-08", 3: "2026-11-14", 4: "2026-11-15", 5: "2026-11-21"}
# games.csv result -> (white's TRF code, black's TRF code)
CODES = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "1/2-1/2": ("=", "="),
    "+-": ("+", "-"),
    "-+": ("-", "+"),
}
SCORE = {"1": 1.0, "0": 0.0, "=": 0.5, "+": 1.0, "-": 0.0}
CELL = {"1": "1", "0": "0", "=": "½", "+": "+", "-": "-"}


def load() -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    with (HERE / "players.csv").open(encoding="utf-8") as fh:
        players = list(csv.DictReader(fh))
    with (HERE / "games.csv").open(encoding="utf-8") as fh:
        games = list(csv.DictReader(fh))
    # Starting ranks as pairing programs give them: rating high to low, unrated last, then name.
    players.sort(key=lambda p: (-int(p["rating"] or 0), p["name"]))
    for number, player in enumerate(players, start=1):
        player["sno"] = str(number)
    return players, games


def rounds_of(
    players: list[dict[str, str]], games: list[dict[str, str]]
) -> dict[str, dict[int, tuple]]:
    """player id -> round -> (opponent's starting rank, colour, TRF code)."""
    sno = {p["id"]: int(p["sno"]) for p in players}
    table: dict[str, dict[int, tuple]] = {p["id"]: {} for p in players}
    for g in games:
        white_code, black_code = CODES[g["result"]]
        r = int(g["round"])
        table[g["white"]][r] = (sno[g["black"]], "w", white_code)
        table[g["black"]][r] = (sno[g["white"]], "b", black_code)
    return table


def put(line: list[str], column: int, text: str, right: bool = False, width: int = 0) -> None:
    """Write ``text`` starting at 1-based ``column`` (right-aligned in ``width`` if asked)."""
    if right:
        text = text.rjust(width)
    for offset, char in enumerate(text):
        while len(line) < column + offset:
            line.append(" ")
        line[column - 1 + offset] = char


def points(rounds: dict[int, tuple]) -> float:
    return sum(SCORE[code] for _, _, code in rounds.values())


def write_trf(players, games, path: Path) -> None:  # type: ignore[no-untyped-def]
    table = rounds_of(players, games)
    lines = [
        f"012 {EVENT}",
        "022 Springfield",
        "032 NOR",
        "042 2026/11/07",
        "052 2026/11/21",
        f"062 {len(players)}",
        f"072 {sum(1 for p in players if p['rating'])}",
        "092 Individual: Swiss-System",
        "102 A. Arbiter",
        "122 90 min + 30 s",
    ]
    header = list("132")
    for r, date in ROUND_DATES.items():
        put(header, 92 + 10 * (r - 1), date[2:].replace("-", "/"))
    lines.append("".join(header))
    ranking = sorted(players, key=lambda p: (-points(table[p["id"]]), int(p["sno"])))
    rank = {p["id"]: i for i, p in enumerate(ranking, start=1)}
    for p in players:
        line = list("001")
        put(line, 5, p["sno"], right=True, width=4)
        put(line, 10, p["sex"])
        # GM as the one-letter code real exports use ("g"); other titles spelled out.
        put(line, 11, "g" if p["title"] == "GM" else p["title"], right=True, width=3)
        put(line, 15, p["name"])
        put(line, 49, p["rating"] or "0", right=True, width=4)
        put(line, 54, p["federation"])
        put(line, 58, p["id"], right=True, width=11)
        put(line, 70, f"{p['birth_year']}/00/00")
        put(line, 81, f"{points(table[p['id']]):.1f}", right=True, width=4)
        put(line, 86, str(rank[p["id"]]), right=True, width=4)
        for r, (opp, colour, code) in sorted(table[p["id"]].items()):
            put(line, 92 + 10 * (r - 1), str(opp), right=True, width=4)
            put(line, 97 + 10 * (r - 1), colour)
            put(line, 99 + 10 * (r - 1), code)
        lines.append("".join(line))
    lines.append("XXR 5")
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8", newline="")


def crosstable_rows(players, games, points_text):  # type: ignore[no-untyped-def]
    table = rounds_of(players, games)
    rows = []
    for p in players:
        cells = [
            f"{opp}{colour}{CELL[code]}"
            for _, (opp, colour, code) in sorted(table[p["id"]].items())
        ]
        rows.append(
            [
                p["sno"],
                p["title"],
                p["name"],
                p["federation"],
                p["rating"],
                p["id"],
                p["birth_year"],
                p["sex"],
                *cells,
                points_text(points(table[p["id"]])),
            ]
        )
    return rows


def write_crosstable_csv(players, games, path: Path) -> None:  # type: ignore[no-untyped-def]
    header = [
        "SNo",
        "Title",
        "Name",
        "FED",
        "Rtg",
        "FIDE ID",
        "Born",
        "Sex",
        "Rd1",
        "Rd2",
        "Rd3",
        "Rd4",
        "Rd5",
        "Pts",
    ]
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(crosstable_rows(players, games, lambda x: f"{x:.1f}"))


def write_crosstable_xlsx(players, games, path: Path) -> None:  # type: ignore[no-untyped-def]
    """German headers, a title row above the header, points written as 3½."""
    book = Workbook()
    sheet = book.active
    sheet.title = "Kreuztabelle"
    sheet.append([f"{EVENT} - Kreuztabelle nach Startrangliste"])
    sheet.append(
        [
            "Nr.",
            "Titel",
            "Teilnehmer",
            "Land",
            "Elo",
            "FIDE-ID",
            "Jahrgang",
            "Geschlecht",
            "1.Rd",
            "2.Rd",
            "3.Rd",
            "4.Rd",
            "5.Rd",
            "Punkte",
        ]
    )

    def half(x: float) -> str:
        return f"{int(x)}½" if x % 1 else str(int(x))

    for row in crosstable_rows(players, games, half):
        # Numbers as numbers, the way a spreadsheet holds them.
        row[0] = int(row[0])
        row[4] = int(row[4]) if row[4] else None
        row[5] = int(row[5])
        row[6] = int(row[6])
        sheet.append(row)
    book.save(path)


def write_grid(path: Path) -> None:
    """A 4-player round robin: Anna beats everyone, the rest draw among themselves."""
    rows = [
        ["No", "Name", "Rating", "1", "2", "3", "4", "Pts"],
        ["1", "Anna", "1900", "x", "1", "1", "1", "3"],
        ["2", "Bert", "1800", "0", "*", "½", "½", "1"],
        ["3", "Cleo", "1700", "0", "½", "", "½", "1"],
        ["4", "Dirk", "", "0", "½", "½", "x", "1"],
    ]
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


def write_broken(players, games, folder: Path) -> None:  # type: ignore[no-untyped-def]
    folder.mkdir(exist_ok=True)
    trf = (HERE / "event.trf").read_bytes().decode("utf-8").split("\r\n")
    # Round 1 of starting rank 1: a win where the opponent's line also says win.
    first = next(i for i, line in enumerate(trf) if line.startswith("001    1"))
    opp = int(trf[first][91:95])
    other = next(i for i, line in enumerate(trf) if line.startswith(f"001 {opp:>4}"))
    trf[other] = trf[other][:98] + "1" + trf[other][99:]
    (folder / "result-mismatch.trf").write_text("\r\n".join(trf), encoding="utf-8", newline="")
    with (HERE / "crosstable.csv").open(encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    rows[1][-1] = "9.5"  # points that the results do not add up to
    rows[2][9] = "4x1"  # not a cell any program writes
    with (folder / "crosstable-points.csv").open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


def main() -> None:
    players, games = load()
    write_trf(players, games, HERE / "event.trf")
    write_crosstable_csv(players, games, HERE / "crosstable.csv")
    write_crosstable_xlsx(players, games, HERE / "crosstable.xlsx")
    write_grid(HERE / "grid.csv")
    write_broken(players, games, HERE / "broken")


if __name__ == "__main__":
    main()
