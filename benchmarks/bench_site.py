"""The rating site (issue 36): ``fiderate site`` writing the static site of a federation's
histories, against the I/O floor measured in the same run, its peak memory, the refresh after
one more month, and ``fiderate serve`` answering a profile, a top list and a search.

The histories are built straight into the database (the store's own ``insert_list``; each month
a published list where a share of the players played, with their stored changes), standard,
rapid and blitz in one history (schema 5: each run and list carries its rating kind). No
calculation game tables are stored, so the site has no calculation pages here.

The I/O floor: a plain loop writing the same files' bytes (read back from the site just
written) into a fresh folder, the writes alone timed. On equal terms with the site's write: each
starts with the disk's backlog written out (``os.sync`` where there is one: else the floor would
wait for the site's last gigabytes and look slower), into a fresh folder of the same file
system. It is measured twice, into two fresh folders, and the faster of the two is the floor
the ratio is taken against (the slower would flatter the site); both are printed, their spread
says how steady the disk was.

    python -m benchmarks site        (make bench; BENCH_QUICK=1: 5,000 players x 6 months, and
                                      serve at 190,000 players x 3 lists)
    python -m benchmarks.bench_site [PLAYERS] [MONTHS]   (default 50,000 x 24)
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.bench_history import list_in_force, published
from benchmarks.process_tree import run_measured_tree

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("standard", "rapid", "blitz")
PLAYED = 0.3  # share of the players with rated games in a month


def _month(start: str, n: int) -> str:
    year, month = int(start[:4]), int(start[5:]) + n
    return f"{year + (month - 1) // 12}-{(month - 1) % 12 + 1:02d}"


def add_month(con, kind: str, in_force: pd.DataFrame, month: str, seed: int) -> pd.DataFrame:  # type: ignore[no-untyped-def]
    """One more published list over ``in_force`` (the list of the month before) and its
    period's stored changes: the store's own inserts, in one transaction."""
    from pipeline.history.store import insert_list, insert_run

    period = _month(month, -1)
    new = published(in_force, PLAYED, seed)
    con.execute("BEGIN IMMEDIATE")
    run = insert_run(con, started_at="s", finished_at="f", user="bench", period=period,
                     command=f"fiderate period --rules {kind} --period {period}",
                     outcome="published", rating_kind=kind)  # fmt: skip
    insert_list(con, run, "published", month, period, f"rating_list_{month}.csv", month, new,
                over=in_force, rating_kind=kind)  # fmt: skip
    played = new["period_games"].fillna(0).to_numpy(dtype=np.int64) > 0
    played &= in_force["rating"].notna().to_numpy(dtype=bool)
    old = in_force["rating"].to_numpy(dtype=object)[played].astype(np.int64)
    rating = new["rating"].to_numpy(dtype=object)[played].astype(np.int64)
    k = in_force["k"].fillna(20).to_numpy(dtype=object)[played].astype(np.int64)
    games = new["period_games"].to_numpy(dtype=object)[played].astype(np.int64)
    change = rating - old
    ids = new["id"].to_numpy(dtype=object)[played]
    con.executemany(
        "INSERT INTO period_changes (run_id, player_id, rating, k, k_rule, next_k, games, "
        "score_h, change_units, change, new_rating) VALUES (?, ?, ?, ?, 'standard K', ?, ?, ?, "
        "?, ?, ?)",
        zip([run] * len(ids), ids, old.tolist(), k.tolist(), k.tolist(), games.tolist(),
            (games * 50).tolist(), (change * 100).tolist(), change.tolist(), rating.tolist(),
            strict=True),
    )  # fmt: skip
    con.execute("COMMIT")
    return new


def build(
    path: Path, players: int, months: int, kinds: tuple[str, ...] = KINDS
) -> dict[str, pd.DataFrame]:
    """One history of ``months`` lists of each kind (standard, rapid and blitz in one database,
    as ``fiderate period`` keeps them); each kind's last list (the next month builds on it)."""
    from pipeline.history.database import create_history
    from pipeline.history.store import insert_list, insert_run

    con = create_history(path)
    last = {}
    for kind in kinds:
        first = list_in_force(players, seed=KINDS.index(kind) + 1)
        con.execute("BEGIN IMMEDIATE")
        run = insert_run(con, started_at="s", finished_at="f", user="bench", command="c",
                         period=None, outcome="published", rating_kind=kind)  # fmt: skip
        insert_list(con, run, "input", "2025-01", None, "list.csv", "x", first, rating_kind=kind)
        con.execute("COMMIT")
        rows = first
        for n in range(1, months):
            rows = add_month(con, kind, rows, _month("2025-01", n), seed=n)
        last[kind] = rows
    con.close()
    return last


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT))


def _children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    import resource  # Unix only (the bench runs where the lead measures: Linux)

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def settle() -> None:
    """Have the disk's backlog written out (Unix's ``sync``; Windows has none), so the next
    timed writes do not wait for the ones before."""
    if hasattr(os, "sync"):
        os.sync()


def write_site(
    database: Path, out: Path, *options: str
) -> tuple[float, float, tuple[int, int], dict[str, object]]:
    """Wall and CPU seconds of ``fiderate site`` (a process of its own, with its workers), its peak
    memory (bytes: :func:`process_tree.tree_memory`'s two figures) and its JSON summary. The CPU
    seconds say what the work costs when the disk is shared (a busy machine's wall time is mostly
    waiting for the disk, which the floor then waits for too). The peak is the largest SUM of the
    resident sizes of the process and its workers, sampled every 50 ms: the write's memory is theirs
    together (``RUSAGE_CHILDREN``'s ru_maxrss would be the largest single process)."""
    settle()
    cpu = _children_cpu()
    found = run_measured_tree(
        [sys.executable, "-m", "pipeline", "site", "--db", str(database), "--out", str(out),
         "--json", *options],
        env=_env(),
    )  # fmt: skip
    peaks = (found.peak, found.peak_once)
    return found.seconds, _children_cpu() - cpu, peaks, json.loads(found.stdout)


def io_floor(sites: list[Path], folder: Path) -> tuple[float, int, int]:
    """Seconds of writing every file of ``sites`` into ``folder`` (the writes alone), files,
    bytes."""
    seconds, files, size = 0.0, 0, 0
    for n, site in enumerate(sites):
        for path in sorted(site.rglob("*")):
            if not path.is_file():
                continue
            body = path.read_bytes()
            target = folder / str(n) / path.relative_to(site)
            start = time.perf_counter()
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(body)
            seconds += time.perf_counter() - start
            files += 1
            size += len(body)
    return seconds, files, size


def rewrite_floor(site: Path, addresses: list[str]) -> float:
    """Seconds of a plain loop rewriting ``addresses`` of ``site`` with their own bytes, each
    through a temporary name renamed over the file (what any writer that never shows half a
    page must do; the writes alone timed): the disk's part of a refresh. On ext4 a rename over
    a file that has data waits for the new file's blocks (its ``auto_da_alloc``), several times
    a new file's cost: a refresh rewriting 30,000 files pays it in full."""
    settle()
    seconds = 0.0
    for address in addresses:
        path = site.joinpath(*address.split("/"))
        body = path.read_bytes()
        temporary = path.with_name(f".{path.name}.floor")
        start = time.perf_counter()
        temporary.write_bytes(body)
        os.replace(temporary, path)
        seconds += time.perf_counter() - start
    return seconds


def serve_times(database: Path, addresses: list[str], count: int) -> dict[str, tuple[float, float]]:
    """Milliseconds of ``fiderate serve`` answering each address: the first answer (cold: the
    lists it needs decoded) and the median of ``count`` more (warm)."""
    from tests.web.conftest import Server

    server = Server("--history", str(database))
    try:
        found = {}
        for address in addresses:
            times = []
            for _ in range(count + 1):
                start = time.perf_counter()
                urllib.request.urlopen(server.url + address, timeout=600).read()
                times.append((time.perf_counter() - start) * 1000)
            found[address] = (times[0], statistics.median(times[1:]))
        return found
    finally:
        server.stop()


def serve_at_scale(folder: Path, players: int, months: int) -> None:
    """``fiderate serve`` on a history of ``players`` x ``months`` lists (FIDE's scale: 1.9 M x
    12): a profile, a top list and a search (target: under 50 ms each, median, warm)."""
    start = time.perf_counter()
    last = build(folder / "fide.db", players, months, kinds=("standard",))["standard"]
    print(f"  serve at {players:,} players x {months} lists (built in "
          f"{time.perf_counter() - start:.0f} s):")  # fmt: skip
    profile = "/site/players/p-" + str(last["id"].iloc[players // 2]) + ".html"
    addresses = [
        profile,
        "/site/top/standard/open.html",
        "/site/top/standard/fed-GER.html",
        "/site/search.html?q=1234",
        "/site/search.html?q=number+1",
        "/history/search?q=1234",
    ]
    for address, (cold, warm) in serve_times(folder / "fide.db", addresses, 9).items():
        print(f"    {address}: first {cold:,.0f} ms, then median {warm:.1f} ms (target < 50)")
    print(
        "    (a page's answer is kept for the database as it is; a search is answered afresh;"
        " the first answer waits for what is left of the server's warm-up at start)"
    )
    waited = first_search(folder / "fide.db", "/site/search.html?q=number+1")
    print(f"    a search as the server's first request: answered {waited:,.0f} ms after the "
          "server answers its first page (what it waits for: the search index)")  # fmt: skip


def first_search(database: Path, address: str) -> float:
    """Milliseconds from a fresh ``fiderate serve`` answering ``/`` to its answer to the search
    ``address`` asked first: what a search waits for of the warm-up at start."""
    from tests.web.conftest import Server

    server = Server("--history", str(database))
    try:
        start = time.perf_counter()
        urllib.request.urlopen(server.url + address, timeout=600).read()
        return (time.perf_counter() - start) * 1000
    finally:
        server.stop()


def search_figures(database: Path) -> None:
    """The static search's index of the history: its build (every player with a profile, the
    word index, the shards' keys and bytes) in this process, the shards' count and sizes: a
    query loads the one shard whose key it starts with (the largest is the most it loads), a
    query shorter than the keys under it every shard under it (a 1-character query the most)."""
    import json

    from pipeline.site.history_data import SiteData
    from pipeline.site.site_files import search_shards

    data = SiteData.open(database)
    try:
        start = time.perf_counter()
        index = data.search_index()
        indexed = time.perf_counter() - start
        files = dict(search_shards(data))
        built = time.perf_counter() - start
    finally:
        data.close()
    listed = files.pop("search/keys.js")
    keys = json.loads(listed[listed.index(b"[") : listed.rindex(b"]") + 1])
    ahead = [len(b) for a, b in files.items() if a.startswith("search/first-")]
    shards = [len(b) for a, b in files.items() if not a.startswith("search/first-")]
    under: dict[str, int] = {}  # what a 1-character query loads without the answers ahead
    for key, size in zip(keys, shards, strict=True):
        under[key[0]] = under.get(key[0], 0) + size
    print(f"  search index: {len(index.rows):,} players, built in {built:.1f} s ({indexed:.1f} s "
          f"the index, the rest the shards); {len(shards):,} shards (keys of 1 to "
          f"{max(len(k.rstrip(chr(10))) for k in keys)} characters, listed in "
          f"{len(listed) / 1024:,.0f} KiB), {sum(shards) / 2**20:.1f} MiB in all, the largest "
          f"{max(shards, default=0) / 1024:,.0f} KiB (what a query of a shard's key or longer "
          f"loads at most); {len(ahead):,} answers written ahead for shorter queries (the "
          f"largest {max(ahead, default=0) / 1024:,.0f} KiB; without them a 1-character query "
          f"would load up to {max(under.values()) / 2**20:.1f} MiB)")  # fmt: skip


def main(quick: bool) -> None:
    measure(*((5_000, 6) if quick else (50_000, 24)))


def measure(players: int, months: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-site-") as name:
        folder = Path(name)
        database = folder / "ratings.db"
        start = time.perf_counter()
        last = build(database, players, months)
        built = time.perf_counter() - start
        print(f"  {players:,} players x {months} months x {len(KINDS)} kinds in one history "
              f"(built in {built:.1f} s)")  # fmt: skip
        seconds, cpu, (peak_bytes, once), summary = write_site(database, folder / "www")
        written = len(summary["written"])  # type: ignore[arg-type]
        peak = peak_bytes / 2**20
        floors = []
        for n in range(2):  # two fresh folders: the spread says how steady the disk is
            settle()
            floor, files, size = io_floor([folder / "www"], folder / f"floor-{n}")
            floors.append(floor)
            shutil.rmtree(folder / f"floor-{n}")
        floor = min(floors)
        print(f"  full write: {seconds:.1f} s ({cpu:.1f} s CPU), {written:,} files, "
              f"{size / 2**20:,.0f} MiB; I/O floor {floor:.1f} s ({files:,} files; measured "
              f"{floors[0]:.1f} s and {floors[1]:.1f} s): {seconds / floor:.1f}x the floor "
              f"(target <= 3x); peak memory {peak:,.0f} MiB, the process and its "
              f"{summary.get('workers', 0)} workers' resident sizes summed (target < 1,536; "
              f"{once / 2**20:,.0f} MiB with the libraries' pages counted once)")  # fmt: skip
        search_figures(database)
        from pipeline.history.store import connect

        con = connect(database)
        for kind in KINDS:
            add_month(con, kind, last[kind], _month("2025-01", months), seed=999)
        con.close()
        refresh, refresh_cpu, (refresh_peak, _), summary = write_site(database, folder / "www")
        rewritten = len(summary["written"])  # type: ignore[arg-type]
        profiles = sum(1 for a in summary["written"] if a.startswith("players/"))  # type: ignore[union-attr]
        print(f"  refresh after one more month: {refresh:.1f} s ({refresh / seconds:.2f} of the "
              f"full write, target <= 0.20; {refresh_cpu:.1f} s CPU, {refresh_cpu / cpu:.2f} of "
              f"the full write's), {rewritten:,} files rewritten ({profiles:,} of them "
              "profiles' pages and JSON: the players who played); peak memory "
              f"{refresh_peak / 2**20:,.0f} MiB ({summary.get('workers', 0)} workers)")  # fmt: skip
        floor = rewrite_floor(folder / "www", list(summary["written"]))  # type: ignore[arg-type]
        print(f"  the refresh's files rewritten in place by a plain loop (a temporary name "
              f"renamed over each): {floor:.1f} s, {floor / seconds:.2f} of the full write "
              "(the disk's part of a refresh)")  # fmt: skip
        serve_at_scale(folder, *((190_000, 3) if players < 50_000 else (1_900_000, 12)))


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    measure(args[0] if args else 50_000, args[1] if len(args) > 1 else 24)
