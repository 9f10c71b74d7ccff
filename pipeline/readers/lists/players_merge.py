"""The players of a run: the list in force merged with the players each event file brings.

The list in force decides where it has a value; a blank on it falls back to the event's own
value (issue 12), and players the list lacks come from the events.
"""

from __future__ import annotations

import pandas as pd

from pipeline.errors import PLAYERS_OPTION, Code
from pipeline.model import PlayerList
from pipeline.problem_list import ProblemList
from pipeline.readers.lists.player_details import DETAIL_TEXT, fill_blank_details


def merge_players(in_force: PlayerList | None, embedded: list[PlayerList]) -> PlayerList:
    """The list in force first (its blank details filled from the events), then each event's
    own players that are not on it yet. Two events giving one player (not on the list in force)
    different ratings is a problem."""
    problems = ProblemList()
    parts = [in_force.players] if in_force is not None else []
    listed = in_force.players["id"] if in_force is not None else pd.Series([], dtype=str)
    first = pd.DataFrame(
        {
            "id": pd.Series([], dtype=str),
            "first_rating": pd.Series([], dtype="Int64"),
            "first_line": pd.Series([], dtype="int64"),
            "first_source": "",
        }
    )
    for event in embedded:
        frame = event.players[~event.players["id"].isin(listed)]
        seen = frame.merge(first, on="id")
        rating, earlier = seen["rating"].astype("Int64"), seen["first_rating"].astype("Int64")
        differ = (rating != earlier).fillna(True) & ~(rating.isna() & earlier.isna())
        for row in seen[differ.to_numpy(dtype=bool)].itertuples(index=False):
            problems.add(
                Code.DUPLICATE_PLAYER,
                f"player {row.id!r} has rating {row.first_rating} in {row.first_source} "
                f"(line {row.first_line}) but {row.rating} here",
                file=event.source,
                row=int(row.line),
                column="rating",
                value=str(row.rating),
                fix=f"rate events with the same list in force, or give {PLAYERS_OPTION.cli}",
            )
        new = frame[~frame["id"].isin(first["id"]) & ~frame["id"].duplicated()]
        first = pd.concat(
            [
                first,
                pd.DataFrame(
                    {
                        "id": new["id"],
                        "first_rating": new["rating"].astype("Int64"),
                        "first_line": new["line"],
                        "first_source": event.source,
                    }
                ),
            ],
            ignore_index=True,
        )
        parts.append(new)
    problems.raise_if_any()
    if in_force is not None:
        parts[0] = fill_blank_details(in_force.players, event_details(embedded, listed))
    merged = pd.concat(parts, ignore_index=True)
    source = in_force.source if in_force is not None else embedded[0].source
    return PlayerList(source, merged)


def event_details(embedded: list[PlayerList], ids: pd.Series) -> pd.DataFrame:
    """id -> the details (name, federation, sex, title, birth_year) the events give players of
    the list in force, first event first."""
    columns = ["id", *DETAIL_TEXT, "birth_year"]
    frames = [e.players[[c for c in columns if c in e.players.columns]] for e in embedded]
    merged = pd.concat(frames, ignore_index=True)
    merged = merged[merged["id"].isin(ids)].drop_duplicates("id", keep="first")
    return merged.set_index("id")
