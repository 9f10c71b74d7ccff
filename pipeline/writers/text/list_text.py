"""The new rating list as text cells: what rating_list_*.csv holds and reads back (its columns
are the list file's, :data:`pipeline.lists.list_columns.LIST_TEXT_COLUMNS`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.arrays.arrow_text import arrow_text, str_series
from pipeline.arrays.number_text import int_arrow
from pipeline.lists.list_columns import LIST_TEXT_COLUMNS


def list_text_table(rows: pd.DataFrame) -> pd.DataFrame:
    """The new list as text cells: what rating_list_*.csv holds (and reads back). Arrow text
    made by kernels over each column (no Python string per cell)."""
    out = {}
    for column in LIST_TEXT_COLUMNS:
        values = rows[column]
        if column == "ever_2400":
            text = pa.array(["false", "true"]).take(values.to_numpy(dtype=bool).astype(np.int8))
        elif column in ("birth_year", "rating", "period_games", "games", "k"):
            text = int_arrow(values.astype("Int64"))  # blank where missing
        else:
            text = arrow_text(values.astype(str))
        out[column] = str_series(text).array
    return pd.DataFrame(out, columns=LIST_TEXT_COLUMNS)
