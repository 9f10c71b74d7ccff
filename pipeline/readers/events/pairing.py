"""From one row per player per round to one row per game: the common back end of every event
format (TRF, Swiss crosstable, round-robin grid).

A reader hands over a *roster* (one row per player: ``sno``, ``id``, ``name``, ``rating``,
``birth_year``, ``federation``, ``title``, ``sex``, ``points_h``, ``points_value``, ``line``) and
*cells* (one row per non-blank round cell: ``sno``, ``round``, ``opp`` (0 = no opponent),
``colour`` (``w``/``b``/``""``), ``code`` (a canonical code of :mod:`.event_codes`), ``line``,
``column``, ``value``). Here both sides of every game are matched and must agree; the games, the
byes and the event's own player list come out.

Ids: a player's FIDE ID when the file gives one, otherwise ``<file stem>#<starting number>``
(e.g. ``karl-mala-2005#146``): stable for the file, and two events of one period never share one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.errors import Code
from pipeline.model import EventInfo, GamesInput, PlayerList
from pipeline.problem_list import ProblemList
from pipeline.readers.events.event_codes import BYE_CODES, BYE_TEXT, GAME_CODES, PAIR_RESULTS

# Names pairing programs give the dummy player that stands for "no opponent" (compared after
# lower-casing and dropping spaces and punctuation). Such a player is dropped with their cells
# when they have no rating, no FIDE ID and no game against a real opponent.
DUMMY_NAMES = {
    "spielfrei",
    "bye",
    "byes",
    "free",
    "frei",
    "libre",
    "descanso",
    "exento",
    "vrij",
    "pauze",
    "wolny",
    "dummy",
    "byeplayer",
    "freilos",
    "pauza",
    "pause",
}

# PAIR_RESULTS as a table keyed by the two codes ("10", "=="), for vectorized look-ups.
PAIR_TABLE = pd.DataFrame(
    [(a + b, r.white_h, r.black_h, r.played, r.canonical) for (a, b), r in PAIR_RESULTS.items()],
    columns=["key", "own_h", "opp_h", "played", "canonical"],
).set_index("key")
FLIPPED = {"1-0": "0-1", "0-1": "1-0", "+-": "-+", "-+": "+-"}

CELL_COLUMNS = ["sno", "round", "opp", "colour", "code", "line", "column", "value"]


def fallback_id(source: str, sno: pd.Series) -> pd.Series:
    return Path(source).stem + "#" + sno.astype(str)


def _dummies(roster: pd.DataFrame, cells: pd.DataFrame) -> set[int]:
    key = roster["name"].str.lower().str.replace(r"[^0-9a-zß]+", "", regex=True)
    candidate = key.isin(DUMMY_NAMES) & roster["rating"].isna() & roster["id"].eq("")
    if not candidate.any():
        return set()
    real = cells[(cells["opp"] > 0) & cells["code"].isin(["1", "=", "0"])]
    played = set(real["sno"]) | set(real["opp"])
    return {int(s) for s in roster.loc[candidate, "sno"] if int(s) not in played}


def _where(cells: pd.DataFrame, pos: int | np.integer) -> str:
    return (
        f"line {cells['line'].iat[pos]} ({cells['column'].iat[pos]}: {cells['value'].iat[pos]!r})"
    )


_MATCH_FIX = (
    "results must match: 1 against 0, = against =, + against -, W against L, D against D; "
    "colours w against b"
)


def _add_at(
    problems: ProblemList,
    code: Code,
    message: str,
    source: str,
    cells: pd.DataFrame,
    pos: int | np.integer,
    fix: str,
) -> None:
    """A problem located at the round cell in row ``pos`` of ``cells`` (its line, column, value)."""
    problems.add(
        code,
        message,
        file=source,
        row=int(cells["line"].iat[pos]),
        column=str(cells["column"].iat[pos]),
        value=str(cells["value"].iat[pos]),
        fix=fix,
    )


def _report_cells(
    problems: ProblemList,
    source: str,
    cells: pd.DataFrame,
    mask: np.ndarray,
    code: Code,
    message: str,
    fix: str,
) -> None:
    for pos in problems.within_room(np.flatnonzero(mask), source):
        fields = {c: cells[c].iat[pos] for c in cells.columns}
        _add_at(problems, code, message.format(**fields), source, cells, pos, fix)


def _check_cells(
    cells: pd.DataFrame, known: pd.Index, source: str, problems: ProblemList
) -> pd.DataFrame:
    """Drop (and report) cells that name an unknown player or themselves, or mix up bye codes."""
    game = cells["opp"].to_numpy() > 0
    unknown = game & ~cells["opp"].isin(known).to_numpy()
    _report_cells(
        problems,
        source,
        cells,
        unknown,
        Code.UNKNOWN_PLAYER,
        "round {round} names opponent number {opp}, but no player has that number",
        "correct the opponent's starting number",
    )
    self_paired = game & (cells["opp"] == cells["sno"]).to_numpy()
    _report_cells(
        problems,
        source,
        cells,
        self_paired,
        Code.SELF_PAIRING,
        "player {sno} is paired against themselves in round {round}",
        "correct the opponent's starting number",
    )
    bye_with_opp = game & ~cells["code"].isin(list(GAME_CODES)).to_numpy()
    _report_cells(
        problems,
        source,
        cells,
        bye_with_opp,
        Code.BAD_RESULT,
        "result {code!r} is a bye code but the cell names opponent {opp}",
        "a bye has no opponent (0000); a game result is 1, =, 0, +, -, W, D or L",
    )
    game_without_opp = ~game & ~cells["code"].isin(list(BYE_CODES)).to_numpy()
    _report_cells(
        problems,
        source,
        cells,
        game_without_opp,
        Code.BAD_RESULT,
        "result {code!r} needs an opponent, but the cell names none",
        "give the opponent's number, or use a bye code: H, F, U, Z (or + / -)",
    )
    return cells[~(unknown | self_paired | bye_with_opp | game_without_opp)]


def _match_sides(cells: pd.DataFrame, source: str, problems: ProblemList) -> pd.DataFrame:
    """Each game cell joined with the opponent's cell of the same round; mismatches reported."""
    game = cells[cells["opp"] > 0].reset_index(drop=True)
    other = cells.rename(columns={c: c + "_o" for c in cells.columns})
    # Exact match first (a grid has many cells per player and cycle); then, for the cells whose
    # opponent does not name them back, what the opponent's line holds instead.
    both = game.merge(
        other, how="left", left_on=["round", "opp", "sno"], right_on=["round_o", "sno_o", "opp_o"]
    )
    pointed_back = both["sno_o"].notna().to_numpy(dtype=bool)
    lost = game[~pointed_back].merge(
        other.drop_duplicates(["round_o", "sno_o"]),
        how="left",
        left_on=["round", "opp"],
        right_on=["round_o", "sno_o"],
    )
    for pos in problems.within_room(np.arange(len(lost)), source):
        if pd.isna(lost["sno_o"].iat[pos]):
            theirs = (
                f"player {lost['opp'].iat[pos]} has no usable entry "
                f"for round {lost['round'].iat[pos]}"
            )
        else:
            theirs = (
                f"player {lost['opp'].iat[pos]}'s line {lost['line_o'].iat[pos]} "
                f"({lost['column_o'].iat[pos]}: {lost['value_o'].iat[pos]!r}) names "
                f"{'no opponent' if lost['opp_o'].iat[pos] == 0 else lost['opp_o'].iat[pos]}"
            )
        message = (
            f"{_where(lost, pos)}: player {lost['sno'].iat[pos]} plays "
            f"{lost['opp'].iat[pos]} in round {lost['round'].iat[pos]}, but {theirs}"
        )
        fix = "make both players' lines name each other in that round"
        _add_at(problems, Code.RESULT_MISMATCH, message, source, lost, pos, fix)
    both = both[pointed_back].reset_index(drop=True)
    agree = (both["code"] + both["code_o"]).isin(PAIR_TABLE.index).to_numpy()
    played = both["code"].isin(["1", "=", "0"]).to_numpy()
    colour = both["colour"].to_numpy(dtype=str)
    colour_o = both["colour_o"].to_numpy(dtype=str)
    same_colour = played & (colour == colour_o) & np.isin(colour, ["w", "b"])
    bad = ~agree | same_colour
    first = (both["sno"] < both["opp"]).to_numpy()
    for at in problems.within_room(np.flatnonzero(bad & first), source):
        what = "results" if not agree[at] else "colours"
        message = (
            f"the two sides of the round-{both['round'].iat[at]} game "
            f"{both['sno'].iat[at]} - {both['opp'].iat[at]} disagree ({what}): "
            f"{_where(both, at)} against line {both['line_o'].iat[at]} "
            f"({both['column_o'].iat[at]}: {both['value_o'].iat[at]!r})"
        )
        _add_at(problems, Code.RESULT_MISMATCH, message, source, both, at, _MATCH_FIX)
    return both[~bad & first].reset_index(drop=True)


def _scores(cells: pd.DataFrame) -> np.ndarray:
    game_score = cells["code"].map({c: s for c, (s, _) in GAME_CODES.items()})
    bye_score = cells["code"].map(BYE_CODES)
    return np.where(cells["opp"].to_numpy() > 0, game_score.fillna(0), bye_score.fillna(0)).astype(
        np.int64
    )


def _check_points(
    roster: pd.DataFrame, cells: pd.DataFrame, source: str, problems: ProblemList
) -> None:
    given = roster[roster["points_h"].notna()]
    if given.empty:
        return
    totals = pd.Series(_scores(cells), index=cells.index).groupby(cells["sno"]).sum()
    got = given["sno"].map(totals).fillna(0).astype(np.int64)
    bad = got.to_numpy() != given["points_h"].to_numpy(dtype=np.int64)
    for pos in problems.within_room(np.flatnonzero(bad), source):
        row = given.iloc[pos]
        problems.add(
            Code.POINTS_MISMATCH,
            f"player {row['sno']} has {row['points_value']!r} points, but the round results "
            f"add up to {got.iat[pos] / 100:g}",
            file=source,
            row=int(row["line"]),
            column=str(row["points_column"]),
            value=str(row["points_value"]),
            fix="correct the points or the round results (byes: H = ½, F/U/+ = 1, Z/- = 0)",
        )


def _player_list(roster: pd.DataFrame, source: str, problems: ProblemList) -> PlayerList:
    dup = roster["id"].duplicated(keep="first")
    for pos in np.flatnonzero(dup.to_numpy()):
        first = roster.loc[roster["id"] == roster["id"].iat[pos], "line"].iat[0]
        problems.add(
            Code.DUPLICATE_PLAYER,
            f"id {roster['id'].iat[pos]!r} is already given at line {first}",
            file=source,
            row=int(roster["line"].iat[pos]),
            column="id",
            value=str(roster["id"].iat[pos]),
            fix="give each player their own FIDE ID",
        )
    n = len(roster)
    players = pd.DataFrame(
        {
            "id": roster["id"].astype(str),
            "name": roster["name"].astype(str),
            "rating": roster["rating"].astype("Int64"),
            "k": pd.Series(pd.NA, index=roster.index, dtype="Int64"),
            "birth_year": roster["birth_year"].astype("Int64"),
            "games": pd.Series(pd.NA, index=roster.index, dtype="Int64"),
            "ever_2400": np.zeros(n, dtype=bool),
            "federation": roster["federation"].astype(str),
            "title": roster["title"].astype(str),
            "sex": roster["sex"].astype(str),
            "line": roster["line"].astype(np.int64),
            "sno": roster["sno"].astype(np.int64),
        }
    )
    if "final_rank" in roster.columns:  # TRF: the file's own final ranks (standings order)
        players["final_rank"] = roster["final_rank"].astype("Int64")
    return PlayerList(source, players.reset_index(drop=True))


def build_event(
    source: str, roster: pd.DataFrame, cells: pd.DataFrame, info: EventInfo, problems: ProblemList
) -> GamesInput:
    """Roster + round cells -> GamesInput with games, byes and the event's own player list."""
    if not (cells["opp"] > 0).any():
        _no_games(source, problems)
    dummies = _dummies(roster, cells)
    roster = roster.copy()
    roster["id"] = roster["id"].where(roster["id"].ne(""), fallback_id(source, roster["sno"]))
    if dummies:
        roster = roster[~roster["sno"].isin(dummies)]
        cells = cells[~cells["sno"].isin(dummies)]
        cells = cells.assign(opp=cells["opp"].where(~cells["opp"].isin(dummies), 0))
    cells = _check_cells(cells.reset_index(drop=True), pd.Index(roster["sno"]), source, problems)
    _check_points(roster, cells, source, problems)
    pairs = _match_sides(cells, source, problems)
    ids = roster.set_index("sno")["id"]
    event = info.name or Path(source).stem

    white_is_opp = (pairs["colour_o"] == "w").to_numpy()
    result = PAIR_TABLE.reindex((pairs["code"] + pairs["code_o"]).to_numpy())
    own_h = result["own_h"].to_numpy(dtype=np.int64)
    opp_h = result["opp_h"].to_numpy(dtype=np.int64)
    canonical = result["canonical"].astype(str)
    canonical = np.where(white_is_opp, canonical.map(FLIPPED).fillna(canonical), canonical)
    white_sno = np.where(white_is_opp, pairs["opp"], pairs["sno"])
    black_sno = np.where(white_is_opp, pairs["sno"], pairs["opp"])
    rounds = pairs["round"].astype(np.int64)
    dates = rounds.map(info.round_dates).astype("string")
    games = pd.DataFrame(
        {
            "event": pd.Series(event, index=pairs.index, dtype=str),
            "round": rounds.astype(str),
            "date": dates,
            # ``.array``, not ``.to_numpy()``: the text stays ``str`` when there is no game
            # (an empty object array would fail the Games schema as an internal error).
            "white": pd.Series(white_sno).map(ids).astype(str).array,
            "black": pd.Series(black_sno).map(ids).astype(str).array,
            "result": pd.Series(canonical, dtype=str).array,
            "white_h": np.where(white_is_opp, opp_h, own_h),
            "black_h": np.where(white_is_opp, own_h, opp_h),
            "played": result["played"].to_numpy(dtype=bool),
            "white_rating": pd.Series(pd.NA, index=pairs.index, dtype="Int64"),
            "black_rating": pd.Series(pd.NA, index=pairs.index, dtype="Int64"),
            "source": source,
            "line": np.where(white_is_opp, pairs["line_o"], pairs["line"]).astype(np.int64),
        }
    )
    games = games.sort_values(
        ["round", "line"],
        key=lambda s: s.astype(np.int64) if s.name == "round" else s,
        kind="stable",
    ).reset_index(drop=True)
    byes = _byes(cells[cells["opp"] == 0], ids, roster, event, info, source)
    return GamesInput(
        source, games, players=_player_list(roster, source, problems), byes=byes, info=info
    )


def _no_games(source: str, problems: ProblemList) -> None:
    """A file of players and no game (a pairing engine's round-0 file, an event not yet
    played): nothing to rate. Said when no round cell names an opponent at all; cells that do but
    are bad are reported as such, and this would only repeat them."""
    problems.add(
        Code.NOT_A_TABLE,
        "the file lists players but no game: there are no games to rate",
        file=source,
        fix="give the event once its rounds are played (a file written before round 1 holds "
        "the players only), or leave it out of the run",
    )


def _byes(
    cells: pd.DataFrame,
    ids: pd.Series,
    roster: pd.DataFrame,
    event: str,
    info: EventInfo,
    source: str,
) -> pd.DataFrame:
    """Byes and recorded absences as sides with no opponent: never rated, shown in games.csv."""
    rounds = cells["round"].astype(np.int64)
    n = len(cells)
    return pd.DataFrame(
        {
            "player": cells["sno"].map(ids).astype(str),
            "opponent": pd.Series([""] * n, index=cells.index, dtype=str),
            "event": pd.Series(event, index=cells.index, dtype=str),
            "round": rounds.astype(str),
            "date": rounds.map(info.round_dates).astype("string"),
            "player_rating": cells["sno"].map(roster.set_index("sno")["rating"]).astype("Int64"),
            "opponent_rating": pd.Series(pd.NA, index=cells.index, dtype="Int64"),
            "score_h": cells["code"].map(BYE_CODES).astype(np.int64),
            "played": np.zeros(n, dtype=bool),
            "result": cells["code"].map(BYE_TEXT).astype(str),
            "k": pd.Series(pd.NA, index=cells.index, dtype="Int64"),
            "name": cells["sno"].map(roster.set_index("sno")["name"]).astype(str),
            "source": source,
            "line": cells["line"].astype(np.int64),
            "code": cells["code"].astype(str),
        }
    ).reset_index(drop=True)
