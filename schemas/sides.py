"""Sides: one row per player per game. ``Sides`` goes into the engine, ``RatedSides`` comes out."""

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

from schemas.fast_checks import bound, same_as


class Sides(pa.DataFrameModel):
    player: Series[str] = pa.Field(str_length={"min_value": 1})
    opponent: Series[str]
    event: Series[str]
    round: Series[str]
    player_rating: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=1, le=3500)
    opponent_rating: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=1, le=3500)
    score_h: Series[int] = pa.Field(isin=[0, 50, 100])
    played: Series[bool]
    result: Series[str]
    k: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=1, le=100)

    class Config:
        strict = False


class EngineOutput(pa.DataFrameModel):
    """The engine's own columns: what it adds to validated sides (checked on these columns
    only; the sides it was given were checked as Games/Players or Sides when read)."""

    rated: Series[bool]
    note: Series[str]
    diff: Series[pd.Int64Dtype] = pa.Field(nullable=True)
    pd_units: Series[pd.Int64Dtype] = pa.Field(nullable=True)
    dev_units: Series[pd.Int64Dtype] = pa.Field(nullable=True)

    # pandera's ge(0), reported under its own name, without copying the column (fast_checks).
    @pa.check("pd_units", **same_as(pa.Check.ge(0), missing_pass=True))
    def pd_not_negative(cls, pd_units: Series[int]) -> Series[bool]:  # type: ignore[misc]
        return bound(pd_units, low=0)

    @pa.dataframe_check
    def rated_rows_have_pd(cls, df: pd.DataFrame) -> Series[bool]:  # type: ignore[misc]
        return ~df["rated"] | (df["pd_units"].notna() & df["dev_units"].notna())

    @pa.dataframe_check
    def unrated_rows_say_why(cls, df: pd.DataFrame) -> Series[bool]:  # type: ignore[misc]
        return df["rated"] | df["note"].ne("")

    class Config:
        strict = False


ENGINE_COLUMNS = ["rated", "note", "diff", "pd_units", "dev_units"]


class RatedSides(Sides, EngineOutput):
    """Sides with the engine's columns: the whole frame handed to the grouper and writers."""

    class Config:
        strict = False
