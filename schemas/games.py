"""Games: one row per game, as the readers hand it to the assembler."""

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series


class Games(pa.DataFrameModel):
    event: Series[str]
    round: Series[str]
    date: Series[pd.StringDtype] = pa.Field(nullable=True, str_matches=r"^\d{4}-\d{2}-\d{2}$")
    white: Series[str] = pa.Field(str_length={"min_value": 1})
    black: Series[str] = pa.Field(str_length={"min_value": 1})
    result: Series[str] = pa.Field(isin=["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"])
    white_h: Series[int] = pa.Field(isin=[0, 50, 100])
    black_h: Series[int] = pa.Field(isin=[0, 50, 100])
    played: Series[bool]
    white_rating: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=1, le=3500)
    black_rating: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=1, le=3500)
    line: Series[int] = pa.Field(ge=1)

    @pa.dataframe_check
    def not_self_paired(cls, df: pd.DataFrame) -> Series[bool]:  # type: ignore[misc]
        return df["white"] != df["black"]

    @pa.dataframe_check
    def played_scores_sum_to_one(cls, df: pd.DataFrame) -> Series[bool]:  # type: ignore[misc]
        return ~df["played"] | (df["white_h"] + df["black_h"] == 100)

    class Config:
        strict = False
