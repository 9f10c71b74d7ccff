"""A player's details from the richest source: the list in force decides where it has a value;
where its cell is blank (or the name is only the id), an event file's own value is used."""

from __future__ import annotations

import pandas as pd

DETAIL_TEXT = ("name", "federation", "sex", "title")


def fill_blank_details(frame: pd.DataFrame, details: pd.DataFrame) -> pd.DataFrame:
    """The richest source decides a player's details: where the list has a blank name (or only
    the id, as a new player's row gets when the event named nobody), federation, sex, title or
    birth year, and an event gives one, the event's value is taken. A value on the list stays."""
    if details.empty:
        # Nothing to fill from (games files name no one): no reindex of every listed id (1 s for
        # FIDE's 1.9 M players).
        return frame
    ids = frame["id"].astype(str)
    known = details.reindex(ids.to_numpy())
    if not len(known) or known.isna().all().all():
        return frame
    out = frame.copy()
    for column in DETAIL_TEXT:
        if column not in known.columns or column not in out.columns:
            continue
        given = pd.Series(known[column].to_numpy(), index=frame.index).astype("string").fillna("")
        mine = out[column].astype(str)
        blank = mine.eq("") | (mine.eq(ids) if column == "name" else False)
        take = (blank & given.ne("")).to_numpy(dtype=bool)
        if take.any():
            out[column] = mine.where(~take, given.astype(str))
    if "birth_year" in known.columns and "birth_year" in out.columns:
        given_year = pd.Series(known["birth_year"].to_numpy(), index=frame.index).astype("Int64")
        out["birth_year"] = out["birth_year"].astype("Int64").fillna(given_year)
    return out
