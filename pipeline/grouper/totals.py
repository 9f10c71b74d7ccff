"""The grouper: sum each player's rated games over the period, decide K, and compute the change
K x sum(S - PD) exactly, rounded once (.5 away from zero). Aggregation by integer codes and
``np.bincount``: no per-player Python loop.

In two steps so that any number of partitions can be rated apart and summed (the Dask engine):
``partial_totals`` (one partition of rated sides -> per-player integer sums), ``combine_partials``
(partials of several partitions -> one partial, exact: integer sums) and ``finish_totals``
(partials + the players list -> K, the 700 rule, the change and the new rating).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.arrays.arrow_text import factorize_text, str_series, text_array
from pipeline.arrays.exact_sums import exact_in_float, int_bincount, packed_pair_sums
from pipeline.grouper.kfactor import (
    apply_700_rule,
    base_k,
    cap_suffix,
    unknown_facts,
    with_assumed,
)
from pipeline.keys.id_lookup import natural_order
from pipeline.model import PlayerList
from pipeline.rules.rounding import round_half_away
from pipeline.rules.sets import RuleSet

PLAYER_INFO = [
    "id",
    "name",
    "rating",
    "k",
    "birth_year",
    "games",
    "ever_2400",
    "federation",
    "title",
]
SUMS = ["games", "score_h", "expected_units", "dev_units"]
# Partials: per player, the sums over rated sides, the player's last row (its position, rating,
# name and K: what a player missing from the list is rated as) and the first K given on a row.
PARTIAL_COLUMNS = [
    "player",
    *SUMS,
    "last_pos",
    "last_rating",
    "last_name",
    "last_k",
    "k_pos",
    "given_k",
]
NO_K_POS = np.iinfo(np.int64).max


def player_sums(
    codes: np.ndarray,
    rated: np.ndarray,
    score_h: np.ndarray,
    pd_units: np.ndarray,
    dev_units: np.ndarray,
    size: int,
) -> dict[str, np.ndarray]:
    """Per player code: rated games, score, sum of PD and of S - PD (exact int64).

    Sides that are not rated are sent to an extra bin ``size`` (dropped), so no array is masked.
    Score and deviation are summed in one pass (``packed_pair_sums``, its proof there) when the
    largest player's games bound both sums: |deviation sum| <= max|dev| x most games <
    2**(low_bits - 1) and the packed sum < 2**(low_bits + high_bits) <= 2**53; otherwise each
    is summed on its own (``int_bincount``). The sum of PD is score - deviation
    (PD + (S - PD) = S on every side).
    """
    codes = np.asarray(codes)
    rated = np.asarray(rated, dtype=bool)
    score = np.asarray(score_h)
    dev = np.asarray(dev_units)
    bins = np.where(rated, codes, size)
    games = np.bincount(bins, minlength=size + 1)[:size].astype(np.int64)
    most = int(games.max()) if size else 0
    unit = score_units(rated, score, pd_units, dev)
    # The bounds are read off the data (min/max of every side bound the rated ones).
    dev_bound = max(-int(dev.min()), int(dev.max()), 0) if len(dev) else 0
    score_bound = max(int(score.max()), 0) if len(score) else 0
    low_bits = int(2 * dev_bound * most + 1).bit_length()
    high_bits = int(score_bound * most).bit_length()
    if exact_in_float(1 << (low_bits + high_bits)):
        score_sum, dev_sum = packed_pair_sums(bins, score, dev, size, low_bits)
    else:
        score_sum = int_bincount(bins, score, size + 1)[:size]
        dev_sum = int_bincount(bins, dev, size + 1)[:size]
    expected = score_sum * unit - dev_sum
    return {"games": games, "score_h": score_sum, "expected_units": expected, "dev_units": dev_sum}


def score_units(
    rated: np.ndarray, score_h: np.ndarray, pd_units: np.ndarray, dev_units: np.ndarray
) -> int:
    """Units of 1/scale per hundredth of a point (1 for the table, 10**4 for the formula), read
    off a rated side with points: PD + (S - PD) = S there."""
    rated, score_h = np.asarray(rated), np.asarray(score_h)
    # Such a side is almost always among the first few: look there before scanning everything.
    for stop in (min(len(rated), 4096), len(rated)):
        with_points = rated[:stop] & (score_h[:stop] > 0)
        if with_points.any():
            first = int(np.argmax(with_points))
            return int((int(pd_units[first]) + int(dev_units[first])) // int(score_h[first]))
    return 1  # no points scored anywhere: every score sum is 0 and the unit does not matter


def partial_totals(
    rated_sides: pd.DataFrame,
    first_position: int = 0,
    player_codes: tuple[np.ndarray, pd.Series] | None = None,
) -> pd.DataFrame:
    """Per-player integer sums of one partition of rated sides (schema: PARTIAL_COLUMNS).

    ``first_position`` is the position of the partition's first row among all sides, so that
    "last row" and "first K" mean the same whichever way the sides were split.
    ``player_codes``: (each side's player code, the ids by code) when the caller has them (the
    games' own encoding, ``keys.game_codes.side_player_codes``), else the ids are encoded.
    """
    if player_codes is None or len(player_codes[0]) != len(rated_sides):
        player_codes = factorize_text(rated_sides["player"])
    codes, players = player_codes
    size = len(players)
    rows = np.arange(len(rated_sides), dtype=np.int64)
    sums = player_sums(
        codes,
        rated_sides["rated"].to_numpy(dtype=bool),
        rated_sides["score_h"].to_numpy(dtype=np.int64),
        rated_sides["pd_units"].to_numpy(dtype=np.int64, na_value=0),
        rated_sides["dev_units"].to_numpy(dtype=np.int64, na_value=0),
        size,
    )
    last = np.full(size, -1, dtype=np.int64)
    np.maximum.at(last, codes, rows)
    k = rated_sides["k"].astype("Int64")
    with_k = k.notna().to_numpy()
    k_row = np.full(size, NO_K_POS, dtype=np.int64)
    np.minimum.at(k_row, codes[with_k], rows[with_k])
    has_k = k_row != NO_K_POS
    return pd.DataFrame(
        {
            "player": pd.Series(players, dtype=str),
            **sums,
            "last_pos": last + first_position,
            "last_rating": rated_sides["player_rating"].astype("Int64").array.take(last),
            "last_name": rated_sides["name"].astype(str).array.take(last),
            "last_k": k.array.take(last),
            "k_pos": np.where(has_k, k_row + first_position, NO_K_POS),
            "given_k": k.array.take(np.where(has_k, k_row, -1), allow_fill=True),
        }
    )


def combine_partials(parts: pd.DataFrame) -> pd.DataFrame:
    """Several partials (concatenated) as one: sums added, the latest last row, the first K."""
    if parts["player"].is_unique:
        return parts.reset_index(drop=True)
    sums = parts.groupby("player", sort=False)[SUMS].sum()
    last = (
        parts.sort_values("last_pos", kind="stable")
        .drop_duplicates("player", keep="last")
        .set_index("player")[["last_pos", "last_rating", "last_name", "last_k"]]
    )
    first_k = (
        parts.sort_values("k_pos", kind="stable")
        .drop_duplicates("player", keep="first")
        .set_index("player")[["k_pos", "given_k"]]
    )
    combined = sums.join(last).join(first_k).rename_axis("player").reset_index()
    return combined[PARTIAL_COLUMNS]


def info_from_partials(partials: pd.DataFrame, players: PlayerList | None) -> pd.DataFrame:
    """One row per player: everyone on the list, plus anyone rated from the inputs alone."""
    return info_and_rows(partials, players)[0]


def info_and_rows(
    partials: pd.DataFrame, players: PlayerList | None
) -> tuple[pd.DataFrame, np.ndarray]:
    """(:func:`info_from_partials`, each partial player's row in it): the list's rows are found
    with the list's own id look-up (built once per list), and the rows of the info follow from
    them, so the 1.9 M ids of a FIDE list are not hashed again."""
    listed = players.players[PLAYER_INFO] if players is not None else None
    on_list = players.positions(partials["player"]) if players is not None else None
    seen = partials
    if on_list is not None:
        seen = seen[on_list < 0]
    n_listed = len(listed) if listed is not None else 0
    extra = pd.DataFrame(
        {
            "id": seen["player"].astype(str),
            "name": seen["last_name"].where(seen["last_name"].ne(""), seen["player"]).astype(str),
            # Not on a list: the rating the player's last row was rated with.
            "rating": seen["last_rating"].astype("Int64"),
            "k": seen["last_k"].astype("Int64"),
            "birth_year": pd.Series(pd.NA, index=seen.index, dtype="Int64"),
            "games": pd.Series(pd.NA, index=seen.index, dtype="Int64"),
            # Not on a list: nothing says whether the rating has ever reached 2400.
            "ever_2400": pd.Series(pd.NA, index=seen.index, dtype="boolean"),
            "federation": "",
            "title": "",
        }
    )
    if listed is None:
        info = extra
    elif extra.empty:
        info = listed  # copy-on-write: the "k" filled below does not touch the list
    else:
        info = pd.concat([listed, extra], ignore_index=True)
    # Each partial player's row of ``info`` before it is put in natural order: its list row, or
    # after the list's rows in the order the extra players come.
    if on_list is None:
        on_list = np.full(len(partials), -1, dtype=np.int64)
    missing = on_list < 0
    rows = np.where(missing, n_listed + np.cumsum(missing) - 1, on_list)
    # A K on an individual file row counts as published for a player the list gives none.
    given = partials["given_k"].notna().to_numpy()
    if given.any():
        at = np.full(len(info), -1, dtype=np.int64)
        at[rows[given]] = np.flatnonzero(given)
        given_k = partials["given_k"].astype("Int64").array.take(at, allow_fill=True)
        info["k"] = info["k"].fillna(pd.Series(given_k, index=info.index))
    order = natural_order(info["id"])
    if not (order == np.arange(len(order))).all():  # a list in that order is not copied again
        info = info.iloc[order]
        new_row = np.empty(len(order), dtype=np.int64)
        new_row[order] = np.arange(len(order), dtype=np.int64)
        rows = new_row[rows]
    return info.reset_index(drop=True), rows.astype(np.int64)


def player_info(sides: pd.DataFrame, players: PlayerList | None) -> pd.DataFrame:
    """One row per player: everyone on the list, plus anyone rated from the inputs alone."""
    return info_from_partials(partial_totals(sides), players)


def finish_totals(
    partials: pd.DataFrame,
    players: PlayerList | None,
    rules: RuleSet,
    scale: int,
    period_year: int,
    forced_k: int | None = None,
    k_cap: bool = False,
) -> pd.DataFrame:
    """Per-player totals and the new rating (schema ``schemas.totals.RatingList``) from the
    combined partials of every side of the period."""
    info, where = info_and_rows(partials, players)
    size = len(info)
    sums = {}
    for column in SUMS:
        values = np.zeros(size, dtype=np.int64)
        values[where] = partials[column].to_numpy(dtype=np.int64)
        sums[column] = values
    games = sums["games"]

    k_base, k_rule = base_k(info, rules.k, period_year, forced_k)
    rated_player = k_base.notna().to_numpy()
    k_base_values = k_base.fillna(0).to_numpy(dtype=np.int64)
    if forced_k is None or k_cap:
        k_used = apply_700_rule(k_base_values, games, rules.k.period_cap)
    else:
        k_used = k_base_values
    reduced = k_used != k_base_values
    # A K the input could not decide (no games count, 2400 history or birth year) says so.
    unknown = unknown_facts(info, k_base, rules.k, period_year, forced_k)
    k_rule = with_assumed(k_rule, unknown)
    k_reason = k_rule
    k_rule = with_cap_suffix(k_rule, reduced, cap_suffix(rules.k))

    change_units = k_used * sums["dev_units"]
    change = round_half_away(change_units, scale)
    rating = info["rating"]
    new_rating = rating + pd.Series(change, index=info.index)

    return pd.DataFrame(
        {
            "id": info["id"].astype(str),
            "name": info["name"].astype(str),
            "rating": rating.astype("Int64"),
            "k": pd.arrays.IntegerArray(k_used, ~rated_player),
            "games": games,
            "score_h": sums["score_h"],
            "expected_units": sums["expected_units"],
            "dev_units": sums["dev_units"],
            "change_units": change_units,
            "change": change.astype(np.int64),
            "new_rating": new_rating.astype("Int64"),
            "k_base": k_base,
            "k_rule": category_text(k_rule),
            # The parts of k_rule, for the reports: the rule that gave k_base, and whether the
            # 700 rule then lowered it to k.
            "k_reason": category_text(k_reason),
            "k_700": reduced,
            "k_assumed": unknown != 0,
            "federation": info["federation"].astype(str),
            "title": info["title"].astype(str),
        },
        copy=False,  # new arrays or copy-on-write views: copying 1.9 M rows again buys nothing
    )


def category_text(rule: pd.Series) -> pd.Series:
    """A categorical of text labels as a ``str`` column (``astype(str)``'s values): each label
    taken by its code with Arrow, not a Python string built per row."""
    return str_series(text_array(rule.array), rule.index)


def with_cap_suffix(rule: pd.Series, reduced: np.ndarray, suffix: str) -> pd.Series:
    """Each rule (categorical) with ``suffix`` added where the 700 rule ``reduced`` K: in the
    labels' codes, so no text is built per player."""
    codes = rule.cat.codes.to_numpy(dtype=np.int8)
    labels = list(rule.cat.categories)
    shifted = np.where(reduced, codes + np.int8(len(labels)), codes).astype(np.int8)
    labels += [label + suffix for label in labels]
    return pd.Series(pd.Categorical.from_codes(shifted, categories=labels), index=rule.index)
