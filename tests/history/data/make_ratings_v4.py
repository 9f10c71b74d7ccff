"""How ratings_v4.db, ratings_v4_rapid.db and ratings_v4_expected.json were made (kept as a
record; no test runs it).

With the code of commit c2e02d7 (history schema version 4: one kind of list per history, the
era of a run not stored), from that checkout's root, its virtualenv's ``fiderate`` on the PATH:
    PYTHONPATH=. python tests/history/data/make_ratings_v4.py OUT
then OUT/standard/ratings.db copied here as ratings_v4.db, OUT/rapid/ratings.db as
ratings_v4_rapid.db, OUT/rapid/rating_list_2026-12.csv as rating_list_2026-12_v4_rapid.csv and
OUT/expected.json as ratings_v4_expected.json. (``run_search``, which it calls, was that code's
search by a part of the name; it was removed since, the rating site's search being the one
rule: the migration test finds the same players with it.)

The standard history (no --rules: the default) holds the sample's November, a December played on
the list it published, then December again with --replace and a result corrected, so it has a
superseded run, first-rating results still pending, and each period's calculation. The rapid
history (--rules rapid) holds the sample's November only. Each command is the real command line
(the history records it, and version 5 reads the kind of list from it).
"""

import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

from pipeline.history.store import SCHEMA_VERSION, connect, list_rows, pending_results
from pipeline.jobs.player_history import (
    CalculationRequest,
    HistoryRequest,
    OverviewRequest,
    SearchRequest,
    history_overview,
    run_calculation,
    run_history,
    run_search,
)

GAMES = (
    "event,round,date,white,black,result\n"
    "Dec,1,2026-12-02,5100010,5100029,{}\nDec,2,2026-12-03,5100037,5100045,1-0\n"
    "Dec,3,2026-12-04,5100118,5100053,0-1\n"
)
SAMPLE = Path("sample_data/period")


def fiderate(*args: object) -> None:
    subprocess.run(["fiderate", *map(str, args), "--quiet"], check=True)


def rows(frame: pd.DataFrame) -> list[list[object]]:
    frame = frame.sort_values("id").astype(object)
    return [[None if pd.isna(v) else v for v in r] for r in frame.itertuples(index=False)]


def read_back(db: Path) -> dict[str, object]:
    """What this code reads from ``db``: every list, every player's history and calculations,
    the pool, a search, the overview."""
    con = connect(db)
    lists = {str(i): rows(list_rows(con, i)) for (i,) in con.execute("SELECT id FROM lists")}
    periods = [
        r[0] for r in con.execute("SELECT DISTINCT period FROM runs WHERE period IS NOT NULL")
    ]
    pending = json.loads(pending_results(con).to_json(orient="records"))
    con.close()
    ids = sorted({r[0] for v in lists.values() for r in v})
    histories, calculations = {}, {}
    for pid in ids:
        found = run_history(HistoryRequest(pid, db))
        histories[pid] = {"lists": found.lists, "pending": found.pending}
        for period in periods:
            try:
                calc = run_calculation(CalculationRequest(pid, period, db))
            except Exception as exc:  # noqa: BLE001  (the refusal's text is recorded)
                calculations[f"{pid} {period}"] = {"error": str(exc)}
            else:
                calculations[f"{pid} {period}"] = dataclasses.asdict(calc)
    search = run_search(SearchRequest("an", db))
    overview = history_overview(OverviewRequest(db))
    return {
        "lists": lists,
        "pending": pending,
        "histories": histories,
        "calculations": calculations,
        "search": {"month": search.month, "players": search.players, "matched": search.matched},
        "overview": {"lists": overview.lists, "pending": overview.pending},
    }


def main(root: Path) -> None:
    assert SCHEMA_VERSION == 4
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    standard, rapid, dec = root / "standard", root / "rapid", root / "december"
    first = ("--list", SAMPLE / "list_2026-11.csv", "--events", SAMPLE / "events")
    fiderate("period", *first, "--period", "2026-11", "--out", standard)
    fiderate("period", *first, "--period", "2026-11", "--out", rapid, "--rules", "rapid")
    dec.mkdir()
    for result, again in (("1-0", ()), ("0-1", ("--replace",))):  # December, then corrected
        (dec / "dec.csv").write_text(GAMES.format(result))
        fiderate(
            "period", "--list", standard / "rating_list_2026-12.csv", "--events", dec,
            "--period", "2026-12", "--out", standard, *again,
        )  # fmt: skip
    expected = {
        "standard": read_back(standard / "ratings.db"),
        "rapid": read_back(rapid / "ratings.db"),
    }
    (root / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
