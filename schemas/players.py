"""Players: the rating list in force."""

import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series


class Players(pa.DataFrameModel):
    id: Series[str] = pa.Field(unique=True, str_length={"min_value": 1})
    name: Series[str]
    rating: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=1, le=3500)
    k: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=1, le=100)
    birth_year: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=1850, le=2100)
    games: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=0)
    # <NA>: the list does not say (no ever_2400 column): a K that hangs on it is assumed.
    ever_2400: Series[pd.BooleanDtype] = pa.Field(nullable=True, coerce=True)

    class Config:
        strict = False
