"""What a history database holds at a glance, read-only (the pages of ``fiderate serve``): the
lists recorded (published by ``fiderate period`` or given to it) and the results still waiting
for a first rating, all players together. A player's own rows are :func:`database.read_player`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pipeline.history import store
from pipeline.history.database import database_problem, open_read_only, translate
from pipeline.rules.rating_kinds import KINDS

# rating_kind: standard, rapid or blitz; kind: published or input.
LIST_FIELDS = ("rating_kind", "effective", "period", "kind", "source", "players", "superseded")


def read_overview(path: Path) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """(every list, newest first; every pending result, kind by kind, oldest first), the
    database only read."""
    con = open_read_only(path)
    try:
        lists = [
            dict(zip(LIST_FIELDS, row, strict=True))
            for row in con.execute(
                f"SELECT {', '.join(LIST_FIELDS)} FROM lists ORDER BY effective DESC, id DESC"
            )
        ]
        rows = [
            {
                "rating_kind": kind,
                "player_id": r.player_id,
                "period": r.period,
                "event": r.event,
                "start_date": r.start_date,
                "games": int(r.games),
                "points": f"{int(r.points_h) // 100}.{int(r.points_h) % 100 // 10}",
                "opponents_sum": int(r.opp_sum),
                "disregarded": bool(r.disregarded),
            }
            for kind in KINDS
            for r in store.pending_results(con, rating_kind=kind).itertuples(index=False)
        ]
        return lists, rows
    except sqlite3.Error as exc:
        raise translate(path, exc) from None
    except (ValueError, OSError, KeyError) as exc:
        raise database_problem(
            path,
            f"the history database cannot be read ({type(exc).__name__}: {exc})",
            "restore ratings.db from a backup",
        ) from None
    finally:
        con.close()
