"""Games: one row per game, as the readers hand it to the assembler."""

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

from schemas.fast_checks import bound, not_empty, one_of, per_distinct, same_as

DATE_SHAPE = r"^\d{4}-\d{2}-\d{2}$"
RESULTS = ["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"]
HALF_POINTS = [0, 50, 100]


class Games(pa.DataFrameModel):
    event: Series[str]
    round: Series[str]
    date: Series[pd.StringDtype] = pa.Field(nullable=True)
    white: Series[str]
    black: Series[str]
    result: Series[str] = pa.Field(isin=RESULTS)
    white_h: Series[int]
    black_h: Series[int]
    played: Series[bool]
    white_rating: Series[pd.Int64Dtype] = pa.Field(nullable=True)
    black_rating: Series[pd.Int64Dtype] = pa.Field(nullable=True)
    line: Series[int] = pa.Field(ge=1)

    # pandera's own checks, reported under their own names, computed more cheaply (fast_checks).
    @pa.check("date", **same_as(pa.Check.str_matches(DATE_SHAPE)))
    def date_shape(cls, date: Series[str]) -> Series[bool]:  # type: ignore[misc]
        return per_distinct(date, lambda dates: dates.str.match(DATE_SHAPE, na=False))

    @pa.check("white", "black", **same_as(pa.Check.str_length(min_value=1)))
    def named(cls, player: Series[str]) -> Series[bool]:  # type: ignore[misc]
        return not_empty(player)

    @pa.check("white_h", "black_h", **same_as(pa.Check.isin(HALF_POINTS)))
    def half_points(cls, score: Series[int]) -> Series[bool]:  # type: ignore[misc]
        return one_of(score, HALF_POINTS)

    @pa.check("white_rating", "black_rating", **same_as(pa.Check.ge(1), missing_pass=True))
    def rating_at_least_one(cls, rating: Series[int]) -> Series[bool]:  # type: ignore[misc]
        return bound(rating, low=1)

    @pa.check("white_rating", "black_rating", **same_as(pa.Check.le(3500), missing_pass=True))
    def rating_at_most_3500(cls, rating: Series[int]) -> Series[bool]:  # type: ignore[misc]
        return bound(rating, high=3500)

    @pa.dataframe_check
    def not_self_paired(cls, df: pd.DataFrame) -> Series[bool]:  # type: ignore[misc]
        return df["white"] != df["black"]

    @pa.dataframe_check
    def played_scores_sum_to_one(cls, df: pd.DataFrame) -> Series[bool]:  # type: ignore[misc]
        return ~df["played"] | (df["white_h"] + df["black_h"] == 100)

    class Config:
        strict = False
