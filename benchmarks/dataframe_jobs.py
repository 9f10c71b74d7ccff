"""The comparisons of ``bench_million``: the same rating job written for DuckDB and for Polars.

Each reads the players and games CSVs as text, finds each side's rating (the game's override,
else the list's), caps D at 400 below 2650, joins table 8.1.2 (one row per |D|, so the join is
an equality), sums games, score and S - PD per player in integer hundredths, decides K (the
precedence of RULES.md 4 and the 700 rule), rounds K x sum half away from zero and writes a
rating list and a games file (one row per side, by player then line). Standard rules from
2025-10-01 only; no checks of the input. The bench compares their new ratings with fiderate's.

    python -m benchmarks.dataframe_jobs duckdb|polars games.csv players.csv OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

from benchmarks.plain_python import pd_table

SCORES = {"1-0": (2, 0, True), "0-1": (0, 2, True), "1/2-1/2": (1, 1, True)}
SCORES |= {"+-": (2, 0, False), "-+": (0, 2, False), "--": (0, 0, False)}


def table_rows() -> tuple[list[int], list[int]]:
    """|D| 0..736 (736 stands for every larger |D|) and the higher-rated player's PD."""
    return list(range(737)), pd_table()


def run_duckdb(games: str, players: str, out: str, year: int = 2026) -> None:
    import duckdb

    con = duckdb.connect()
    d, pd = table_rows()
    con.execute("CREATE TABLE t AS SELECT unnest($1) AS d, unnest($2) AS pd", [d, pd])
    res = " ".join(f"WHEN '{k}' THEN {w}" for k, (w, _, _) in SCORES.items())
    res_b = " ".join(f"WHEN '{k}' THEN {b}" for k, (_, b, _) in SCORES.items())
    played = ", ".join(f"'{k}'" for k, (_, _, p) in SCORES.items() if p)
    con.execute(f"CREATE TABLE p AS SELECT * FROM read_csv('{players}', all_varchar=true)")
    con.execute(
        f"""CREATE TABLE g AS SELECT *, row_number() OVER () + 1 AS line,
            CASE result {res} END AS ws, CASE result {res_b} END AS bs,
            result IN ({played}) AS played
        FROM read_csv('{games}', all_varchar=true)"""
    )
    con.execute(
        """CREATE TABLE s AS
        WITH g2 AS (
            SELECT g.*, coalesce(g.white_rating, pw.rating)::INT AS wr,
                   coalesce(g.black_rating, pb.rating)::INT AS br
            FROM g JOIN p pw ON pw.id = g.white JOIN p pb ON pb.id = g.black),
        halves AS (
            SELECT white AS player, black AS opponent, wr AS own, br AS opp, ws AS score, *
            FROM g2
            UNION ALL
            SELECT black, white, br, wr, bs, * FROM g2),
        capped AS (
            SELECT *, played AND own IS NOT NULL AND opp IS NOT NULL AS rated,
                   CASE WHEN own < 2650 THEN greatest(-400, least(400, own - opp))
                        ELSE own - opp END AS diff
            FROM halves)
        SELECT c.player, c.event, c.round, c.opponent, c.own, c.opp, c.score, c.rated, c.diff,
               CASE WHEN NOT c.rated THEN NULL WHEN c.diff >= 0 THEN t.pd ELSE 100 - t.pd END
                   AS pd, c.date, c.line
        FROM capped c LEFT JOIN t ON t.d = least(abs(c.diff), 736)"""
    )
    Path(out).mkdir(parents=True, exist_ok=True)
    con.execute(
        f"""COPY (SELECT *, score * 50 - pd AS dev FROM s ORDER BY player, line)
        TO '{out}/games.csv' (HEADER)"""
    )
    con.execute(
        f"""COPY (
        WITH sums AS (
            SELECT player, count(*) FILTER (rated) AS n, sum(score) FILTER (rated) AS score,
                   sum(score * 50 - pd) FILTER (rated) AS dev
            FROM s GROUP BY player),
        k AS (
            SELECT p.*, coalesce(n, 0) AS n, coalesce(score, 0) AS score,
                   coalesce(dev, 0) AS dev,
                   CASE WHEN p.rating IS NULL THEN 0
                        WHEN p.k IS NOT NULL THEN p.k::INT
                        WHEN p.ever_2400 = 'true' OR p.rating::INT >= 2400 THEN 10
                        WHEN {year} - p.birth_year::INT <= 18 AND p.rating::INT < 2300 THEN 40
                        WHEN p.games::INT < 30 THEN 40 ELSE 20 END AS k0
            FROM p LEFT JOIN sums ON sums.player = p.id),
        k7 AS (SELECT *, CASE WHEN k0 * n > 700 THEN 700 // n ELSE k0 END AS k_used FROM k)
        SELECT id, name, rating, k_used AS k, n AS games, score / 2 AS score,
               (score * 50 - dev) / 100 AS expected, k_used * dev / 100 AS change_exact,
               sign(k_used * dev) * ((abs(k_used * dev) * 2 + 100) // 200) AS change,
               rating::INT + sign(k_used * dev) * ((abs(k_used * dev) * 2 + 100) // 200)
                   AS new_rating, federation, title
        FROM k7 ORDER BY id) TO '{out}/rating_list.csv' (HEADER)"""
    )


def run_polars(games: str, players: str, out: str, year: int = 2026) -> None:
    import polars as pl

    d, pd = table_rows()
    table = pl.LazyFrame({"d": d, "pd": pd}, schema={"d": pl.Int64, "pd": pl.Int64})
    p = pl.scan_csv(players, infer_schema=False)
    g = pl.scan_csv(games, infer_schema=False).with_row_index("line", offset=2)
    tokens = list(SCORES)
    g = g.with_columns(
        ws=pl.col("result").replace_strict(tokens, [v[0] for v in SCORES.values()]),
        bs=pl.col("result").replace_strict(tokens, [v[1] for v in SCORES.values()]),
        played=pl.col("result").is_in([k for k, v in SCORES.items() if v[2]]),
    )
    ratings = p.select(pl.col("id"), pl.col("rating").cast(pl.Int64))
    g = (
        g.join(ratings.rename({"id": "white", "rating": "lw"}), on="white", how="left")
        .join(ratings.rename({"id": "black", "rating": "lb"}), on="black", how="left")
        .with_columns(
            wr=pl.col("white_rating").cast(pl.Int64).fill_null(pl.col("lw")),
            br=pl.col("black_rating").cast(pl.Int64).fill_null(pl.col("lb")),
        )
    )
    keep = ["event", "round", "date", "line", "played"]
    halves = pl.concat(
        [
            g.select(
                pl.col("white").alias("player"), pl.col("black").alias("opponent"),
                pl.col("wr").alias("own"), pl.col("br").alias("opp"),
                pl.col("ws").alias("score"), *keep,
            ),
            g.select(
                pl.col("black").alias("player"), pl.col("white").alias("opponent"),
                pl.col("br").alias("own"), pl.col("wr").alias("opp"),
                pl.col("bs").alias("score"), *keep,
            ),
        ]
    )  # fmt: skip
    diff = pl.col("own") - pl.col("opp")
    sides = (
        halves.with_columns(
            rated=pl.col("played") & pl.col("own").is_not_null() & pl.col("opp").is_not_null(),
            diff=pl.when(pl.col("own") < 2650).then(diff.clip(-400, 400)).otherwise(diff),
        )
        .with_columns(d=pl.col("diff").abs().clip(upper_bound=736))
        .join(table, on="d", how="left")
        .with_columns(
            pd=pl.when(~pl.col("rated"))
            .then(None)
            .when(pl.col("diff") >= 0)
            .then(pl.col("pd"))
            .otherwise(100 - pl.col("pd"))
        )
        .with_columns(dev=pl.col("score") * 50 - pl.col("pd"))
        .drop("d")
    )
    sides = sides.collect()
    Path(out).mkdir(parents=True, exist_ok=True)
    sides.sort("player", "line").write_csv(f"{out}/games.csv")
    rated = sides.lazy().filter(pl.col("rated"))
    sums = rated.group_by("player").agg(
        n=pl.len(), score=pl.col("score").sum(), dev=pl.col("dev").sum()
    )
    rating = pl.col("rating").cast(pl.Int64)
    k0 = (
        pl.when(pl.col("rating").is_null())
        .then(0)
        .when(pl.col("k").is_not_null())
        .then(pl.col("k").cast(pl.Int64))
        .when((pl.col("ever_2400") == "true") | (rating >= 2400))
        .then(10)
        .when((year - pl.col("birth_year").cast(pl.Int64) <= 18) & (rating < 2300))
        .then(40)
        .when(pl.col("games").cast(pl.Int64) < 30)
        .then(40)
        .otherwise(20)
    )
    units = pl.col("k_used") * pl.col("dev")
    change = units.sign() * ((units.abs() * 2 + 100) // 200)
    (
        p.join(sums, left_on="id", right_on="player", how="left")
        .with_columns(pl.col("n", "score", "dev").fill_null(0), k0=k0)
        .with_columns(
            k_used=pl.when(pl.col("k0") * pl.col("n") > 700)
            .then(700 // pl.col("n"))
            .otherwise(pl.col("k0"))
        )
        .with_columns(change=change)
        .with_columns(new_rating=rating + pl.col("change"))
        .select(
            "id", "name", "rating", pl.col("k_used").alias("k"), pl.col("n").alias("games"),
            pl.col("score") / 2, ((pl.col("score") * 50 - pl.col("dev")) / 100).alias("expected"),
            (units / 100).alias("change_exact"), "change", "new_rating", "federation", "title",
        )
        .sort("id")
        .collect()
        .write_csv(f"{out}/rating_list.csv")
    )  # fmt: skip


if __name__ == "__main__":
    {"duckdb": run_duckdb, "polars": run_polars}[sys.argv[1]](*sys.argv[2:5])
