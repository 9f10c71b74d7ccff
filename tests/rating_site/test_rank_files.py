"""The rank files (pipeline/site/rank_files.py): as many buckets as the number of ranked players
calls for, at two sizes of a history; a refresh after a month that grows the count keeps the
profile of a player who did not play (its bytes name no bucket) and removes the files of the
buckets the new count no longer has; every ranked player is in the bucket its id gives."""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.site import addresses as at
from pipeline.site.job import SiteRequest, run_site
from pipeline.site.rank_files import TARGET, bucket, bucket_count
from tests.rating_site.conftest import DECEMBER, SAMPLE, december_event


@given(st.integers(min_value=0, max_value=10**8))
def test_the_bucket_count_is_a_power_of_two_giving_each_bucket_half_to_all_of_the_target(n):
    count = bucket_count(n)
    assert count & (count - 1) == 0
    assert n <= count * TARGET
    assert count == 1 or n > count * TARGET // 2


@given(st.text(max_size=30), st.sampled_from([1, 2, 16, 256, 4096, 65536]))
def test_a_bucket_is_the_crc32_of_the_id_in_hex_as_wide_as_the_largest(player_id, count):
    name = bucket(player_id, count)
    assert int(name, 16) == zlib.crc32(player_id.encode()) % count
    assert len(name) == len(f"{count - 1:x}") and re.fullmatch("[0-9a-f]+", name)


def _more_players(path: Path, first: int, count: int) -> None:
    """``count`` rated, active players (ids from ``first``) added to the list at ``path`` (a
    list as given, or as a period published it: its own header's columns)."""
    lines = path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    columns = lines[0].split(",")
    for n in range(first, first + count):
        row = {
            "id": str(n),
            "name": f'"Added, Player {n}"',
            "rating": str(1500 + n % 900),
            "k": "20",
            "birth_year": "2000",
            "games": "40",
            "ever_2400": "false",
            "federation": "ESP",
            "sex": "m",
            "last_played": "2026-10",
            "period_games": "0",
        }
        lines.append(",".join(row.get(column, "") for column in columns))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _ranked(site: Path) -> dict[str, dict[str, list[int]]]:
    """Every player's ranks, read from the bucket the id gives (the count's file says how many
    buckets there are), checked to be in that bucket's files only."""
    count = json.loads((site / at.rank_file("buckets", "json")).read_text("utf-8"))["buckets"]
    ranks: dict[str, dict[str, list[int]]] = {}
    for path in sorted((site / "ranks").glob("*.json")):
        if path.stem == "buckets":
            continue
        found = json.loads(path.read_text(encoding="utf-8"))
        script = (site / "ranks" / f"{path.stem}.js").read_text(encoding="utf-8")
        assert script == f"fiderateRanks.add({path.read_text(encoding='utf-8').rstrip()});\n"
        assert found["bucket"] == path.stem
        for player_id, kinds in found["ranks"].items():
            assert bucket(player_id, count) == path.stem and player_id not in ranks
            ranks[player_id] = kinds
    return ranks


def _bucket_files(site: Path) -> set[str]:
    return {p.name for p in (site / "ranks").iterdir()} - {"buckets.js", "buckets.json"}


def test_the_bucket_count_follows_the_ranked_players_and_a_profile_does_not(tmp_path):
    """November's list with 200 players added (2 buckets), then December's list in force with
    600 more (8 buckets): each site's rank files are the count's buckets, about TARGET players
    each, every ranked player in the bucket of its id; after December the profile of a
    player who did not play is the same bytes, and November's bucket files are gone."""
    work = tmp_path / "work"
    given = work / "list_2026-11.csv"
    work.mkdir()
    given.write_text((SAMPLE / "list_2026-11.csv").read_text(encoding="utf-8"), "utf-8")
    _more_players(given, 9_000_000, 200)
    out = work / "out"
    run_period(PeriodRequest(list_path=given, events=(SAMPLE / "events",), period="2026-11",
                             out_dir=out))  # fmt: skip
    site = tmp_path / "www"
    first = run_site(SiteRequest(out / "ratings.db", site))
    ranked = _ranked(site)
    assert len(ranked) > 200 and bucket_count(len(ranked)) == 2
    assert _bucket_files(site) == {"0.js", "0.json", "1.js", "1.json"}
    before = {a: (site / a).read_bytes() for a in first.written if a.startswith("players/")}

    december_list = work / "list_2026-12.csv"
    december_list.write_text((out / "rating_list_2026-12.csv").read_text("utf-8"), "utf-8")
    _more_players(december_list, 9_100_000, 600)
    run_period(PeriodRequest(list_path=december_list, events=(december_event(work / "dec"),),
                             period="2026-12", out_dir=out))  # fmt: skip
    refresh = run_site(SiteRequest(out / "ratings.db", site))
    after = _ranked(site)
    count = bucket_count(len(after))
    assert len(after) > 800 and count == 8
    assert _bucket_files(site) == {f"{n}.{layout}" for n in range(8) for layout in ("js", "json")}
    sizes = [len(json.loads((site / "ranks" / f"{n}.json").read_text("utf-8"))["ranks"])
             for n in range(count)]  # fmt: skip
    assert sum(sizes) == len(after) and max(sizes) < 2 * TARGET
    # November's 0 and 1 are 8 buckets' 0 and 1 too (one hex digit): rewritten, not removed.
    assert {"ranks/0.json", "ranks/1.json", "ranks/buckets.js"} <= set(refresh.written)
    played = {p for white, black, _ in DECEMBER for p in (white, black)}
    idle = [a for a in before if not any(a.startswith(f"players/p-{p}.") for p in played)]
    assert len(idle) > 200
    for address in idle:
        assert (site / address).read_bytes() == before[address], address
        assert address not in refresh.written
    assert set(ranked) <= set(after)


def test_a_refresh_removes_the_files_of_buckets_the_count_no_longer_has(tmp_path):
    """A site written with many players (16 buckets, 0 to f), then the same folder
    written from a history of the sample alone (one bucket): every bucket file of the first
    is removed, none of the second's is missing."""
    work = tmp_path / "big"
    work.mkdir()
    given = work / "list_2026-11.csv"
    given.write_text((SAMPLE / "list_2026-11.csv").read_text(encoding="utf-8"), "utf-8")
    _more_players(given, 9_000_000, 1_100)
    run_period(PeriodRequest(list_path=given, events=(SAMPLE / "events",), period="2026-11",
                             out_dir=work / "out"))  # fmt: skip
    site = tmp_path / "www"
    run_site(SiteRequest(work / "out" / "ratings.db", site))
    many = _bucket_files(site)
    assert many == {f"{n:x}.{layout}" for n in range(16) for layout in ("js", "json")}
    small = tmp_path / "small"
    small.mkdir()
    run_period(PeriodRequest(list_path=SAMPLE / "list_2026-11.csv", events=(SAMPLE / "events",),
                             period="2026-11", out_dir=small / "out"))  # fmt: skip
    done = run_site(SiteRequest(small / "out" / "ratings.db", site))
    assert _bucket_files(site) == {"0.js", "0.json"}
    assert {f"ranks/{name}" for name in many - {"0.js", "0.json"}} <= set(done.removed)
    assert len(_ranked(site)) > 5
