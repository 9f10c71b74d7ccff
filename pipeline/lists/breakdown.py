"""The report's breakdown: per player and event, K x sum(S - PD) for that event, then one TOTAL
row per player with the exact period change and the change rounded **once** (never per event).

Built from integer codes (a player's row in the totals, an event's code) and Arrow text taken
at the end: the 2 M sides of a FIDE month are neither filtered as a frame (a copy of every text
column) nor grouped by three text keys, and each player's row is looked up once.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.arrays.arrow_text import arrow_text, encode_together, factorize_text, str_series
from pipeline.arrays.number_text import int_arrow, units_arrow
from pipeline.file_names import shown_names
from pipeline.keys.id_lookup import IdLookup

COLUMNS = [
    "player",
    "name",
    "event",
    "source",
    "games",
    "score",
    "expected",
    "sum_dev",
    "k",
    "k_x_sum_dev",
    "change",
]
TOTAL = "TOTAL (rounded once)"


def event_breakdown(
    rated_sides: pd.DataFrame,
    totals: pd.DataFrame,
    scale: int,
    lookup: IdLookup | None = None,
) -> pd.DataFrame:
    """One row per (player, event) with rated games, then one TOTAL row per player, in the
    totals' order (each player's events in the order they first appear). ``lookup``: the id
    look-up of ``totals["id"]``, when the caller has one."""
    s = rated_sides
    # The rated rows with a player, an event and a source (a group-by leaves blank keys out).
    keep = s["rated"].to_numpy(dtype=bool)
    for key in ("player", "event", "source"):
        keep = keep & s[key].notna().to_numpy()
    rows = np.flatnonzero(keep)
    if len(rows) == 0:
        return pd.DataFrame({c: pd.Series(dtype=str) for c in COLUMNS})
    lookup = lookup if lookup is not None else IdLookup(totals["id"])
    group, first_row = _groups(s, rows)
    sums = (
        pd.DataFrame(
            {
                c: s[c].iloc[rows].to_numpy(dtype=np.int64)
                for c in ("score_h", "pd_units", "dev_units")
            }
        )
        .groupby(group, sort=True)
        .sum()
    )  # the groups are numbered in order of appearance
    first = pa.array(first_row)
    players = arrow_text(s["player"]).take(first)
    at = lookup.positions(str_series(players))
    played = np.flatnonzero(totals["games"].to_numpy(dtype=np.int64) > 0)
    # Each player's events in order, then the TOTAL row (a stable sort by the player's row).
    position = np.concatenate([at, played])
    order = np.argsort(position, kind="stable")
    take = pa.array(order)

    def both(events: np.ndarray, column: str) -> np.ndarray:
        return np.concatenate([events, totals[column].to_numpy(dtype=np.int64)[played]])[order]

    def text(events: pa.Array | pa.ChunkedArray, total: pa.Array | pa.ChunkedArray) -> pa.Array:
        return pa.concat_arrays([_plain(events), _plain(total)]).take(take)

    k_list = totals["k"].fillna(0).to_numpy(dtype=np.int64)
    k = np.where(at >= 0, k_list[np.maximum(at, 0)], 0)
    totals = totals.assign(k=k_list)
    dev = sums["dev_units"].to_numpy()
    where = position[order]
    names = arrow_text(totals["name"]).take(pa.array(where, mask=where < 0))
    out = {
        "player": text(players, arrow_text(totals["id"]).take(pa.array(played))),
        "name": names.fill_null("") if names.null_count else names,
        "event": text(arrow_text(s["event"]).take(first), _same(TOTAL, len(played))),
        "source": text(_shown(arrow_text(s["source"]).take(first)), _same("", len(played))),
        "games": int_arrow(both(np.bincount(group), "games")),
        "score": units_arrow(both(sums["score_h"].to_numpy(), "score_h"), 100, 1),
        "expected": units_arrow(both(sums["pd_units"].to_numpy(), "expected_units"), scale, 2),
        "sum_dev": units_arrow(both(dev, "dev_units"), scale, 2),
        "k": int_arrow(both(k, "k")),
        "k_x_sum_dev": units_arrow(both(k * dev, "change_units"), scale, 2),
        "change": text(
            _same("", len(at)), int_arrow(totals["change"].to_numpy(dtype=np.int64)[played])
        ),
    }
    return pd.DataFrame({c: str_series(out[c]).array for c in COLUMNS}, columns=COLUMNS)


def _groups(s: pd.DataFrame, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(each row's group, numbered in order of first appearance; each group's first row in
    ``s``): the groups of (player, event, source) of ``rows``, found on integer codes."""
    player, _ = factorize_text(s["player"].iloc[rows])
    (event, source), distinct = encode_together(s["event"].iloc[rows], s["source"].iloc[rows])
    pair, _ = pd.factorize(event * len(distinct) + source, sort=False)
    group, _ = pd.factorize(player * (len(rows) + 1) + pair, sort=False)  # < 2**63: rows**2
    _, first = np.unique(group, return_index=True)
    return group.astype(np.int64), rows[first]


def _shown(sources: pa.Array) -> pa.Array:
    """Each event's file by the name the reports show, not the path given (a published report
    is no place for the organiser's folders): one name per distinct file, taken back to rows."""
    import pyarrow.compute as pc

    if isinstance(sources, pa.ChunkedArray):
        sources = sources.combine_chunks()
    encoded = pc.dictionary_encode(sources)
    distinct = encoded.dictionary.to_pylist()
    names = shown_names(distinct)
    return pa.array([names[v] for v in distinct], pa.string()).take(encoded.indices)


def _same(value: str, n: int) -> pa.Array:
    return pa.array([value], pa.string()).take(pa.array(np.zeros(n, np.int64)))


def _plain(text: pa.Array | pa.ChunkedArray) -> pa.Array:
    if isinstance(text, pa.ChunkedArray):
        text = text.combine_chunks()
    return text.cast(pa.string()) if text.type != pa.string() else text
