"""Synthetic rating periods for benchmarks and tests: a players list and a games file, as text.

Everything is drawn with numpy from one seed, so the same arguments give the same files on any
machine. The mix is chosen to exercise every rule: unrated players, forfeits and double
forfeits, draws, players above 2650 (no 400-point cap) and far below (capped), published K,
juniors and new players (K 40, so busy ones hit the 700 rule), rating overrides on some rows,
and (``mixed_ids``) ids that are not numbers. Generated in chunks so 10^7 games stay cheap.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.arrow_text import str_series

# Result tokens and how often they occur (decisive games, draws, forfeits, double forfeits).
RESULTS = np.array(["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"])
RESULT_WEIGHTS = np.array([0.37, 0.30, 0.29, 0.02, 0.015, 0.005])
FEDERATIONS = np.array(["POL", "CZE", "NOR", "FRA", "GER", "ESP", "IND", "USA", "NED", "ITA"])
FIRST_ID = 4_100_000


def player_ids(n_players: int, mixed_ids: bool = False) -> np.ndarray:
    ids = (FIRST_ID + np.arange(n_players)).astype(str)
    if mixed_ids:
        # Every 7th player gets a national id that is not a number (sorts after the numbers).
        ids = ids.astype(object)
        ids[::7] = np.char.add("NAT-", ids[::7].astype(str))
        ids = ids.astype(str)
    return ids


def synthetic_players(n_players: int, seed: int = 1, mixed_ids: bool = False) -> pd.DataFrame:
    """The rating list in force, as text columns exactly as a CSV would hold them."""
    rng = np.random.default_rng(seed)
    rating = np.clip(rng.normal(1750, 330, n_players).round(), 1001, 2850).astype(np.int64)
    unrated = rng.random(n_players) < 0.04
    birth = rng.integers(1950, 2020, n_players)
    games = rng.integers(0, 900, n_players)
    new = rng.random(n_players) < 0.15
    games[new] = rng.integers(0, 30, int(new.sum()))
    published_k = rng.random(n_players) < 0.05
    ever = (rating >= 2400) | (rng.random(n_players) < 0.01)
    rating_text = rating.astype(str).astype(object)
    rating_text[unrated] = ""
    k_text = np.where(published_k, rng.choice(["10", "20", "40"], n_players), "")
    return pd.DataFrame(
        {
            "id": player_ids(n_players, mixed_ids),
            "name": np.char.add("Player ", np.arange(n_players).astype(str)),
            "rating": rating_text.astype(str),
            "k": k_text,
            "birth_year": birth.astype(str),
            "games": games.astype(str),
            "ever_2400": np.where(ever, "true", "false"),
            "federation": rng.choice(FEDERATIONS, n_players),
            "title": "",
            "sex": rng.choice(np.array(["m", "w"]), n_players),
        }
    )


def synthetic_games_chunks(
    n_games: int,
    n_players: int,
    seed: int = 1,
    chunk: int = 1_000_000,
    mixed_ids: bool = False,
    overrides: bool = True,
) -> Iterator[pd.DataFrame]:
    """The games file in chunks of ``chunk`` rows (text columns). Pairings are random, never
    self-paired; an event has 500 games over 9 rounds, so a pair never meets twice in a round."""
    rng = np.random.default_rng(seed + 1)
    # Text columns are gathered from small arrays of labels (Arrow takes), not built per row.
    ids = pa.array(player_ids(n_players, mixed_ids))
    events = n_games // 500 + 1
    event_labels = pa.array(np.char.add("Event ", np.arange(events).astype(str)))
    # Pairs are random, so a repeated pair in one round would be a duplicate-game error: the
    # board number in the round label ("3.17") keeps every (event, round, pair) unique.
    slot = np.arange(9 * 56)
    round_labels = pa.array(
        np.char.add(np.char.add((slot // 56 + 1).astype(str), "."), (slot % 56 + 1).astype(str))
    )
    date_labels = pa.array(np.char.add("2026-11-", np.char.zfill(np.arange(1, 29).astype(str), 2)))
    results = pa.array(RESULTS)
    rating_labels = pa.array(np.arange(4000).astype(str))
    start = 0
    while start < n_games:
        size = min(chunk, n_games - start)
        number = start + np.arange(size)
        white = rng.integers(0, n_players, size)
        black = (white + 1 + rng.integers(0, n_players - 1, size)) % n_players
        result = rng.choice(len(RESULTS), size, p=RESULT_WEIGHTS)
        event = number // 500
        columns = {
            "event": event_labels.take(pa.array(event)),
            "round": round_labels.take(pa.array((number % 500) // 56 * 56 + number % 56)),
            "date": date_labels.take(pa.array(event % 28)),
            "white": ids.take(pa.array(white)),
            "black": ids.take(pa.array(black)),
            "result": results.take(pa.array(result)),
        }
        if overrides:
            # About 1 game in 200 carries the ratings it was played with (overrides the list).
            override = rng.random(size) < 0.005
            for column in ("white_rating", "black_rating"):
                rating = rng.integers(1400, 2700, size)
                labels = rating_labels.take(pa.array(rating))
                columns[column] = pc.if_else(pa.array(override), labels, "")
        yield pd.DataFrame({name: str_series(values) for name, values in columns.items()})
        start += size


def synthetic_games(n_games: int, n_players: int, seed: int = 1, **kwargs: object) -> pd.DataFrame:
    return pd.concat(
        list(synthetic_games_chunks(n_games, n_players, seed, **kwargs)), ignore_index=True
    )  # type: ignore[arg-type]


def write_text_csv(frame: pd.DataFrame, path: Path, append: bool = False) -> None:
    """Text columns to CSV (LF, UTF-8, minimal quoting), as a federation's export would look."""
    frame.to_csv(
        path, index=False, lineterminator="\n", mode="a" if append else "w", header=not append
    )


def write_period(
    directory: Path | str,
    n_games: int,
    n_players: int,
    seed: int = 1,
    fmt: str = "csv",
    parts: int = 1,
    mixed_ids: bool = False,
    chunk: int = 1_000_000,
) -> tuple[list[Path], Path]:
    """Write ``players.<fmt>`` and the games (one file, or ``games/part-NNNN.<fmt>`` when
    ``parts`` > 1) into ``directory``. Returns (games paths, players path)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    players_path = directory / f"players.{fmt}"
    _write(synthetic_players(n_players, seed, mixed_ids), players_path, fmt)
    if parts == 1:
        path = directory / f"games.{fmt}"
        pieces = synthetic_games_chunks(n_games, n_players, seed, chunk=chunk, mixed_ids=mixed_ids)
        if fmt == "csv":
            for i, piece in enumerate(pieces):
                write_text_csv(piece, path, append=i > 0)
        else:
            _write(pd.concat(list(pieces), ignore_index=True), path, fmt)
        return [path], players_path
    (directory / "games").mkdir(exist_ok=True)
    per_part = -(-n_games // parts)
    pieces = synthetic_games_chunks(n_games, n_players, seed, chunk=per_part, mixed_ids=mixed_ids)
    paths = []
    for i, piece in enumerate(pieces):
        paths.append(directory / "games" / f"part-{i:04d}.{fmt}")
        _write(piece, paths[-1], fmt)
    return paths, players_path


def _write(frame: pd.DataFrame, path: Path, fmt: str) -> None:
    if fmt == "csv":
        write_text_csv(frame, path)
    elif fmt == "parquet":
        frame.to_parquet(path, index=False)
    else:
        raise ValueError(f"unknown format {fmt!r}")
