"""RatingList: per-player period totals and the new rating, exact integers before formatting."""

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series


class RatingList(pa.DataFrameModel):
    id: Series[str] = pa.Field(unique=True)
    name: Series[str]
    rating: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=1, le=3500)
    k: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=0, le=100)
    games: Series[int] = pa.Field(ge=0)
    score_h: Series[int] = pa.Field(ge=0)
    expected_units: Series[int] = pa.Field(ge=0)
    dev_units: Series[int]
    change_units: Series[int]
    change: Series[int]
    new_rating: Series[pd.Int64Dtype] = pa.Field(nullable=True)
    k_rule: Series[str]
    # The K was assumed: the input gave no games count, 2400 history or birth year to decide it.
    k_assumed: Series[bool]

    @pa.dataframe_check
    def no_games_no_change(cls, df: pd.DataFrame) -> Series[bool]:  # type: ignore[misc]
        return (df["games"] > 0) | (df["change"] == 0)

    @pa.dataframe_check
    def seven_hundred_rule(cls, df: pd.DataFrame) -> Series[bool]:  # type: ignore[misc]
        # K x n <= 700 unless a forced K without --k-cap was used (then k_rule says "forced").
        return (df["k"].fillna(0) * df["games"] <= 700) | df["k_rule"].str.startswith("forced")
