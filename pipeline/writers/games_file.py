"""An event as the organiser's games file (``fiderate convert --to csv|xlsx``): one row per game
in the games format ``fiderate rate`` reads (docs/formats.md), so a TRF has a way back to a
spreadsheet and the file rates as the TRF does.

Columns: ``event, round, date, white, black, result`` (the format's own), the players' names
(``white_name``, ``black_name``: read back as the names of players the list lacks, and a named
player with a blank rating as a known unrated player) and the ratings each side is rated from
(``white_rating``, ``black_rating``: the games format's per-game ratings, read back as such).
Ids stay text (``0042`` keeps its zeros); ratings and whole rounds are numbers in the XLSX (the
workbooks' one rule: :mod:`pipeline.writers.xlsx.cell_types`). Byes have no row in a games file
(they are never rated), nor have players with no game: the conversion says how many byes, and
which players, were left out.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pipeline.writers.text.csvtext import write_text_csv
from pipeline.writers.xlsx.package import Book
from pipeline.writers.xlsx.workbooks import new_sheet, write_table

GAMES_FILE_COLUMNS = [
    "event",
    "round",
    "date",
    "white",
    "black",
    "result",
    "white_name",
    "black_name",
    "white_rating",
    "black_rating",
]
GAMES_SHEET = "Games"


def _ratings(games: pd.DataFrame, side: str, rating: pd.Series) -> pd.Series:
    """The rating the side is rated from: the game's own (an override on a games file), else the
    player's (``rating``: id -> rating used)."""
    own = games[f"{side}_rating"].astype("Int64")
    used = games[side].map(rating).astype("Int64")
    return own.fillna(used).astype("string").fillna("")


def games_file_table(games: pd.DataFrame, people: pd.DataFrame) -> pd.DataFrame:
    """The games file's rows, every cell text. ``people``: id, name, rating (the rating each
    player is rated from, ``pipeline.jobs.convert.event_people``)."""
    by_id = people.drop_duplicates("id").set_index("id")
    names = by_id["name"].astype(str)
    rating = by_id["rating"].astype("Int64")
    date = games["date"].astype("string").fillna("") if "date" in games else ""
    table = pd.DataFrame(
        {
            "event": games["event"].astype(str),
            "round": games["round"].astype(str),
            "date": date,
            "white": games["white"].astype(str),
            "black": games["black"].astype(str),
            "result": games["result"].astype(str),
            "white_name": games["white"].map(names).fillna("").astype(str),
            "black_name": games["black"].map(names).fillna("").astype(str),
            "white_rating": _ratings(games, "white", rating),
            "black_rating": _ratings(games, "black", rating),
        }
    )
    return table.astype(str).reset_index(drop=True)


def write_games_file(table: pd.DataFrame, path: Path, kind: str) -> None:
    """``table`` as a games CSV (UTF-8, LF) or an XLSX with one sheet, ``Games``."""
    if kind == "csv":
        write_text_csv(table, path)
        return
    book = Book(path)
    write_table(new_sheet(book, GAMES_SHEET), table)
    book.save()
