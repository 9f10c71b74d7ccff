"""rating_list.parquet and games.parquet: the same rows and columns as the CSV files, typed.

Ratings, K, counts and differences are int64 (null where the CSV is blank), ``rated`` is a
boolean, dates are dates, and scores, PD, deviations and changes are exact decimals holding the
very numbers the CSV shows (the engine's integer units, rescaled the same way, never a float).
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.arrays.arrow_text import arrow_ints, arrow_text
from pipeline.file_names import shown_name, shown_names
from pipeline.model import RatedPeriod
from pipeline.resources.atomic_files import Target
from pipeline.rules.rounding import rescale_half_away
from pipeline.writers.text.output_text import (
    GAMES_COLUMNS,
    RATING_LIST_COLUMNS,
    games_order,
    games_spec,
    player_ranks,
    rating_list_spec,
    spec_columns,
)


def decimal_column(units: object, scale: int, decimals: int) -> pa.Array:
    """Exact units of 1/scale as decimal128 with ``decimals`` places (rounded like the CSV)."""
    ints = arrow_ints(units)  # type: ignore[arg-type]
    values = rescale_half_away(
        ints.fill_null(0).to_numpy(zero_copy_only=False), scale, 10**decimals
    )
    # The unscaled integers of a decimal with `decimals` places are exactly these values.
    as_decimal = pa.array(values).cast(pa.decimal128(19, 0)).view(pa.decimal128(19, decimals))
    return pc.if_else(ints.is_null(), pa.scalar(None, as_decimal.type), as_decimal)


def _bool_column(values: pd.Series) -> pa.Array:
    return pa.array(values.to_numpy(dtype=bool))


_AS_ARROW: dict[str, Callable[..., pa.Array]] = {
    "text": arrow_text,
    "int": arrow_ints,
    "units": decimal_column,
    "bool": _bool_column,
}


def rating_list_arrow(result: RatedPeriod) -> pa.Table:
    columns = spec_columns(result.totals, rating_list_spec(result.scale), _AS_ARROW)
    return pa.table({name: columns[name] for name in RATING_LIST_COLUMNS})


def _date_column(values: pd.Series) -> pa.Array:
    date = pa.chunked_array(arrow_text(values.astype("string")))
    return pc.strptime(date, format="%Y-%m-%d", unit="s").cast(pa.date32())


_GAMES_AS_ARROW: dict[str, Callable[..., pa.Array]] = {
    **_AS_ARROW,
    "date": _date_column,
}


def games_arrow(result: RatedPeriod) -> pa.Table:
    columns = spec_columns(result.sides, games_spec(result.scale), _GAMES_AS_ARROW)
    # File names, not the organiser's folders (as games.csv: pipeline.file_names).
    source = columns["source"]
    if isinstance(source, pa.ChunkedArray):
        source = source.combine_chunks()
    source = pc.dictionary_encode(source)
    names = shown_names(result.sources)
    shown = [names.get(t, shown_name(t)) for t in source.dictionary.to_pylist()]
    columns["source"] = pa.array(shown, pa.string()).take(source.indices)
    order = pa.array(games_order(result, player_ranks(result)))
    return pa.table({name: columns[name] for name in GAMES_COLUMNS}).take(order)


def write_parquet(table: pa.Table, path: Target) -> None:
    pq.write_table(table, path, compression="zstd")
