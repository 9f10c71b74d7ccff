"""The world and national ranks of the latest list of each kind, in files of their own that a
profile loads (``static/ranks.js``), split into buckets of players by id.

Why not on the profile: a rank moves for almost everyone every month (a player who did not play
moves when others pass them), so a profile holding its ranks would change for everyone every
month, and a refresh would rewrite every profile. Held apart, a profile keeps its bytes while
the player does not play (:mod:`.profile_runs`), and a refresh rewrites the rank files instead.

A bucket is the CRC-32 of the id's UTF-8 modulo :data:`BUCKETS` (three hex digits): fixed
forever for an id (a profile names its bucket's file), spread evenly whatever the ids look like
(50 players a file at 50,000 players, 1,900 at FIDE's 1.9 M). Each bucket is written twice:
``ranks/BBB.js``, a script calling ``fiderateRanks.add`` (a script loads from ``file://``,
where ``fetch()`` of a JSON file is refused), and ``ranks/BBB.json``, the same object for
programs. A bucket without a ranked player has no file (the profile then keeps its words
without ranks).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator

import numpy as np
import pandas as pd

from pipeline.site import addresses as at
from pipeline.site.history_data import SiteData

BUCKETS = 1024


def bucket(player_id: str) -> str:
    """The bucket of ``player_id``: its rank file's stem."""
    return f"{zlib.crc32(player_id.encode()) % BUCKETS:03x}"


def _buckets(ids: pd.Series) -> np.ndarray:
    return np.array([bucket(i) for i in ids.tolist()], dtype=object)


def _ranked(data: SiteData) -> pd.DataFrame:
    """The ranked players of each kind's latest list: id, kind, world, national, bucket."""
    parts = []
    for kind in data.kinds():
        month = data.latest(kind)
        if month is None:
            continue
        frame = data.frame(month)
        buckets = data.kept(("buckets", month.content_id), lambda f=frame: _buckets(f["id"]),
                            with_lists=True)  # fmt: skip
        keep = frame["world_rank"].notna().to_numpy(dtype=bool)
        parts.append(pd.DataFrame({
            "id": frame["id"].to_numpy(dtype=object)[keep],
            "kind": kind,
            "world": frame["world_rank"].to_numpy(dtype=object)[keep],
            "national": frame["national_rank"].to_numpy(dtype=object)[keep],
            "bucket": buckets[keep],
        }))  # fmt: skip
    if not parts:
        return pd.DataFrame(columns=["id", "kind", "world", "national", "bucket"])
    return pd.concat(parts, ignore_index=True)


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


def _sorted(rows: pd.DataFrame, kinds: tuple[str, ...]) -> pd.DataFrame:
    order = rows["kind"].map({k: i for i, k in enumerate(kinds)})
    return rows.assign(order=order).sort_values(["bucket", "id", "order"], kind="stable")


def rank_files(data: SiteData) -> Iterator[tuple[str, bytes]]:
    """Every bucket's rank files, in bucket order."""
    rows = _sorted(_ranked(data), data.kinds())
    for name, part in rows.groupby("bucket", sort=True):
        script, text = _bodies(data, part, str(name))
        yield at.rank_file(str(name), "js"), script
        yield at.rank_file(str(name), "json"), text


def rank_file(data: SiteData, name: str, layout: str) -> bytes | None:
    """One bucket's file (the live server's answer), None when the bucket has no ranked
    player."""
    rows = _ranked(data)
    part = _sorted(rows[rows["bucket"].to_numpy() == name], data.kinds())
    if part.empty:
        return None
    script, text = _bodies(data, part, name)
    return script if layout == "js" else text
