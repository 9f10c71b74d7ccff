"""rating_list.parquet and games.parquet: the same rows and columns as the CSV files, typed.

Ratings, K, counts and differences are int64 (null where the CSV is blank), ``rated`` is a
boolean, dates are dates, and scores, PD, deviations and changes are exact decimals holding the
very numbers the CSV shows (the engine's integer units, rescaled the same way, never a float).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.columnar.arrow import arrow_ints, arrow_text
from pipeline.model import RatedPeriod
from pipeline.rules.rounding import rescale_half_away
from pipeline.writers.format import pd_decimals
from pipeline.writers.output_text import (
    GAMES_COLUMNS,
    RATING_LIST_COLUMNS,
    games_order,
    rating_list_spec,
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


_AS_ARROW: dict[str, Callable[..., pa.Array]] = {
    "text": arrow_text,
    "int": arrow_ints,
    "units": decimal_column,
}


def rating_list_arrow(result: RatedPeriod) -> pa.Table:
    t = result.totals
    spec = rating_list_spec(result.scale)
    columns = {
        name: _AS_ARROW[kind](t[source], *units) for name, (kind, source, units) in spec.items()
    }
    return pa.table({name: columns[name] for name in RATING_LIST_COLUMNS})


def games_arrow(result: RatedPeriod) -> pa.Table:
    s = result.sides
    scale = result.scale
    decimals = pd_decimals(scale)
    order = pa.array(games_order(result))
    date = pa.chunked_array(arrow_text(s["date"].astype("string")))
    columns = {
        "player": arrow_text(s["player"]),
        "event": arrow_text(s["event"]),
        "round": arrow_text(s["round"]),
        "opponent": arrow_text(s["opponent"]),
        "player_rating": arrow_ints(s["player_rating"]),
        "opponent_rating": arrow_ints(s["opponent_rating"]),
        "result": arrow_text(s["result"]),
        "rated": pa.array(s["rated"].to_numpy(dtype=bool)),
        "diff": arrow_ints(s["diff"]),
        "pd": decimal_column(s["pd_units"], scale, decimals),
        "dev": decimal_column(s["dev_units"], scale, decimals),
        "note": arrow_text(s["note"]),
        "date": pc.strptime(date, format="%Y-%m-%d", unit="s").cast(pa.date32()),
        "source": arrow_text(s["source"]),
        "line": pa.array(s["line"].to_numpy(dtype=np.int64)),
    }
    return pa.table({name: columns[name] for name in GAMES_COLUMNS}).take(order)


def write_parquet(table: pa.Table, path: Path) -> None:
    pq.write_table(table, path, compression="zstd")
