"""The world and national ranks of the latest list of each kind, in files of their own that a
profile loads (``static/ranks.js``), split into buckets of players by id.

Why not on the profile: a rank moves for almost everyone every month (a player who did not play
moves when others pass them), so a profile holding its ranks would change for everyone every
month, and a refresh would rewrite every profile. Held apart, a profile keeps its bytes while
the player does not play (:mod:`.profile_runs`), and a refresh rewrites the rank files instead.

How many buckets follows the number of ranked players (:func:`bucket_count`: a power of two
giving each bucket 64-128 players on average, one bucket up to 128): a 200-player federation
writes a few files, FIDE's 1.9 M players 16,384 of about 116. So a profile cannot name its
bucket (the count may change while the player does not play): it loads ``ranks/buckets.js``,
which tells ``static/ranks.js`` the count, and ranks.js works out the bucket from the id as
:func:`bucket` does, the CRC-32 of the id's UTF-8 modulo the count, in lower-case hex as wide
as the largest bucket's (``1a3`` of 4,096, ``0`` of one), then loads ``ranks/<bucket>.js``
(scripts, not ``fetch()``: a page opened from ``file://`` may load a script but not fetch a
JSON file). Each file has a JSON twin for programs (``ranks/buckets.json``, ``ranks/1a3.json``).
A bucket without a ranked player has no file (the profile then keeps its words without ranks);
a refresh removes the files of buckets the new count no longer has (:mod:`.static_site`).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator

import numpy as np
import pandas as pd

from pipeline.site import addresses as at
from pipeline.site.history_data import SiteData

TARGET = 128  # ranked players a bucket holds at most, on average
COUNT_FILE = "buckets"  # the stem of the file saying how many buckets there are


def bucket_count(players: int) -> int:
    """The buckets for ``players`` ranked players: the least power of two giving each at most
    :data:`TARGET` on average (so at least half of it once there are more than TARGET)."""
    count = 1
    while count * TARGET < players:
        count *= 2
    return count


def bucket(player_id: str, count: int) -> str:
    """The bucket of ``player_id`` among ``count``: its rank file's stem (static/ranks.js
    computes the same)."""
    return _name(zlib.crc32(player_id.encode()) % count, count)


def _name(number: int, count: int) -> str:
    """A bucket's stem: its number in lower-case hex, as wide as the largest's."""
    return f"{number:0{len(f'{count - 1:x}')}x}"


def _crcs(ids: pd.Series) -> np.ndarray:
    return np.array([zlib.crc32(i.encode()) for i in ids.tolist()], dtype=np.int64)


def _ranked(data: SiteData) -> tuple[pd.DataFrame, int]:
    """(the ranked players of each kind's latest list: id, kind, world, national and their
    bucket's number; the bucket count, :func:`bucket_count` of the players ranked on any
    kind)."""
    parts = []
    for kind in data.kinds():
        month = data.latest(kind)
        if month is None:
            continue
        frame = data.frame(month)
        crcs = data.kept(("crc32", month.content_id), lambda f=frame: _crcs(f["id"]),
                         with_lists=True)  # fmt: skip
        keep = frame["world_rank"].notna().to_numpy(dtype=bool)
        parts.append(pd.DataFrame({
            "id": frame["id"].to_numpy(dtype=object)[keep],
            "kind": kind,
            "world": frame["world_rank"].to_numpy(dtype=object)[keep],
            "national": frame["national_rank"].to_numpy(dtype=object)[keep],
            "crc": crcs[keep],
        }))  # fmt: skip
    if not parts:
        rows = pd.DataFrame(columns=["id", "kind", "world", "national", "crc"])
    else:
        rows = pd.concat(parts, ignore_index=True)
    count = bucket_count(rows["id"].nunique())
    return rows.assign(bucket=rows["crc"].to_numpy(dtype=np.int64) % count), count


def _bodies(data: SiteData, rows: pd.DataFrame, name: str) -> tuple[bytes, bytes]:
    """(the script, the JSON) of one bucket's ``rows`` (sorted by id, then kind)."""
    ranks: dict[str, dict[str, list[int]]] = {}
    for player_id, kind, world, national in zip(
        rows["id"].tolist(), rows["kind"].tolist(), rows["world"].tolist(),
        rows["national"].tolist(), strict=True,
    ):  # fmt: skip
        ranks.setdefault(player_id, {})[kind] = [int(world), int(national)]
    lists = {k: m.month for k in data.kinds() if (m := data.latest(k)) is not None}
    text = json.dumps({"bucket": name, "lists": lists, "ranks": ranks}, ensure_ascii=True,
                      separators=(",", ":"))  # fmt: skip
    return f"fiderateRanks.add({text});\n".encode(), (text + "\n").encode()


def _count_bodies(count: int) -> tuple[bytes, bytes]:
    """(the script, the JSON) of the file saying how many buckets there are."""
    text = json.dumps({"buckets": count, "digits": len(_name(0, count))}, separators=(",", ":"))
    return f"fiderateRanks.buckets({count});\n".encode(), (text + "\n").encode()


def _sorted(rows: pd.DataFrame, kinds: tuple[str, ...]) -> pd.DataFrame:
    order = rows["kind"].map({k: i for i, k in enumerate(kinds)})
    return rows.assign(order=order).sort_values(["bucket", "id", "order"], kind="stable")


def rank_files(data: SiteData) -> Iterator[tuple[str, bytes]]:
    """The file of the bucket count, then every bucket's rank files, in bucket order."""
    rows, count = _ranked(data)
    script, text = _count_bodies(count)
    yield at.rank_file(COUNT_FILE, "js"), script
    yield at.rank_file(COUNT_FILE, "json"), text
    for number, part in _sorted(rows, data.kinds()).groupby("bucket", sort=True):
        name = _name(int(number), count)
        script, text = _bodies(data, part, name)
        yield at.rank_file(name, "js"), script
        yield at.rank_file(name, "json"), text


def rank_file(data: SiteData, name: str, layout: str) -> bytes | None:
    """One rank file (the live server's answer): the bucket count's (``name`` buckets) or a
    bucket's, None when the count has no such bucket or it has no ranked player."""
    rows, count = _ranked(data)
    if name == COUNT_FILE:
        script, text = _count_bodies(count)
    else:
        number = int(name, 16)
        if number >= count or name != _name(number, count):
            return None
        part = _sorted(rows[rows["bucket"].to_numpy() == number], data.kinds())
        if part.empty:
            return None
        script, text = _bodies(data, part, name)
    return script if layout == "js" else text
