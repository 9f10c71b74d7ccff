"""The list in force or an earlier one, read with the columns a period run adds (the columns it
writes are :data:`pipeline.lists.list_columns.LIST_TEXT_COLUMNS`).

A list this command wrote reads back with the core players reader (``id, name, rating, k,
birth_year, games, ever_2400, federation, title, sex``) plus three columns only period runs use:
``period_games`` (rated games in the period that produced the list), ``last_played`` (the last
period with rated games, for the inactive flag) and ``flags``. A list in another format (a FIDE
download, once a reader for it exists) goes through :func:`pipeline.readers.read_players` and
simply lacks those three.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import Code
from pipeline.model import PlayerList
from pipeline.problem_list import ProblemList
from pipeline.readers import read_players, read_table_of_kind
from pipeline.readers.lists.players_file import parse_players
from pipeline.readers.tables import cells
from schemas import Players, validate

TABLE_SUFFIXES = {".csv", ".xlsx", ".xlsm", ".tsv"}


def read_list(path: Path | str, rules: str | None = None) -> PlayerList:
    """A list in force or an earlier list: a table this tool published, or a FIDE download.

    ``rules`` (the run's rule set name) chooses a FIDE combined list's standard, rapid or blitz
    column, with the standard rating for a player who has no rapid (blitz) one (Rapid & Blitz
    Rating Regulations 7.2.1); a table's one rating column is the list's own."""
    path = Path(path)
    if path.suffix.lower() not in TABLE_SUFFIXES:
        players = read_players(path, rules=rules)
        frame = players.players.copy()
        for column in ("last_played", "flags", "sex"):
            if column not in frame.columns:
                frame[column] = ""
        players = PlayerList(players.source, frame)
    else:
        _, table = read_table_of_kind(path, {"players"})
        problems = ProblemList()
        players = parse_players(table, problems)
        last = cells.text(table, "last_played")
        bad = last.ne("") & ~last.str.fullmatch(r"[0-9]{4}-(0[1-9]|1[0-2])")
        cells.report(
            problems,
            table,
            bad.to_numpy(),
            "last_played",
            Code.BAD_VALUE,
            "expected a period as YYYY-MM",
            "write the period as YYYY-MM, e.g. 2026-11, or leave it blank",
        )
        players.players["last_played"] = last.where(~bad, "").astype(str)
        players.players["flags"] = cells.text(table, "flags").astype(str)
        problems.raise_if_any()
    validate(players.players, Players, players.source)
    # A period publishes ever_2400 on every row: a list that does not say it starts as false.
    players.players["ever_2400"] = players.players["ever_2400"].fillna(False).astype(bool)
    return players
