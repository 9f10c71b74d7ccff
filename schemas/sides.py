"""Sides: one row per player per game. ``Sides`` goes into the engine, ``RatedSides`` comes out."""

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series


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
    pd_units: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=0)
    dev_units: Series[pd.Int64Dtype] = pa.Field(nullable=True)

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
